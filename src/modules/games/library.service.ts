// The player's own shelf: favourites and recently played games, for "Continue playing" and "Your favourites".
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { formatTimestamp } from '../../time.js';
import { toGame } from './games.service.js';
import type { Game } from './games.schemas.js';
import {
  copyFavorites,
  findFavoriteGames,
  findFilledSlots,
  findRecentGames,
  type SaveRow,
} from './library.repository.js';
import { RECENT_LIMIT_DEFAULT, type RecentEntry } from './library.schemas.js';

/** GET /me/favorites: draft and retired games drop out of the list (their favourite is kept for when they return). */
export async function listFavorites(ctx: AppContext, playerId: number): Promise<Game[]> {
  const rows = await findFavoriteGames(ctx.db, playerId);
  return rows.map((row) => toGame(ctx, row));
}

/** The listed games the player played last, newest first, with when: what a public profile shows (no saves). */
export async function recentlyPlayed(ctx: AppContext, playerId: number, limit: number) {
  const rows = await findRecentGames(ctx.db, playerId, limit);
  return rows.map((row) => ({ game: toGame(ctx, row), last_played_at: formatTimestamp(row.last_played) }));
}

/** GET /me/recent: the last played games, each with the save slot written last (the one "Continue" resumes). */
export async function listRecent(
  ctx: AppContext,
  playerId: number,
  limit = RECENT_LIMIT_DEFAULT,
): Promise<RecentEntry[]> {
  const rows = await findRecentGames(ctx.db, playerId, limit);
  const saves = latestSaveByGame(
    await findFilledSlots(
      ctx.db,
      playerId,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((row) => {
    const save = saves.get(row.id);
    return {
      game: toGame(ctx, row),
      last_played_at: formatTimestamp(row.last_played),
      last_save: save
        ? { slot: save.slot, label: save.label, updated_at: formatTimestamp(Number(save.updated_at)) }
        : null,
    };
  });
}

/** Per game, the slot updated last; a tie goes to the lower slot. */
function latestSaveByGame(rows: SaveRow[]): Map<number, SaveRow> {
  const latest = new Map<number, SaveRow>();
  for (const row of rows) {
    const seen = latest.get(row.game_id);
    const newer =
      !seen ||
      Number(row.updated_at) > Number(seen.updated_at) ||
      (Number(row.updated_at) === Number(seen.updated_at) && row.slot < seen.slot);
    if (newer) latest.set(row.game_id, row);
  }
  return latest;
}

/** A guest merged into an account, inside the caller's transaction: its favourites join the account's; how many were new. */
export function mergeFavorites(trx: Executor, fromId: number, toId: number): Promise<number> {
  return copyFavorites(trx, fromId, toId);
}
