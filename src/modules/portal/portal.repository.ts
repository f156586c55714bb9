// The two lookups the page routes make: is there such a game or player (so an unknown one is a real 404), and its name for <title>.
import type { Executor } from '../../db/connect.js';
import { USERNAME_PATTERN } from '../accounts/username.js';
import { LISTED_STATUSES, SLUG_PATTERN } from '../games/manifest.js';

/** A game clients can see (published or beta), by slug. A string that cannot be a slug is not looked up. */
export async function findListedGame(db: Executor, slug: string): Promise<{ name: string; tagline: string | null; cross_origin_isolated: number } | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  return db
    .selectFrom('games')
    .select(['name', 'tagline', 'cross_origin_isolated'])
    .where('slug', '=', slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirst();
}

/** An active player, by username (case-insensitive, through the unique username_key). A string that cannot be a username is not looked up. */
export async function findActivePlayer(db: Executor, username: string): Promise<{ username: string; display_name: string } | undefined> {
  if (!USERNAME_PATTERN.test(username)) return undefined;
  return db
    .selectFrom('players')
    .select(['username', 'display_name'])
    .where('username_key', '=', username.toLowerCase())
    .where('status', '=', 'active')
    .executeTakeFirst();
}

/** Whether any game exists at all (the demo games are published into an empty catalogue). */
export async function hasAnyGame(db: Executor): Promise<boolean> {
  return (await db.selectFrom('games').select('id').limit(1).executeTakeFirst()) !== undefined;
}
