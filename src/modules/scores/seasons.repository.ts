// Queries on board seasons (docs/api.md, "Board seasons"): the ended seasons of a board and their frozen standings.
import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';

export interface SeasonRow {
  id: number;
  season: number;
  sort_order: string;
  started_at: number | null;
  ended_at: number;
  players: number;
}

const SEASON_COLUMNS = ['id', 'season', 'sort_order', 'started_at', 'ended_at', 'players'] as const;

/** The board's latest ended season: unique index leaderboard_seasons_key, read backwards, one row. */
export async function lastSeason(db: Executor, gameId: number, board: string): Promise<SeasonRow | undefined> {
  return db
    .selectFrom('leaderboard_seasons')
    .select(SEASON_COLUMNS)
    .where('game_id', '=', gameId)
    .where('board', '=', board)
    .orderBy('season', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** One ended season: unique index leaderboard_seasons_key. */
export async function findSeason(
  db: Executor,
  gameId: number,
  board: string,
  season: number,
): Promise<SeasonRow | undefined> {
  return db
    .selectFrom('leaderboard_seasons')
    .select(SEASON_COLUMNS)
    .where('game_id', '=', gameId)
    .where('board', '=', board)
    .where('season', '=', season)
    .executeTakeFirst();
}

/** The board's ended seasons, newest first. */
export async function listSeasons(db: Executor, gameId: number, board: string): Promise<SeasonRow[]> {
  return db
    .selectFrom('leaderboard_seasons')
    .select(SEASON_COLUMNS)
    .where('game_id', '=', gameId)
    .where('board', '=', board)
    .orderBy('season', 'desc')
    .execute();
}

/** Claims the season's number; undefined when a concurrent request claimed it first (it waits on the unique key). */
export async function insertSeason(
  db: Executor,
  row: {
    game_id: number;
    board: string;
    season: number;
    sort_order: string;
    started_at: number | null;
    ended_at: number;
  },
): Promise<number | undefined> {
  const inserted = await db
    .insertInto('leaderboard_seasons')
    .values({ ...row, players: 0 })
    .onConflict((oc) => oc.columns(['game_id', 'board', 'season']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function setSeasonPlayers(db: Executor, seasonId: number, players: number): Promise<void> {
  await db.updateTable('leaderboard_seasons').set({ players }).where('id', '=', seasonId).execute();
}

/**
 * Moves a board's bests into the season's standings, ranked 1..n in the board's order (norm, reached_at, score_id:
 * the ranks the count tree gives), and leaves the board without bests. PostgreSQL does both in one statement, so the
 * rows archived are exactly the rows deleted even while submissions commit; SQLite has one writer at a time.
 * Returns the players archived.
 */
export async function moveBestsToSeason(db: Executor, seasonId: number, boardId: number): Promise<number> {
  const ranked = (from: string) =>
    sql`select ${seasonId}, row_number() over (order by norm, reached_at, score_id), player_id, score, entries, last_played from ${sql.raw(from)}`;
  const columns = sql`leaderboard_season_ranks (season_id, rank, player_id, score, entries, last_played)`;
  if (isPostgres(db)) {
    await sql`with gone as (delete from leaderboard_bests where leaderboard_id = ${boardId} returning *)
insert into ${columns} ${ranked('gone')}`.execute(db);
  } else {
    await sql`insert into ${columns} ${ranked('leaderboard_bests')} where leaderboard_id = ${boardId}`.execute(db);
    await db.deleteFrom('leaderboard_bests').where('leaderboard_id', '=', boardId).execute();
  }
  const counted = await db
    .selectFrom('leaderboard_season_ranks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('season_id', '=', seasonId)
    .executeTakeFirstOrThrow();
  return Number(counted.n);
}

/** Every row of the board name, every period and order (the lock order of submissions: by id). */
export async function boardRowsOfName(db: Executor, gameId: number, board: string) {
  return db
    .selectFrom('leaderboards')
    .select(['id', 'period', 'period_key', 'sort_order'])
    .where('game_id', '=', gameId)
    .where('board', '=', board)
    .orderBy('id')
    .execute();
}

export interface SeasonPageRow {
  rank: number;
  score: number;
  entries: number;
  last_played: number;
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
  guest: number;
}

/** The season's rows ranked after `afterRank`, `limit` of them: primary key range scan. */
export async function seasonPage(
  db: Executor,
  seasonId: number,
  afterRank: number,
  limit: number,
): Promise<SeasonPageRow[]> {
  return db
    .selectFrom('leaderboard_season_ranks as r')
    .innerJoin('players as p', 'p.id', 'r.player_id')
    .select(['r.rank', 'r.score', 'r.entries', 'r.last_played'])
    .select(['p.username', 'p.display_name', 'p.country', 'p.avatar_key', 'p.guest'])
    .where('r.season_id', '=', seasonId)
    .where('r.rank', '>', afterRank)
    .orderBy('r.rank')
    .limit(limit)
    .execute();
}

/** The player's rank and score in the season: index leaderboard_season_ranks_player_idx. */
export async function seasonRankOf(
  db: Executor,
  seasonId: number,
  playerId: number,
): Promise<{ rank: number; score: number } | undefined> {
  return db
    .selectFrom('leaderboard_season_ranks')
    .select(['rank', 'score'])
    .where('player_id', '=', playerId)
    .where('season_id', '=', seasonId)
    .executeTakeFirst();
}
