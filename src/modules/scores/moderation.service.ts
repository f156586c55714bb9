// Leaderboard moderation (docs/api.md, "Studio console: numbers, moderation, audit log"): a studio member removes one submission, or all of a player's
// submissions on a board, with a reason. Every period of the board the player is ranked on (all time, month, week,
// day, under each order the board is kept for) is rebuilt from the submissions left, in the same transaction as the
// removal and its audit entry: the player's best falls back to their next best (or they leave the board), and every
// rank, the player's and everyone else's, is exact at once.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { notFound } from '../../http/errors.js';
import { formatTimestamp, namedDay, type Period, periodWindow } from '../../time.js';
import { recordAudit } from '../audit/audit.service.js';
import { fillBestsFromScores } from './bests.repository.js';
import { lockBoard } from './boards.repository.js';
import { rebuildTree } from './count-tree.js';
import { lastSeason } from './seasons.repository.js';
import {
  boardsWithBestOf,
  deleteBoardBests,
  deleteScores,
  findActorName,
  findGameScore,
  findPlayerScores,
  type ScoreRow,
} from './moderation.repository.js';

export interface ModeratedGame {
  id: number;
  slug: string;
  studio_id: number | null;
}

export type Removal = { scoreId: number } | { playerId: number; board: string };

export interface RemovalOutcome {
  board: string;
  player_id: number;
  removed: Array<{ id: number; score: number; created_at: string }>;
  /** board periods rebuilt */
  boards_rebuilt: number;
}

async function rebuildBoardsOf(ctx: AppContext, trx: Executor, game: ModeratedGame, board: string, playerId: number) {
  const rows = await boardsWithBestOf(trx, game.id, board, playerId);
  // The live boards hold the live season's submissions only (docs/api.md, "Board seasons").
  const since = (await lastSeason(trx, game.id, board))?.ended_at ?? null;
  for (const row of rows) {
    const start = row.period === 'all' ? null : namedDay(row.period_key, ctx.config.reset_timezone);
    const window = start ? periodWindow(row.period as Period, start.start, ctx.config.reset_timezone) : null;
    await deleteBoardBests(trx, row.id);
    await fillBestsFromScores(trx, { boardId: row.id, gameId: game.id, board, order: row.sort_order, window, since });
    await rebuildTree(trx, row.id);
  }
  return rows.length;
}

/** Removes the submissions and records who did it and why; 404 when there is nothing of the game to remove. */
export async function removeScores(
  ctx: AppContext,
  game: ModeratedGame,
  removal: Removal,
  actorId: number,
  reason: string,
): Promise<RemovalOutcome> {
  return ctx.db.transaction().execute(async (trx) => {
    // The board's lock, exclusively, before any write: the submissions in flight to the board commit first, and
    // those that come later wait for the rebuild (boards.repository.ts, boardLockSql). What is removed is read after.
    const missing = () =>
      'scoreId' in removal
        ? notFound(`No score ${removal.scoreId} in ${game.slug}`)
        : notFound(`No score of player ${removal.playerId} on the board ${removal.board}`);
    const board = 'scoreId' in removal ? (await findGameScore(trx, game.id, removal.scoreId))?.board : removal.board;
    if (board === undefined) throw missing();
    await lockBoard(trx, game.id, board, 'exclusive');
    let scores: ScoreRow[];
    if ('scoreId' in removal) {
      const one = await findGameScore(trx, game.id, removal.scoreId);
      scores = one ? [one] : [];
    } else {
      scores = await findPlayerScores(trx, game.id, board, removal.playerId);
    }
    if (!scores.length) throw missing();
    const { player_id } = scores[0]!;
    await deleteScores(
      trx,
      scores.map((s) => s.id),
    );
    const rebuilt = await rebuildBoardsOf(ctx, trx, game, board, player_id);
    const removed = scores.map((s) => ({
      id: s.id,
      score: Number(s.score),
      created_at: formatTimestamp(Number(s.created_at)),
    }));
    const name = (await findActorName(trx, actorId)) ?? `player ${actorId}`;
    await recordAudit(ctx, trx, {
      actor: { id: actorId, name },
      studioId: game.studio_id,
      action: 'scoreId' in removal ? 'score.remove' : 'score.remove_player',
      targetType: 'scoreId' in removal ? 'score' : 'player',
      targetId: 'scoreId' in removal ? removal.scoreId : player_id,
      reason,
      before: { game: game.slug, board, player_id, scores: removed },
      after: null,
    });
    return { board, player_id, removed, boards_rebuilt: rebuilt };
  });
}
