// GET /dev/games/{slug}/stats: what a studio wants to know about its game, from the counters on the game's row and a
// few indexed aggregates (see stats.repository.ts for each query's index and cost).
import type { AppContext } from '../../context.js';
import type { KeyCredential } from '../../http/auth.js';
import { formatTimestamp, recentDays } from '../../time.js';
import { requireOwnGame } from './dev.service.js';
import type { GameStats } from './stats.schemas.js';
import {
  countBoards,
  countLiveSessions,
  countPlayersEver,
  countSavedSlots,
  playsPerWindow,
  type BoardCounts,
} from './stats.repository.js';

const DAYS = 7;

/** Hours with one decimal, as the Game's stats.playtime_hours. */
const hours = (seconds: number) => Math.round(seconds / 360) / 10;

/**
 * One entry per board. A board is kept per ranking order; after the game's order changed, the board under the new
 * order is built from the whole history at its first use, and until then the one under the old order is complete.
 */
function boardsOf(rows: BoardCounts[], order: string) {
  const chosen = new Map<string, BoardCounts>();
  for (const row of rows) if (!chosen.has(row.board) || row.order === order) chosen.set(row.board, row);
  return [...chosen.values()].map(({ board, entries, players }) => ({ board, entries, players }));
}

export async function gameStats(ctx: AppContext, key: KeyCredential, slug: string): Promise<GameStats> {
  const game = await requireOwnGame(ctx, key, slug);
  const now = ctx.clock.now();
  const days = recentDays(now, ctx.config.reset_timezone, DAYS); // newest first
  const liveSince = now - ctx.config.session_idle_timeout * 1000; // the heartbeat's idle rule: heard from after this
  const [players, live, plays, saves, boardRows] = await Promise.all([
    countPlayersEver(ctx.db, game.id),
    countLiveSessions(ctx.db, game.id, liveSince),
    playsPerWindow(ctx.db, game.id, days),
    countSavedSlots(ctx.db, game.id, game.save_slots),
    countBoards(ctx.db, game.id),
  ]);
  const boards = boardsOf(boardRows, game.leaderboard_order);
  const playtime = Number(game.playtime_seconds);
  return {
    game: game.slug,
    generated_at: formatTimestamp(now),
    timezone: ctx.config.reset_timezone,
    players,
    plays: Number(game.plays),
    playtime_seconds: playtime,
    playtime_hours: hours(playtime),
    active_sessions: live,
    today: { day: days[0]!.day, ...plays.windows[0]! },
    last_7_days: { from: days[DAYS - 1]!.day, to: days[0]!.day, ...plays.all },
    days: days.map((d, i) => ({ day: d.day, ...plays.windows[i]! })),
    scores: {
      leaderboard_enabled: game.leaderboard_enabled === 1,
      submitted: boards.reduce((sum, b) => sum + b.entries, 0),
      boards,
    },
    saves: { save_slots: game.save_slots, slots_in_use: saves.slots, players: saves.players, size_bytes: saves.bytes },
  };
}
