// Every query on games and favorites.
import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import { statement } from '../../db/statement.js';
import type { GameRow, NewGame } from '../../db/schema.js';
import { LISTED_STATUSES } from './manifest.js';
import { playtimeSeconds } from './playtime.repository.js';
import { relevance } from './search.js';

/** The columns the API's Game object is made from, with the game's playtime (playtimeSeconds). */
export const GAME_COLUMNS = [
  'id',
  'slug',
  'name',
  'tagline',
  'description',
  'category',
  'tags',
  'version',
  'orientation',
  'players_min',
  'players_max',
  'leaderboard_enabled',
  'leaderboard_order',
  'leaderboard_unit',
  'save_slots',
  'requires_premium',
  'status',
  'author',
  'released_at',
  'cover',
  'cover_key',
  'entry',
  'files_dir',
  'plays',
  'created_at',
  'featured_at',
] as const;

/** What a query over `games` selects for a Game: its columns and its playtime. */
const GAME_SELECTION = [...GAME_COLUMNS, playtimeSeconds('games')];

export type GameRecord = Pick<GameRow, (typeof GAME_COLUMNS)[number] | 'playtime_seconds'>;

export interface CatalogueFilter {
  category?: string;
}

function listed(db: Executor) {
  return db.selectFrom('games').where('status', 'in', [...LISTED_STATUSES]);
}

/** Listed games of a category, or all of them. The catalogue is small; games_status_idx narrows it to published and beta. */
export async function findListedGames(db: Executor, filter: CatalogueFilter): Promise<GameRecord[]> {
  if (filter.category === undefined) return (await wholeCatalogue.run(db)).rows;
  return listed(db).select(GAME_SELECTION).where('category', '=', filter.category).execute();
}
// GET /v1/games without a filter, the common call: compiled once (db/statement.ts)
const wholeCatalogue = statement('games.wholeCatalogue', (_p, db) => listed(db).select(GAME_SELECTION));

/**
 * Listed games matching a search, each with its relevance (search.ts), in no particular order. One query on both
 * databases: the whole listed catalogue (small, no paging) is scored in JS, so that typo tolerance, prefixes and field
 * weights are the same on SQLite and PostgreSQL.
 */
export async function searchListedGames(
  db: Executor,
  query: string,
): Promise<Array<GameRecord & { relevance: number }>> {
  const rows = await listedWithText.run(db);
  const found: Array<GameRecord & { relevance: number }> = [];
  for (const { search_text, ...row } of rows.rows) {
    const score = relevance(query, search_text);
    if (score > 0) found.push({ ...row, relevance: score });
  }
  return found;
}
const listedWithText = statement('games.listedWithText', (_p, db) =>
  listed(db).select([...GAME_SELECTION, 'search_text']),
);

/** Listed games counted per category (no category filter: docs/api.md, "Catalogue decisions"). */
export async function countListedByCategory(db: Executor): Promise<Map<string, number>> {
  const rows = (await perCategoryOfAll.run(db)).rows;
  return new Map(rows.map((r) => [r.category, Number(r.n)]));
}

