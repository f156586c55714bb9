// Queries on player_tokens: only a SHA-256 of each token is stored.
import { sql, type Compilable } from 'kysely';
import { isPostgres, type Db, type Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { TokenKind } from '../../db/schema.js';
import type { MembershipFields } from './membership.js';

/** The token and its player's role and membership (what decides the player's daily limit, read here at no extra cost). */
export interface ActiveTokenRow extends MembershipFields {
  token_id: number;
  player_id: number;
  last_used_at: number | null;
  expires_at: number;
}

/** The unrevoked, unexpired token with this hash, of an active player. Uses the unique index on token_hash. */
export function findActiveToken(db: Executor, tokenHash: string, now: number): Promise<ActiveTokenRow | undefined> {
  return activeToken.first(db, { tokenHash, now });
}
// every authenticated call runs it: compiled once (db/statement.ts)
const activeToken = statement(
  'tokens.active',
  (p: Params<{ tokenHash: string; now: number }>, db) => activeTokenQuery(db, p.tokenHash, p.now),
  { sqliteParamsFromOneRow: true },
);
function activeTokenQuery(db: Db, tokenHash: ValueOrParam<string>, now: ValueOrParam<number>) {
  return db
    .selectFrom('player_tokens as t')
    .innerJoin('players as p', 'p.id', 't.player_id')
    .select([
      't.id as token_id',
      't.player_id',
      't.last_used_at',
      't.expires_at',
      'p.role',
      'p.membership_plan',
      'p.membership_status',
      'p.membership_renews_at',
      'p.membership_ends_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('p.status', '=', 'active');
}

export async function touchToken(db: Executor, tokenId: number, now: number): Promise<void> {
  await touch.run(db, { now, tokenId });
}
const touch = statement('tokens.touch', (p: Params<{ now: number; tokenId: number }>, db) =>
  db.updateTable('player_tokens').set({ last_used_at: p.now }).where('id', '=', p.tokenId),
);

/**
 * findActiveToken, and the token's last_used_at set to `now` when it is null or older than `touchBefore` (so it is
 * written at most once per interval, and at once on a token's first call). Every authenticated call runs it.
 * PostgreSQL: one statement (the lookup, and an UPDATE in a CTE that matches no row unless the touch is due: no write
 * and no extra round trip on most calls; two calls due at once both wait for the row lock, the second then no longer
 * matches). SQLite, where a CTE cannot write: the lookup, then the UPDATE when due.
 */
export async function findAndTouchActiveToken(
  db: Executor,
  tokenHash: string,
  now: number,
  touchBefore: number,
): Promise<ActiveTokenRow | undefined> {
  if (isPostgres(db)) return activeTokenTouched.first(db, { tokenHash, now, touchBefore });
  const row = await activeToken.first(db, { tokenHash, now });
  if (row && (row.last_used_at === null || row.last_used_at < touchBefore)) await touchToken(db, row.token_id, now);
  return row;
}

function activeTokenTouchedQuery(
  db: Db,
  { tokenHash, now, touchBefore }: Params<{ tokenHash: string; now: number; touchBefore: number }>,
): Compilable<ActiveTokenRow> {
  const lookup = activeTokenQuery(db, tokenHash, now);
  const query = sql<ActiveTokenRow>`with t as materialized (${lookup}), touch as (
  update player_tokens set last_used_at = cast(${now} as bigint)
  where id = (select token_id from t) and (last_used_at is null or last_used_at < cast(${touchBefore} as bigint))
)
select token_id, player_id, last_used_at, expires_at, role, membership_plan, membership_status, membership_renews_at, membership_ends_at from t`;
  return { compile: () => query.compile(db) };
}
const activeTokenTouched = statement(
  'tokens.activeTouched',
  (p: Params<{ tokenHash: string; now: number; touchBefore: number }>, db) => activeTokenTouchedQuery(db, p),
);

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
export function listActiveTokens(
  db: Executor,
  playerId: number,
  kind: TokenKind | null,
  now: number,
): Promise<TokenListRow[]> {
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
export async function revokeTokens(
  db: Executor,
  playerId: number,
  ids: number[],
  now: number,
  kind?: TokenKind,
): Promise<number> {
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
export async function revokeOtherTokens(
  db: Executor,
  playerId: number,
  kind: TokenKind | null,
  keepId: number,
  now: number,
): Promise<number> {
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
