// The stored objects accounts point at: each player's uploaded avatar (a backup copies or lists them).
import type { Executor } from '../../db/connect.js';
import { avatarKey } from './avatar.service.js';

/** The store keys of every uploaded avatar a player points at. */
export async function avatarObjectKeys(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('players').select('avatar_key').where('avatar_key', 'is not', null).execute();
  return rows.map((row) => avatarKey(row.avatar_key!));
}
