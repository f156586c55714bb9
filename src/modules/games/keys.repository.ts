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
