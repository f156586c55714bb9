// Queries on player_tokens.
import type { Executor } from '../../db/connect.js';

export interface ActiveTokenRow {
  token_id: number;
  player_id: number;
  role: string;
  last_used_at: number | null;
}

/** The unrevoked, unexpired token with this hash, of an active player. Uses the unique index on token_hash. */
export function findActiveToken(db: Executor, tokenHash: string, now: number): Promise<ActiveTokenRow | undefined> {
  return db
    .selectFrom('player_tokens as t')
    .innerJoin('players as p', 'p.id', 't.player_id')
    .select(['t.id as token_id', 't.player_id', 'p.role', 't.last_used_at'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('p.status', '=', 'active')
    .executeTakeFirst();
}

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
}

export async function insertToken(db: Executor, input: NewTokenInput): Promise<number> {
  const row = await db
    .insertInto('player_tokens')
    .values({ ...input, last_used_at: input.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
