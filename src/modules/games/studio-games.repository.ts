// Queries on games for studios and operators: a game's studio, its listing, its review, and the live switch of a release.
import type { Updateable } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import type { GameRow, GamesTable, NewGame } from '../../db/schema.js';

/** What studio routes show of a game and decide on. */
export const STUDIO_GAME_COLUMNS = [
  'id',
  'slug',
  'name',
  'tagline',
  'description',
  'category',
  'tags',
  'version',
  'orientation',
  'requires_premium',
  'status',
  'author',
  'released_at',
  'cover',
  'cover_key',
  'screenshots',
  'files_dir',
  'previous_files_dir',
  'studio_id',
  'review_status',
  'review_target',
  'review_note',
  'review_at',
  'created_at',
  'updated_at',
] as const;

export type StudioGameRow = Pick<GameRow, (typeof STUDIO_GAME_COLUMNS)[number]>;

export function findGameBySlug(db: Executor, slug: string): Promise<StudioGameRow | undefined> {
  return db.selectFrom('games').select(STUDIO_GAME_COLUMNS).where('slug', '=', slug).executeTakeFirst();
}

/** The game, locked until the transaction ends on PostgreSQL (SQLite's write transactions are serialised already). */
export function lockGameRow(db: Executor, id: number): Promise<StudioGameRow | undefined> {
  const query = db.selectFrom('games').select(STUDIO_GAME_COLUMNS).where('id', '=', id);
  return (isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
}

/** The games of these studios, by slug. Index games_studio_idx. */
export function findGamesOfStudios(db: Executor, studioIds: number[]): Promise<StudioGameRow[]> {
  if (!studioIds.length) return Promise.resolve([]);
  return db
    .selectFrom('games')
    .select(STUDIO_GAME_COLUMNS)
    .where('studio_id', 'in', studioIds)
    .orderBy('slug')
    .execute();
}

/** Games waiting for an operator's review, oldest request first. */
export function findPendingReviews(db: Executor): Promise<StudioGameRow[]> {
  return db
    .selectFrom('games')
    .select(STUDIO_GAME_COLUMNS)
    .where('review_status', '=', 'pending')
    .orderBy('review_at')
    .orderBy('id')
    .execute();
}

/** Inserts a draft game unless the slug is taken; its id, or undefined. */
export async function insertDraftGame(db: Executor, values: NewGame): Promise<number | undefined> {
  const row = await db
    .insertInto('games')
    .values(values)
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateGame(db: Executor, id: number, values: Updateable<GamesTable>): Promise<void> {
  await db.updateTable('games').set(values).where('id', '=', id).execute();
}
