// Queries on scores and score_requests, and the few reads of games, players and play sessions that scoring needs.
import { sql, type Insertable } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import { type Params, statement } from '../../db/statement.js';
import type { ScoresTable } from '../../db/schema.js';
import { LISTED_STATUSES } from '../games/manifest.js';
import type { ScoringGame } from './scoring-game.js';
import { boardsJson, lockBests, lockBestsSql, type BestRow } from './bests.repository.js';
import { boardLockSql } from './boards.repository.js';

/** A game clients can see (published or beta). Unique index on slug. */
export function findListedGame(db: Executor, slug: string): Promise<ScoringGame | undefined> {
  return db
    .selectFrom('games')
    .select(['id', 'slug', 'name', 'leaderboard_enabled', 'leaderboard_order', 'leaderboard_unit'])
    .where('slug', '=', slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirst();
}

export async function isActivePlayer(db: Executor, playerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('players')
    .select('id')
    .where('id', '=', playerId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the player ever started a play session of the game (a developer key acts only for such players). */
export async function hasPlayed(db: Executor, playerId: number, gameId: number): Promise<boolean> {
  const row = await db
    .selectFrom('play_sessions')
    .select('id')
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The play session with this token hash, if it is this player's for this game. Unique index on token_hash. */
export async function findOwnPlaySession(
  db: Executor,
  tokenHash: string,
  playerId: number,
  gameId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('play_sessions')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return row?.id;
}

export type NewScore = Omit<Insertable<ScoresTable>, 'id'>;

/** A score to insert, every column given. */
export type ScoreToInsert = NewScore & { meta: string | null; play_session_id: number | null };
/** A score's insert as a statement's arguments. */
type ScoreArgs = {
  gameId: number;
  playerId: number;
  board: string;
  score: number;
  meta: string | null;
  playSessionId: number | null;
  createdAt: number;
};
const scoreArgs = (s: ScoreToInsert): ScoreArgs => ({
  gameId: s.game_id,
  playerId: s.player_id,
  board: s.board,
  score: s.score,
  meta: s.meta,
  playSessionId: s.play_session_id,
  createdAt: s.created_at,
});

export async function insertScore(db: Executor, score: ScoreToInsert): Promise<number> {
  return Number((await insertScoreQuery.first(db, scoreArgs(score)))!.id);
}
/** The score's insert, returning its id: compiled once, alone (SQLite) or in insertAndLock (PostgreSQL). */
const scoreInsert = (db: Executor, p: Params<ScoreArgs>) =>
  db
    .insertInto('scores')
    .values({
      game_id: p.gameId,
      player_id: p.playerId,
      board: p.board,
      score: p.score,
      meta: p.meta,
      play_session_id: p.playSessionId,
      created_at: p.createdAt,
    })
    .returning('id');
const insertScoreQuery = statement('scores.insert', (p: Params<ScoreArgs>, db) => scoreInsert(db, p));

/**
 * insertScore, the board's lock (shared: boardLockSql), then lockBests of the score's player on these boards (at least
 * one), on PostgreSQL in one statement (the insert in a CTE, the board's lock in another, the bests locked in board
 * order in a subquery joined after it: a round trip less for every submission); on SQLite (one writer at a time, no lock) in two.
 */
export async function insertScoreLockingBests(db: Executor, score: ScoreToInsert, boardIds: number[]) {
  if (!isPostgres(db))
    return { scoreId: await insertScore(db, score), bests: await lockBests(db, boardIds, score.player_id) };
  const rows = (await insertAndLock.run(db, { ...scoreArgs(score), boards: boardsJson(boardIds) })).rows;
  const bests = rows.filter((r) => r.leaderboard_id !== null).map(({ new_score_id, ...best }) => best as BestRow);
  return { scoreId: Number(rows[0]!.new_score_id), bests };
}
type InsertedAndLocked = { new_score_id: number } & { [K in keyof BestRow]: BestRow[K] | null };
const insertAndLock = statement('scores.insertAndLockBests', (p: Params<ScoreArgs & { boards: string }>, db) => {
  // The board's lock (shared) is taken before the bests rows: `l` is joined in ahead of them.
  const query = sql<InsertedAndLocked>`with s as (${scoreInsert(db, p)}), l as materialized (${boardLockSql(p.gameId, p.board, 'shared')})
select s.id as new_score_id, b.* from s cross join l left join (${lockBestsSql(db, p.boards, p.playerId)}) b on true order by b.leaderboard_id`;
  return { compile: () => query.compile(db) };
});

export interface HistoryRow {
  id: number;
  board: string;
  score: number;
  meta: string | null;
  created_at: number;
}

/** The player's newest submissions for one game. Index scores_player_game_idx, read backwards: `limit` entries. */
export function recentScoresForGame(
  db: Executor,
  playerId: number,
  gameId: number,
  limit: number,
): Promise<HistoryRow[]> {
  return db
    .selectFrom('scores')
    .select(['id', 'board', 'score', 'meta', 'created_at'])
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The player's newest submissions on games with a visible leaderboard. Index scores_player_idx, read backwards. */
export function recentScores(db: Executor, playerId: number, limit: number) {
  return db
    .selectFrom('scores as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .select(['g.slug', 'g.name', 's.board', 's.score', 's.meta', 's.created_at'])
    .where('s.player_id', '=', playerId)
    .where('g.status', 'in', [...LISTED_STATUSES])
    .where('g.leaderboard_enabled', '=', 1)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}

/** The player's all-time bests on visible leaderboards (optionally one board), ranked by the game's current order. */
export function allTimeBests(db: Executor, playerId: number, board?: string) {
  return db
    .selectFrom('leaderboard_bests as b')
    .innerJoin('leaderboards as l', 'l.id', 'b.leaderboard_id')
    .innerJoin('games as g', 'g.id', 'l.game_id')
    .select([
      'l.id as board_id',
      'l.board',
      'g.slug',
      'g.name',
      'g.leaderboard_unit',
      'g.files_dir',
      'g.cover',
      'g.cover_key',
      'b.score',
      'b.norm',
      'b.reached_at',
      'b.score_id',
    ])
    .where('b.player_id', '=', playerId)
    .where('l.period', '=', 'all')
    .whereRef('l.sort_order', '=', 'g.leaderboard_order')
    .where('g.status', 'in', [...LISTED_STATUSES])
    .where('g.leaderboard_enabled', '=', 1)
    .$if(board !== undefined, (qb) => qb.where('l.board', '=', board!))
    .orderBy('g.name')
    .orderBy('l.board')
    .execute();
}

// ---- Idempotency-Key ---------------------------------------------------------------------------------------

/**
 * Claims (caller, key) for this request: inserts it, or takes over a row older than `expiredBefore`. On
 * PostgreSQL a concurrent request with the same key waits here until the first commits, then is not given the
 * claim. Returns false when a live row exists.
 */
export async function claimRequestKey(
  db: Executor,
  caller: string,
  key: string,
  fingerprint: string,
  now: number,
  expiredBefore: number,
): Promise<boolean> {
  const row = await db
    .insertInto('score_requests')
    .values({ caller, idem_key: key, fingerprint, response: '', created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['caller', 'idem_key'])
        .doUpdateSet({ fingerprint, response: '', created_at: now })
        .where('score_requests.created_at', '<', expiredBefore),
    )
    .returning('caller')
    .executeTakeFirst();
  return row !== undefined;
}

export function findRequestKey(db: Executor, caller: string, key: string) {
  return db
    .selectFrom('score_requests')
    .select(['fingerprint', 'response'])
    .where('caller', '=', caller)
    .where('idem_key', '=', key)
    .executeTakeFirst();
}

export async function saveRequestResponse(db: Executor, caller: string, key: string, response: string): Promise<void> {
  await db
    .updateTable('score_requests')
    .set({ response })
    .where('caller', '=', caller)
    .where('idem_key', '=', key)
    .execute();
}

/** Forgets keys older than the window: index score_requests_created_idx, a range of exactly the expired rows. */
export async function deleteExpiredRequestKeys(db: Executor, expiredBefore: number): Promise<void> {
  await db.deleteFrom('score_requests').where('created_at', '<', expiredBefore).execute();
}

/** Gives every score of one player to another (a guest merged into an account); returns how many. */
export async function moveScores(db: Executor, fromId: number, toId: number): Promise<number> {
  const result = await db
    .updateTable('scores')
    .set({ player_id: toId })
    .where('player_id', '=', fromId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Gives one caller's stored Idempotency-Key answers to another (a merged guest's to its account), so that a
 * submission sent again after the merge is still answered once; a key both used stays the account's.
 */
export async function moveRequestKeys(db: Executor, fromCaller: string, toCaller: string): Promise<void> {
  await db
    .deleteFrom('score_requests')
    .where('caller', '=', fromCaller)
    .where('idem_key', 'in', (eb) =>
      eb.selectFrom('score_requests as r').select('r.idem_key').where('r.caller', '=', toCaller),
    )
    .execute();
  await db.updateTable('score_requests').set({ caller: toCaller }).where('caller', '=', fromCaller).execute();
}

/** When and where the player submitted: game, board and time of every submission (index scores_player_idx). */
export async function submissionTimesOf(
  db: Executor,
  playerId: number,
): Promise<Array<{ game_id: number; board: string; created_at: number }>> {
  return db.selectFrom('scores').select(['game_id', 'board', 'created_at']).where('player_id', '=', playerId).execute();
}
