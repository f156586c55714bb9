// A player waiting for their account's deletion is off the public leaderboards
// (docs/api.md, "Accounts and authentication"): their bests leave every board, and its count tree, in the transaction
// that schedules the deletion, so every other rank and every total stays exact; their submissions are kept. The login
// that cancels the deletion puts them back, rebuilt from those submissions, in its own transaction. Lock order as a
// submission: the boards' locks (shared), the bests rows by board, then the trees' nodes.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import {
  boardsOfPlayer,
  deleteBests,
  fillBestsFromScores,
  gameBoardsOfPlayer,
  keyOfBest,
  lockBests,
} from './bests.repository.js';
import { boardsOfGameBoard, lockGameBoards } from './boards.repository.js';
import { applyKeyChanges, removeKeys, type KeyChange } from './count-tree.js';
import { periodKeysAt, windowOfKey } from './periods.js';
import type { Period } from '../../time.js';
import { submissionTimesOf } from './scores.repository.js';
import { lastSeason } from './seasons.repository.js';

type GameBoard = { game_id: number; board: string };

/** Deletes the player's bests rows, their keys first taken off the count trees. */
async function takeOffBoards(trx: Executor, playerId: number): Promise<void> {
  const bests = await lockBests(trx, await boardsOfPlayer(trx, playerId), playerId);
  if (!bests.length) return;
  await removeKeys(
    trx,
    bests.map((b) => ({ boardId: b.leaderboard_id, key: keyOfBest(b) })),
  );
  await deleteBests(
    trx,
    playerId,
    bests.map((b) => b.leaderboard_id),
  );
}

/** The deletion is scheduled: the player leaves every board, inside the caller's transaction. */
export async function hidePlayerFromBoards(trx: Executor, playerId: number): Promise<void> {
  await lockGameBoards(trx, await gameBoardsOfPlayer(trx, playerId));
  await takeOffBoards(trx, playerId);
}

/**
 * The deletion is cancelled (the player's status already active again, inside the caller's transaction): on every
 * board row of a period the player submitted in (every order the board is kept for), their best, entries and last
 * submission are filled from their submissions and their key goes into the count tree, as if never taken off.
 * Whatever bests they hold now (a guest's, merged in the same login) are taken off first and counted in again.
 */
export async function restorePlayerToBoards(ctx: AppContext, trx: Executor, playerId: number): Promise<void> {
  const times = await submissionTimesOf(trx, playerId);
  const pairs = new Map<string, GameBoard>();
  const periods = new Set<string>();
  for (const { game_id, board, created_at } of times) {
    const pair = `${game_id}\n${board}`;
    if (!pairs.has(pair)) pairs.set(pair, { game_id, board });
    for (const { period, key } of periodKeysAt(Number(created_at), ctx.config.reset_timezone))
      periods.add(`${pair}\n${period}\n${key}`);
  }
  const held = await gameBoardsOfPlayer(trx, playerId);
  for (const b of held) pairs.set(`${b.game_id}\n${b.board}`, b);
  await lockGameBoards(trx, [...pairs.values()]);
  await takeOffBoards(trx, playerId);

  const targets: Array<GameBoard & { id: number; period: Period; period_key: string; sort_order: string }> = [];
  for (const pair of pairs.values()) {
    for (const row of await boardsOfGameBoard(trx, pair.game_id, pair.board))
      if (periods.has(`${pair.game_id}\n${pair.board}\n${row.period}\n${row.period_key}`))
        targets.push({ ...pair, ...row, period: row.period as Period });
  }
  targets.sort((a, b) => a.id - b.id);
  const changes: KeyChange[] = [];
  for (const t of targets) {
    const window = windowOfKey(t.period, t.period_key, ctx.config.reset_timezone);
    // Only the live season's submissions count (docs/api.md, "Board seasons").
    const since = (await lastSeason(trx, t.game_id, t.board))?.ended_at ?? null;
    const history = { boardId: t.id, gameId: t.game_id, board: t.board, order: t.sort_order, window, since };
    for (const best of await fillBestsFromScores(trx, history, playerId))
      changes.push({ boardId: t.id, to: keyOfBest(best) });
  }
  // Board by board (applyKeyChanges' second form): it never has to be run again.
  if (changes.length) await applyKeyChanges(trx, changes, false);
}
