// Finding and creating the leaderboard rows a request reads or writes: one per game, board, period and order.
import type { AppContext } from '../../context.js';
import type { Period } from '../../time.js';
import { fillBestsFromScores } from './bests.repository.js';
import {
  boardExistsInAnyOrder,
  findBoardId,
  insertBoard,
  lockBoard,
  type BoardRef,
  type GameWithBoards,
} from './boards.repository.js';
import { windowOfKey } from './periods.js';
import { rebuildTree } from './count-tree.js';
import { lastSeason } from './seasons.repository.js';
import type { ScoringGame } from './scoring-game.js';

const refOf = (game: ScoringGame, board: string, period: Period, periodKey: string): BoardRef => ({
  gameId: game.id,
  board,
  period,
  periodKey,
  order: game.leaderboard_order,
});

/**
 * Creates a board and fills it from the stored submissions of its period in the board's live season, in one
 * transaction: nothing for a new period, the season's history when the game's leaderboard order changed (a board is kept per order, so a changed
 * order never mixes keys of both). A concurrent creator of the same board waits on the unique key, then finds it.
 */
async function createBoard(ctx: AppContext, ref: BoardRef): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    // Filled from the submissions as no moderator's removal is changing them (boards.repository.ts, boardLockSql).
    await lockBoard(trx, ref.gameId, ref.board, 'shared');
    const id = await insertBoard(trx, ref, ctx.clock.now());
    if (id === undefined) return (await findBoardId(trx, ref))!;
    const window = windowOfKey(ref.period as Period, ref.periodKey, ctx.config.reset_timezone);
    const since = (await lastSeason(trx, ref.gameId, ref.board))?.ended_at ?? null;
    await fillBestsFromScores(trx, {
      boardId: id,
      gameId: ref.gameId,
      board: ref.board,
      order: ref.order,
      window,
      since,
    });
    await rebuildTree(trx, id);
    return id;
  });
}

/** The board to read, or undefined when nobody has scored on it in that period. */
export async function boardToRead(
  ctx: AppContext,
  game: ScoringGame,
  board: string,
  period: Period,
  periodKey: string,
): Promise<number | undefined> {
  const ref = refOf(game, board, period, periodKey);
  const id = await findBoardId(ctx.db, ref);
  if (id !== undefined) return id;
  return (await boardExistsInAnyOrder(ctx.db, ref)) ? createBoard(ctx, ref) : undefined;
}

/**
 * The four boards (all, month, week, day) a score counts on, in that order: those findGameWithBoards found for the
 * periods of the submission's time (periodKeysAt), the missing ones created.
 */
export async function boardsToWrite(
  ctx: AppContext,
  { game, boards: found }: GameWithBoards,
  board: string,
  periods: Array<{ period: Period; key: string }>,
) {
  const boards: Array<{ period: Period; id: number }> = [];
  for (const { period, key } of periods) {
    const id = found.find((f) => f.period === period && f.period_key === key)?.id;
    boards.push({ period, id: id ?? (await createBoard(ctx, refOf(game, board, period, key))) });
  }
  return boards;
}
