// The lookups the page routes make: is there such a game or player (so an unknown one is a real 404), and what its page
// shows before any script runs (<title>, description, cover or avatar, for readers, crawlers and link previews).
import type { Executor } from '../../db/connect.js';
import { type Params, statement } from '../../db/statement.js';
import { USERNAME_PATTERN } from '../accounts/username.js';
import { LISTED_STATUSES, SLUG_PATTERN } from '../games/manifest.js';

export interface PageGame {
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  cover: string;
  cover_key: string | null;
  files_dir: string;
  cross_origin_isolated: number;
}

/** A game clients can see (published or beta), by slug. A string that cannot be a slug is not looked up. */
export async function findListedGame(db: Executor, slug: string): Promise<PageGame | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  return db
    .selectFrom('games')
    .select(['slug', 'name', 'tagline', 'description', 'cover', 'cover_key', 'files_dir', 'cross_origin_isolated'])
    .where('slug', '=', slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirst();
}

export interface PagePlayer {
  username: string;
  display_name: string;
  avatar_key: string | null;
  bio: string | null;
}

/** An active player, by username (case-insensitive, through the unique username_key). A string that cannot be a username is not looked up. */
export async function findActivePlayer(db: Executor, username: string): Promise<PagePlayer | undefined> {
  if (!USERNAME_PATTERN.test(username)) return undefined;
  return db
    .selectFrom('players')
    .select(['username', 'display_name', 'avatar_key', 'bio'])
    .where('username_key', '=', username.toLowerCase())
    .where('status', '=', 'active')
    .where('guest', '=', 0) // a guest has no public profile
    .executeTakeFirst();
}

/** Whether any game exists at all (the demo games are published into an empty catalogue). */
export async function hasAnyGame(db: Executor): Promise<boolean> {
  return (await db.selectFrom('games').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export interface SitemapGame {
  slug: string;
  category: string;
  released_at: string;
}

/** Every game clients can see (published or beta), for the sitemap: slug, category and when it was last released. */
export async function listListedGamesForSitemap(db: Executor): Promise<SitemapGame[]> {
  return db
    .selectFrom('games')
    .select(['slug', 'category', 'released_at'])
    .where('status', 'in', [...LISTED_STATUSES])
    .orderBy('slug')
    .execute();
}

/** Every game clients can see, as its page shows it (for rendering the previews ahead of crawlers). */
export async function listListedPageGames(db: Executor): Promise<PageGame[]> {
  return db
    .selectFrom('games')
    .select(['slug', 'name', 'tagline', 'description', 'cover', 'cover_key', 'files_dir', 'cross_origin_isolated'])
    .where('status', 'in', [...LISTED_STATUSES])
    .orderBy('slug')
    .execute();
}

export interface HeaderPlayerRow {
  username: string;
  display_name: string;
  avatar_key: string | null;
  guest: number;
}

/** What the served header shows of the player a session names (by primary key), active only. */
export async function findHeaderPlayer(db: Executor, playerId: number): Promise<HeaderPlayerRow | undefined> {
  return headerPlayer.first(db, { playerId });
}
// every page served to a logged-in player runs it: compiled once (db/statement.ts)
const headerPlayer = statement('portal.headerPlayer', (p: Params<{ playerId: number }>, db) =>
  db
    .selectFrom('players')
    .select(['username', 'display_name', 'avatar_key', 'guest'])
    .where('id', '=', p.playerId)
    .where('status', '=', 'active'),
);
