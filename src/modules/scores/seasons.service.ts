// Board seasons (docs/api.md, "Board seasons"): a studio member ends a board's season. Its all-time standings are
// kept with their ranks as they stood, and every period of the board (all time, month, week, day, under each order it
// is kept for) starts empty for the next season. Submissions never read the seasons: a board's live rows are the live
// season, and only a board's creation or rebuild (rare) reads where the season began.
import type { AppContext } from '../../context.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import type { Actor } from '../audit/audit.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { boardToRead } from './boards.js';
import { lockBoard } from './boards.repository.js';
import { rebuildTree } from './count-tree.js';
import { deleteBoardBests } from './moderation.repository.js';
import { publicPlayer } from './row-player.js';
import type { LeaderboardQuery, LeaderboardRow } from './scores.schemas.js';
import { findListedGame } from './scores.repository.js';
import { openScoringGame, type ScoringGame } from './scoring-game.js';
import {
  boardRowsOfName,
  findSeason,
  insertSeason,
  lastSeason,
  listSeasons,
  moveBestsToSeason,
  type SeasonRow,
  seasonPage,
  seasonRankOf,
  setSeasonPlayers,
} from './seasons.repository.js';

const when = (at: number | null) => (at === null ? null : formatTimestamp(Number(at)));

function seasonView(row: SeasonRow) {
  return {
    season: row.season,
    started_at: when(row.started_at),
    ended_at: when(row.ended_at)!,
    players: Number(row.players),
  };
}

/**
 * Ends the board's live season as season N and starts N + 1, in one transaction with its audit entry
 * (`leaderboard.new_season`). 404 for a board without a score (in any season); 409 season_busy when another request
 * ends the same season at the same time.
 */
export async function startSeason(
  ctx: AppContext,
  game: { slug: string; studio_id: number | null },
  board: string,
  actor: Actor,
) {
  const scoring = openScoringGame(await findListedGame(ctx.db, game.slug));
  const rows = await boardRowsOfName(ctx.db, scoring.id, board);
  if (!rows.length) throw notFound(`No board ${board} in ${game.slug}: a board exists from its first score`);
  // The all-time board under the game's order: built first when it exists only under a former order.
  const allTime = await boardToRead(ctx, scoring, board, 'all', 'all');
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // As a removal: the board's lock, exclusive, before anything is read or moved (submissions take it shared).
    await lockBoard(trx, scoring.id, board, 'exclusive');
    const last = await lastSeason(trx, scoring.id, board);
    const season = (last?.season ?? 0) + 1;
    const started_at = last?.ended_at ?? null;
    const values = { game_id: scoring.id, board, season, sort_order: scoring.leaderboard_order, started_at };
    const seasonId = await insertSeason(trx, { ...values, ended_at: now });
    if (seasonId === undefined)
      throw new AppError('season_busy', `Season ${season} of ${board} is being ended by another request`);
    // Lock order as a submission's: every bests row first, by board, then the count trees' nodes.
    const boards = await boardRowsOfName(trx, scoring.id, board);
    let players = 0;
    for (const row of boards) {
      if (row.id === allTime) players = await moveBestsToSeason(trx, seasonId, row.id);
      else await deleteBoardBests(trx, row.id);
    }
    await setSeasonPlayers(trx, seasonId, players);
    for (const row of boards) await rebuildTree(trx, row.id);
    await recordAudit(ctx, trx, {
      actor,
      studioId: game.studio_id,
      action: 'leaderboard.new_season',
      targetType: 'board',
      targetId: `${game.slug}/${board}`,
      before: { season, players },
      after: { season: season + 1 },
    });
    return {
      board,
      ended: seasonView({
        id: seasonId,
        season,
        sort_order: scoring.leaderboard_order,
        started_at,
        ended_at: now,
        players,
      }),
      live_season: season + 1,
    };
  });
}

/** GET /games/{slug}/leaderboard/seasons: the board's ended seasons, newest first, and the live one's number. */
export async function getSeasons(ctx: AppContext, slug: string, board: string) {
  const game = openScoringGame(await findListedGame(ctx.db, slug));
  const rows = await listSeasons(ctx.db, game.id, board);
  return {
    board,
    live_season: (rows[0]?.season ?? 0) + 1,
    live_since: when(rows[0]?.ended_at ?? null),
    seasons: rows.map(seasonView),
  };
}

/** The ended season `season` asks for, or null for the live one (its number); 404 for a season not yet begun. */
export async function seasonToRead(
  ctx: AppContext,
  slug: string,
  query: LeaderboardQuery & { season: number },
): Promise<{ game: ScoringGame; season: SeasonRow } | null> {
  const game = openScoringGame(await findListedGame(ctx.db, slug));
  if (query.period !== 'all' || query.at !== undefined)
    throw validationFailed({ season: 'reads the all-time standings: leave period and at out' });
  const found = await findSeason(ctx.db, game.id, query.board, query.season);
  if (found) return { game, season: found };
  const live = ((await lastSeason(ctx.db, game.id, query.board))?.season ?? 0) + 1;
  if (query.season === live) return null;
  throw notFound(`No season ${query.season} of the board ${query.board}: the live season is ${live}`);
}

/**
 * A page of an ended season: its standings as they stood (a player whose account was deleted since leaves a gap, the
 * others keep their ranks). `meta.offset` and `offset` count ranks. `me` and around=me as on a live board.
 */
export async function getSeasonPage(
  ctx: AppContext,
  { game, season }: { game: ScoringGame; season: SeasonRow },
  query: LeaderboardQuery & { season: number },
  playerId: number | undefined,
) {
  const mine = playerId === undefined ? undefined : await seasonRankOf(ctx.db, season.id, playerId);
  const total = Number(season.players);
  let offset = query.offset;
  if (query.around === 'me' && mine)
    offset = Math.max(0, Math.min(mine.rank - 1 - Math.floor((query.limit - 1) / 2), total - query.limit));
  const rows = await seasonPage(ctx.db, season.id, offset, query.limit);
  const leaderboard: LeaderboardRow[] = rows.map((row) => ({
    rank: Number(row.rank),
    score: Number(row.score),
    entries: Number(row.entries),
    last_played: formatTimestamp(Number(row.last_played)),
    player: publicPlayer(ctx.config, row),
  }));
  const data: { leaderboard: LeaderboardRow[]; me?: { rank: number | null; best: number | null } } = { leaderboard };
  if (playerId !== undefined)
    data.me = mine ? { rank: Number(mine.rank), best: Number(mine.score) } : { rank: null, best: null };
  const meta = {
    game: game.slug,
    board: query.board,
    period: 'all',
    order: season.sort_order,
    unit: game.leaderboard_unit,
    limit: query.limit,
    offset,
    total,
    season: season.season,
  };
  return { data, meta };
}
