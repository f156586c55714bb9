// Queries on player_tokens: only a SHA-256 of each token is stored.
import type { Executor } from '../../db/connect.js';
import { prepared } from '../../db/prepared.js';
import type { TokenKind } from '../../db/schema.js';

export interface ActiveTokenRow {
  token_id: number;
  player_id: number;
  role: string;
  last_used_at: number | null;
}

/** The unrevoked, unexpired token with this hash, of an active player. Uses the unique index on token_hash. */
export function findActiveToken(db: Executor, tokenHash: string, now: number): Promise<ActiveTokenRow | undefined> {
  return activeToken.first(db, tokenHash, now);
}
// every authenticated call runs it: compiled once (prepared.ts)
const activeToken = prepared((db, tokenHash: string, now: number) =>
  db
    .selectFrom('player_tokens as t')
    .innerJoin('players as p', 'p.id', 't.player_id')
    .select(['t.id as token_id', 't.player_id', 'p.role', 't.last_used_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('p.status', '=', 'active'),
);

export async function touchToken(db: Executor, tokenId: number, now: number): Promise<void> {
  await db.updateTable('player_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
}

export interface NewTokenInput {
  player_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: number;
  expires_at: number;
  /** default 'api' */
  kind?: TokenKind;
}

/** A new token has never been used: its last_used_at stays null until its first call (which writes it at once). */
export async function insertToken(db: Executor, input: NewTokenInput): Promise<number> {
  const row = await db
    .insertInto('player_tokens')
    .values({ ...input, kind: input.kind ?? 'api', last_used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface TokenListRow {
  id: number;
  kind: TokenKind;
  name: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number;
}

/** The player's unrevoked, unexpired tokens (of one kind, or of every kind when `kind` is null), newest first. Uses player_tokens_player_idx. */
export function listActiveTokens(db: Executor, playerId: number, kind: TokenKind | null, now: number): Promise<TokenListRow[]> {
  let query = db
    .selectFrom('player_tokens')
    .select(['id', 'kind', 'name', 'prefix', 'created_at', 'last_used_at', 'expires_at'])
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * The player's active tokens, of every kind, in the order in which they make room: never-used tokens first, oldest
 * first; then the used ones, least recently used first. last_used_at lags by at most a minute, but a token's first
 * call writes it at once, so a token in use is never taken for a never-used one.
 */
export function activeTokensByLeastUse(db: Executor, playerId: number, now: number): Promise<TokenListRow[]> {
  return db
    .selectFrom('player_tokens')
    .select(['id', 'kind', 'name', 'prefix', 'created_at', 'last_used_at', 'expires_at'])
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', (ob) => ob.asc().nullsFirst())
    .orderBy('id')
    .execute();
}

/** Revokes the given tokens of the player (of one kind only, when given); returns how many were active. */
export async function revokeTokens(db: Executor, playerId: number, ids: number[], now: number, kind?: TokenKind): Promise<number> {
  if (ids.length === 0) return 0;
  let query = db
    .updateTable('player_tokens')
    .set({ revoked_at: now })
    .where('player_id', '=', playerId)
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (kind) query = query.where('kind', '=', kind);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes the player's active tokens but `keepId` (of one kind, or of every kind when `kind` is null); how many. */
export async function revokeOtherTokens(db: Executor, playerId: number, kind: TokenKind | null, keepId: number, now: number): Promise<number> {
  let query = db.updateTable('player_tokens').set({ revoked_at: now }).where('player_id', '=', playerId);
  if (kind) query = query.where('kind', '=', kind);
  const result = await query
    .where('id', '!=', keepId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Revokes every token of the player (password reset, suspension). */
export async function revokeAllTokens(db: Executor, playerId: number, now: number): Promise<number> {
  const result = await db
    .updateTable('player_tokens')
    .set({ revoked_at: now })
    .where('player_id', '=', playerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
