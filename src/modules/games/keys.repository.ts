// Queries on developer_keys.
import type { Executor } from '../../db/connect.js';

export interface ActiveKeyRow {
  key_id: number;
  game_id: number;
  scopes: string;
  last_used_at: number | null;
}

/** The unrevoked key with this hash. Uses the unique index on key_hash. */
export function findActiveKey(db: Executor, keyHash: string): Promise<ActiveKeyRow | undefined> {
  return db
    .selectFrom('developer_keys')
    .select(['id as key_id', 'game_id', 'scopes', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchKey(db: Executor, keyId: number, now: number): Promise<void> {
  await db.updateTable('developer_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}

export interface NewKeyInput {
  game_id: number;
  name: string;
  key_hash: string;
  prefix: string;
  scopes: string;
  created_at: number;
}

export async function insertKey(db: Executor, input: NewKeyInput): Promise<number> {
  const row = await db.insertInto('developer_keys').values(input).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface KeyListRow {
  id: number;
  game: string;
  name: string;
  prefix: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Every key (of one game when `gameId` is given), oldest first. */
export function findKeys(db: Executor, gameId?: number): Promise<KeyListRow[]> {
  let query = db
    .selectFrom('developer_keys as k')
    .innerJoin('games as g', 'g.id', 'k.game_id')
    .select([
      'k.id',
      'g.slug as game',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.created_at',
      'k.last_used_at',
      'k.revoked_at',
    ]);
  if (gameId !== undefined) query = query.where('k.game_id', '=', gameId);
  return query.orderBy('k.id').execute();
}

export function findKey(
  db: Executor,
  id: number,
): Promise<{ id: number; game_id: number; revoked_at: number | null } | undefined> {
  return db
    .selectFrom('developer_keys')
    .select(['id', 'game_id', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Revokes the key unless it is revoked already; true when this call revoked it. */
export async function revokeKey(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('developer_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
