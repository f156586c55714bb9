// Queries of leaderboard moderation: the submissions a moderator removes and the boards they were ranked on.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { ScoresTable } from '../../db/schema.js';

export type ScoreRow = Selectable<ScoresTable>;

/** One submission of the game by id (primary key), or undefined. */
export function findGameScore(db: Executor, gameId: number, scoreId: number): Promise<ScoreRow | undefined> {
  return db.selectFrom('scores').selectAll().where('id', '=', scoreId).where('game_id', '=', gameId).executeTakeFirst();
}

/** A player's submissions on one board of the game. Index scores_player_game_idx. */
export function findPlayerScores(db: Executor, gameId: number, board: string, playerId: number): Promise<ScoreRow[]> {
  return db
    .selectFrom('scores')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('player_id', '=', playerId)
    .where('board', '=', board)
    .orderBy('id')
    .execute();
}

export async function deleteScores(db: Executor, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('scores').where('id', 'in', ids).execute();
}

export interface BoardPeriodRow {
  id: number;
  period: string;
  period_key: string;
  sort_order: string;
}

/** The board's rows (every period, every order) where the player has a best: those the removal changes. */
export function boardsWithBestOf(
  db: Executor,
  gameId: number,
  board: string,
  playerId: number,
): Promise<BoardPeriodRow[]> {
  return db
    .selectFrom('leaderboards as l')
    .innerJoin('leaderboard_bests as b', 'b.leaderboard_id', 'l.id')
    .select(['l.id', 'l.period', 'l.period_key', 'l.sort_order'])
    .where('l.game_id', '=', gameId)
    .where('l.board', '=', board)
    .where('b.player_id', '=', playerId)
    .orderBy('l.id')
    .execute();
}

/** Empties a board's bests (then refilled from the submissions left). */
export async function deleteBoardBests(db: Executor, boardId: number): Promise<void> {
  await db.deleteFrom('leaderboard_bests').where('leaderboard_id', '=', boardId).execute();
}

/** The name an audit entry keeps for the acting player (primary key). */
export async function findActorName(db: Executor, playerId: number): Promise<string | undefined> {
  const row = await db.selectFrom('players').select('username').where('id', '=', playerId).executeTakeFirst();
  return row?.username;
}
