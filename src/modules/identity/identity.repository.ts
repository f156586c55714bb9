// The one lookup the identity routes make that no other module does: a developer key's own game, by id.
import type { Executor } from '../../db/connect.js';

/** The slug of the game with this id (any status). Primary key. */
export async function findGameSlug(db: Executor, gameId: number): Promise<string | undefined> {
  const row = await db.selectFrom('games').select('slug').where('id', '=', gameId).executeTakeFirst();
  return row?.slug;
}