const perCategoryOfAll = statement('games.perCategoryOfAll', (_p, db) =>
  listed(db)
    .select(['category', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('category'),
);

/** A game clients may see (published or beta). Unique index on slug. */
export function findListedGame(
  db: Executor,
  slug: string,
): Promise<
  | (GameRecord & Pick<GameRow, 'previous_files_dir' | 'previous_entry' | 'cross_origin_isolated' | 'screenshots'>)
  | undefined
> {
  return db
    .selectFrom('games')
    .select([...GAME_SELECTION, 'previous_files_dir', 'previous_entry', 'cross_origin_isolated', 'screenshots'])
    .where('slug', '=', slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirst();
}

/**
 * Up to `limit` other listed games like `game`: same category first, then the most tags in common, then the most
 * played, then by slug. The listed catalogue is small (games_status_idx); each game's tags (a JSON array) are counted
 * against the game's with the database's JSON table function.
 */
export function findRelatedGames(
  db: Executor,
  game: Pick<GameRecord, 'id' | 'category' | 'tags'>,
  limit: number,
): Promise<GameRecord[]> {
  const shared = isPostgres(db)
    ? sql<number>`(select count(*) from jsonb_array_elements_text(games.tags::jsonb) as t(v) where t.v in (select jsonb_array_elements_text(${game.tags}::jsonb)))`
    : sql<number>`(select count(*) from json_each(games.tags) as t where t.value in (select value from json_each(${game.tags})))`;
  return listed(db)
    .select(GAME_SELECTION)
    .where('id', '<>', game.id)
    .orderBy(sql`case when category = ${game.category} then 0 else 1 end`)
    .orderBy(shared, 'desc')
    .orderBy('plays', 'desc')
    .orderBy('slug')
    .limit(limit)
    .execute();
}

export type FilesGameRow = Pick<
  GameRow,
  | 'id'
  | 'slug'
  | 'status'
  | 'files_dir'
  | 'entry'
  | 'previous_files_dir'
  | 'previous_entry'
  | 'cross_origin_isolated'
  | 'requires_premium'
>;

/**
 * A game whatever its status, with what the game-file route decides on (a build of a draft game may be previewed).
 * Unique index on slug.
 */
export function findGameForFiles(db: Executor, slug: string): Promise<FilesGameRow | undefined> {
  return db
    .selectFrom('games')
    .select([
      'id',
      'slug',
      'status',
      'files_dir',
      'entry',
      'previous_files_dir',
      'previous_entry',
      'cross_origin_isolated',
      'requires_premium',
    ])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** Every game, any status, for the operator. */
export function findAllGames(db: Executor): Promise<Array<GameRecord & { studio_id: number | null }>> {
  return db
    .selectFrom('games')
    .select([...GAME_SELECTION, 'studio_id'])
    .orderBy('slug')
    .execute();
}

/** The file sets each game serves (current and replaced), any status; one game when `slug` is given. */
export function findServedFileSets(
  db: Executor,
  slug?: string,
): Promise<Array<{ slug: string; files_dir: string; previous_files_dir: string | null }>> {
  let query = db.selectFrom('games').select(['slug', 'files_dir', 'previous_files_dir']).orderBy('slug');
  if (slug !== undefined) query = query.where('slug', '=', slug);
  return query.execute();
}

export function findGameId(db: Executor, slug: string): Promise<{ id: number; slug: string } | undefined> {
  return db.selectFrom('games').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
}

export async function updateGameStatus(db: Executor, id: number, status: string, now: number): Promise<void> {
  await db.updateTable('games').set({ status, updated_at: now }).where('id', '=', id).execute();
}

// ---- publish

/** The manifest's columns; `status` absent keeps the current one (or `published` for a new game). */
export type PublishValues = Omit<
  NewGame,
  'id' | 'plays' | 'playtime_seconds' | 'created_at' | 'previous_files_dir' | 'previous_entry' | 'status'
> & {
  status?: string;
};

export interface PublishedRow {
  id: number;
  files_dir: string;
  entry: string;
  version: string;
  status: string;
}

/** The game with this slug, locked until the transaction ends on PostgreSQL (SQLite's transactions are serialised already). */
export function lockGameBySlug(db: Executor, slug: string): Promise<PublishedRow | undefined> {
  const query = db
    .selectFrom('games')
    .select(['id', 'files_dir', 'entry', 'version', 'status'])
    .where('slug', '=', slug);
  return (isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
}

/** Inserts a new game unless the slug exists (a concurrent first publish waits on the unique index, then does nothing). */
export async function insertGameIfAbsent(
  db: Executor,
  values: PublishValues,
  now: number,
): Promise<number | undefined> {
  const row = await db
    .insertInto('games')
    .values({ ...values, status: values.status ?? 'published', created_at: now })
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Switches a game to a new file set and manifest in one statement; id, counters and favourites stay. */
export async function updatePublishedGame(
  db: Executor,
  id: number,
  values: PublishValues,
  previous: PublishedRow,
): Promise<void> {
  const { status, ...rest } = values;
  await db
    .updateTable('games')
    .set({
      ...rest,
      ...(status === undefined ? {} : { status }),
      previous_files_dir: previous.files_dir,
      previous_entry: previous.entry,
    })
    .where('id', '=', id)
    .execute();
}

// ---- favourites

export async function isFavorite(db: Executor, playerId: number, gameId: number): Promise<boolean> {
  const row = await db
    .selectFrom('favorites')
    .select('game_id')
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks the player's row so that toggles by one player run one after the other on PostgreSQL
 * (FOR NO KEY UPDATE does not block inserts that reference the player).
 */
export async function lockPlayer(db: Executor, playerId: number): Promise<void> {
  if (!isPostgres(db)) return;
  await db.selectFrom('players').select('id').where('id', '=', playerId).forNoKeyUpdate().execute();
}

export async function deleteFavorite(db: Executor, playerId: number, gameId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('favorites')
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertFavorite(db: Executor, playerId: number, gameId: number, now: number): Promise<void> {
  await db
    .insertInto('favorites')
    .values({ player_id: playerId, game_id: gameId, created_at: now })
    .onConflict((oc) => oc.columns(['player_id', 'game_id']).doNothing())
    .execute();
}

// ---- the entry-file gate

export interface EntrySessionRow {
  id: number;
  role: string;
  membership_plan: string;
  membership_status: string;
  membership_renews_at: number | null;
  membership_ends_at: number | null;
}

/**
 * The player of an active play session of this game, heard from since `activeSince`.
 * Unique index on play_sessions.token_hash; one row.
 */
export function findEntrySession(
  db: Executor,
  tokenHash: string,
  gameId: number,
  activeSince: number,
): Promise<EntrySessionRow | undefined> {
  return db
    .selectFrom('play_sessions as s')
    .innerJoin('players as p', 'p.id', 's.player_id')
    .select([
      'p.id',
      'p.role',
      'p.membership_plan',
      'p.membership_status',
      'p.membership_renews_at',
      'p.membership_ends_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.game_id', '=', gameId)
    .where('s.status', '=', 'active')
    .where('s.last_heartbeat_at', '>', activeSince)
    .where('p.status', '=', 'active')
    .executeTakeFirst();
}

export function findGameStatus(
  db: Executor,
  slug: string,
): Promise<{ id: number; status: string; featured_at: number | null } | undefined> {
  return db.selectFrom('games').select(['id', 'status', 'featured_at']).where('slug', '=', slug).executeTakeFirst();
}

/** Features a game on the home page from `at`, or (null) no longer. */
export async function setGameFeatured(db: Executor, id: number, at: number | null): Promise<void> {
  await db.updateTable('games').set({ featured_at: at }).where('id', '=', id).execute();
}

/** The file sets a game's row names now: publish cleanup never removes these. */
export function findGameFileSets(
  db: Executor,
  slug: string,
): Promise<{ id: number; files_dir: string; previous_files_dir: string | null } | undefined> {
  return db
    .selectFrom('games')
    .select(['id', 'files_dir', 'previous_files_dir'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/**
 * Whether any play session of the game is still active (heard from since `activeSince`): the game's open sessions
 * from play_sessions_game_live_idx (`status` as a literal so that SQLite uses that partial index).
 */
export async function hasActiveSession(db: Executor, gameId: number, activeSince: number): Promise<boolean> {
  const row = await db
    .selectFrom('play_sessions')
    .select('id')
    .where('status', '=', sql.lit('active'))
    .where('last_heartbeat_at', '>', activeSince)
    .where('game_id', '=', gameId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
