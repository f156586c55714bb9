// Queries on game_builds and build_uploads.
import { isPostgres, type Executor } from '../../db/connect.js';
import type { GameBuildsTable } from '../../db/schema.js';
import type { Insertable, Selectable } from 'kysely';

export type BuildRow = Selectable<GameBuildsTable> & { uploader: string | null };

/** The columns of a build with its uploader's username (null: a developer key, or an account since deleted). */
function builds(db: Executor) {
  return db
    .selectFrom('game_builds as b')
    .leftJoin('players as p', 'p.id', 'b.uploaded_by')
    .selectAll('b')
    .select('p.username as uploader');
}

/** A game's builds, newest first. Unique index (game_id, number). */
export function findBuilds(db: Executor, gameId: number): Promise<BuildRow[]> {
  return builds(db).where('b.game_id', '=', gameId).orderBy('b.number', 'desc').execute();
}

export function findBuild(db: Executor, gameId: number, number: number): Promise<BuildRow | undefined> {
  return builds(db).where('b.game_id', '=', gameId).where('b.number', '=', number).executeTakeFirst();
}

export function findBuildBySet(db: Executor, gameId: number, set: string): Promise<BuildRow | undefined> {
  return builds(db).where('b.game_id', '=', gameId).where('b.files_dir', '=', set).executeTakeFirst();
}

/** What the game-file route needs of a build named by its file set: unique index on files_dir. */
export function findServedBuild(
  db: Executor,
  gameId: number,
  set: string,
): Promise<{ id: number; entry: string; released_at: number | null; manifest: string } | undefined> {
  return db
    .selectFrom('game_builds')
    .select(['id', 'entry', 'released_at', 'manifest'])
    .where('files_dir', '=', set)
    .where('game_id', '=', gameId)
    .where('state', '=', 'ready')
    .executeTakeFirst();
}

/** The file sets of a game's builds that still have their files (publish and prune never remove these). */
export async function findReadySets(db: Executor, gameId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('game_builds')
    .select('files_dir')
    .where('game_id', '=', gameId)
    .where('state', '=', 'ready')
    .execute();
  return rows.map((r) => r.files_dir);
}

export async function nextBuildNumber(db: Executor, gameId: number): Promise<number> {
  const row = await db
    .selectFrom('game_builds')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

export async function insertBuild(db: Executor, values: Insertable<GameBuildsTable>): Promise<number> {
  const row = await db.insertInto('game_builds').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function markReleased(db: Executor, id: number, now: number): Promise<void> {
  await db
    .updateTable('game_builds')
    .set({ released_at: now })
    .where('id', '=', id)
    .where('released_at', 'is', null)
    .execute();
}

/** Marks the build pruned unless it is already; true when this call did. */
export async function markPruned(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('game_builds')
    .set({ state: 'pruned', pruned_at: now })
    .where('id', '=', id)
    .where('state', '=', 'ready')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The file sets the game serves now ('' before its first release) and the one the last release replaced. */
export function findGameSets(
  db: Executor,
  gameId: number,
): Promise<{ files_dir: string; previous_files_dir: string | null } | undefined> {
  return db.selectFrom('games').select(['files_dir', 'previous_files_dir']).where('id', '=', gameId).executeTakeFirst();
}

/** The file set the game serves now ('' before its first release). */
export async function findLiveSet(db: Executor, gameId: number): Promise<string | undefined> {
  const row = await db.selectFrom('games').select('files_dir').where('id', '=', gameId).executeTakeFirst();
  return row?.files_dir;
}

// ---- the game row a build is released into

export interface ReleaseTarget {
  id: number;
  slug: string;
  files_dir: string;
  entry: string;
  previous_files_dir: string | null;
}

/** The game, locked until the transaction ends on PostgreSQL (SQLite's write transactions are serialised already). */
export function lockGame(db: Executor, gameId: number): Promise<ReleaseTarget | undefined> {
  const query = db
    .selectFrom('games')
    .select(['id', 'slug', 'files_dir', 'entry', 'previous_files_dir'])
    .where('id', '=', gameId);
  return (isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
}
