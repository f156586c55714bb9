// Reading leaderboards: pages, a player's standing, the bests on /me/scores and on public profiles.
import type { AppContext } from '../../context.js';
import type { Credential } from '../../http/auth.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { formatTimestamp, type Period } from '../../time.js';
import { boardToRead } from './boards.js';
import { findBest, keyOfBest, type BestRow } from './bests.repository.js';
import { findGameBoard, findGameBoardPage, listBoardNames, type GameBoardRow } from './boards.repository.js';
import { countPlayers } from './count-tree.repository.js';
import { pageAtOffset, pageBefore, pageFrom, type PageRow } from './pages.repository.js';
import { periodKeyFor } from './periods.js';
import { publicPlayer } from './row-player.js';
import { normalise, type RankKey } from './count-tree.model.js';
import { keyAtIndex, rankOf, rankWithTotal } from './count-tree.js';
import type { LeaderboardQuery, LeaderboardRow, ProfileBestScore, StandingQuery } from './scores.schemas.js';
import { allTimeBests, findListedGame, recentScores } from './scores.repository.js';
import { openScoringGame, type ScoringGame } from './scoring-game.js';
import { BOARDS_MAX } from './scores.schemas.js';
import { parseMeta } from './scores.service.js';
import { getSeasonPage, seasonToRead } from './seasons.service.js';
import { coverUrl } from '../games/listing-media.service.js';

/** Offsets up to this are read with OFFSET (cheap); deeper pages find their first key by walking the count tree. */
const SHALLOW_OFFSET = 200;

interface OpenBoard {
  game: ScoringGame;
  /** undefined when the board has no score in the period */
  boardId: number | undefined;
  /** the player's best there, when a player was named */
  best: Pick<BestRow, 'norm' | 'reached_at' | 'score_id' | 'entries'> | undefined;
  /** the page asked for, when it was read with the board (PostgreSQL, shallow offsets) */
  page?: { rows: PageRow[]; total: number };
}

/**
 * The game (404 not_found, 404 leaderboard_disabled), its board for the period and the player's best there: one
 * statement. With `page` (a shallow offset) on PostgreSQL, the page is read in that statement too (a round trip
 * costs more there than the page's reads). A board that exists only under the game's former order is rebuilt for the
 * new one first.
 */
async function openBoard(
  ctx: AppContext,
  slug: string,
  board: string,
  period: Period,
  at: string | undefined,
  playerId?: number,
  page?: { offset: number; limit: number },
): Promise<OpenBoard> {
  const periodKey = periodKeyFor(period, ctx.clock.now(), ctx.config.reset_timezone, at);
  const key = periodKey ?? 'all';
  let found: GameBoardRow | undefined;
  let rows: OpenBoard['page'];
  if (page && page.offset <= SHALLOW_OFFSET) {
    const read = await findGameBoardPage(ctx.db, slug, board, period, key, playerId ?? 0, page.offset, page.limit);
    found = read?.game;
    rows = read?.page;
  } else found = await findGameBoard(ctx.db, slug, board, period, key, playerId);
  const open = openScoringGame(found);
  if (periodKey === null) throw validationFailed({ at: 'must be a real date YYYY-MM-DD' });
  const { board_id, best_score, best_norm, best_reached_at, best_score_id, best_entries, ...game } = open;
  if (board_id !== null) {
    const best =
      best_norm === null
        ? undefined
        : { norm: best_norm, reached_at: best_reached_at!, score_id: best_score_id!, entries: best_entries! };
    return { game, boardId: board_id, best, page: rows };
  }
  const boardId = await boardToRead(ctx, game, board, period, periodKey);
  const best = boardId !== undefined && playerId !== undefined ? await findBest(ctx.db, boardId, playerId) : undefined;
  return { game, boardId, best };
}

interface Standing {
  rank: number | null;
  best: number | null;
  entries: number;
  total: number;
  key?: RankKey;
}

/** The standing of the best openBoard found: one rank statement. */
async function standingOf(ctx: AppContext, opened: OpenBoard): Promise<Standing> {
  const { best, boardId, game } = opened;
  if (!best || boardId === undefined) return { rank: null, best: null, entries: 0, total: 0 };
  const key = keyOfBest(best);
  const { rank, total } = await rankWithTotal(ctx.db, boardId, key);
  return { rank, best: normalise(key.norm, game.leaderboard_order), entries: best.entries, total, key };
}

/** A row of the page; the studio's reading adds which submission holds the best and whose it is. */
type PageEntry = LeaderboardRow & { score_id?: number; player_id?: number };

function toRow(ctx: AppContext, row: PageRow, rank: number, ids: boolean): PageEntry {
  const shown: LeaderboardRow = {
    rank,
    score: Number(row.score),
    entries: Number(row.entries),
    last_played: formatTimestamp(Number(row.last_played)),
    player: publicPlayer(ctx.config, row),
  };
  // the studio's moderation page names what to remove (docs/api.md, "Studio console: numbers, moderation, audit log")
  return ids ? { ...shown, score_id: Number(row.score_id), player_id: Number(row.player_id) } : shown;
}

/** The rows from 0-based `offset`: OFFSET when shallow, else a walk down the count tree to the first key, then a keyset scan. */
async function pageAt(
  ctx: AppContext,
  boardId: number,
  offset: number,
  limit: number,
): Promise<{ rows: PageRow[]; total: number }> {
  let rows: PageRow[];
  if (offset <= SHALLOW_OFFSET) rows = await pageAtOffset(ctx.db, boardId, offset, limit);
  else {
    const first = await keyAtIndex(ctx.db, boardId, offset);
    rows = first ? await pageFrom(ctx.db, boardId, first, limit) : [];
  }
  const total = rows.length ? Number(rows[0]!.total) : await countPlayers(ctx.db, boardId);
  return { rows, total };
}

/** The page of `limit` rows centred on the player's rank, kept within the board: keyset reads on both sides of the key. */
async function pageAround(ctx: AppContext, boardId: number, me: Standing, limit: number) {
  const offset = Math.max(0, Math.min(me.rank! - 1 - Math.floor((limit - 1) / 2), me.total - limit));
  const before = me.rank! - 1 - offset;
  const rows = [
    ...(await pageBefore(ctx.db, boardId, me.key!, before)),
    ...(await pageFrom(ctx.db, boardId, me.key!, limit - before)),
  ];
  return { offset, rows };
}

/**
 * GET /games/{slug}/leaderboard. `credential` adds `me` when it is a player's. Statements: the game, board (and the
 * player's best), the page with its total (on PostgreSQL one statement for a shallow offset); with a player, one rank
 * statement; around=me reads the two keyset halves instead of OFFSET.
 */
export async function getLeaderboard(
  ctx: AppContext,
  slug: string,
  query: LeaderboardQuery,
  credential: Credential | null,
  options: { ids?: boolean } = {},
) {
  const player = credential?.kind === 'player' ? credential.playerId : undefined;
  if (query.around === 'me' && player === undefined) {
    if (!credential) throw new AppError('unauthenticated', 'around=me needs a player token or a portal session');
    throw new AppError('forbidden', 'around=me needs a player credential, not a developer key');
  }
  let season: number | undefined;
  if (query.season !== undefined) {
    const ended = await seasonToRead(ctx, slug, { ...query, season: query.season });
    if (ended) return getSeasonPage(ctx, ended, { ...query, season: query.season }, player);
    season = query.season;
  }
  const { limit } = query;
  const opened = await openBoard(
    ctx,
    slug,
    query.board,
    query.period,
    query.at,
    player,
    query.around === 'me' ? undefined : { offset: query.offset, limit },
  );
  const { game, boardId } = opened;
  let offset = query.offset;
  let rows: PageRow[] = [];
  let me: Standing | undefined;
  let total = 0;
  if (query.around === 'me') {
    me = await standingOf(ctx, opened);
    total = me.total;
    if (boardId !== undefined && me.key) ({ offset, rows } = await pageAround(ctx, boardId, me, limit));
    else if (boardId !== undefined) ({ rows, total } = await pageAt(ctx, boardId, offset, limit));
  } else {
    // The page (unless read with the board) and the player's standing are independent: on PostgreSQL they run on two
    // connections at once.
    const [standing, page] = await Promise.all([
      player === undefined ? undefined : standingOf(ctx, opened),
      opened.page ?? (boardId === undefined ? undefined : pageAt(ctx, boardId, offset, limit)),
    ]);
    me = standing;
    if (page) ({ rows, total } = page);
    else total = me?.total ?? 0;
  }
  const data: { leaderboard: PageEntry[]; me?: { rank: number | null; best: number | null } } = {
    leaderboard: rows.map((row, i) => toRow(ctx, row, offset + i + 1, options.ids === true)),
  };
  if (me) data.me = { rank: me.rank, best: me.best };
  const meta = {
    game: game.slug,
    board: query.board,
    period: query.period,
    order: game.leaderboard_order,
    unit: game.leaderboard_unit,
    limit,
    offset,
    total,
    ...(season === undefined ? {} : { season }),
  };
  return { data, meta };
}

/** GET /games/{slug}/leaderboard/me: two statements (game, board and the player's best; the rank). */
export async function getStanding(ctx: AppContext, slug: string, playerId: number, query: StandingQuery) {
  const standing = await standingOf(ctx, await openBoard(ctx, slug, query.board, query.period, query.at, playerId));
  return {
    board: query.board,
    period: query.period,
    rank: standing.rank,
    best: standing.best,
    entries: standing.entries,
  };
}

/** GET /games/{slug}/leaderboard/boards: `main`, then the game's other boards with a score, by name (two statements). */
export async function listBoards(ctx: AppContext, slug: string): Promise<{ boards: string[] }> {
  const game = openScoringGame(await findListedGame(ctx.db, slug));
  const names = await listBoardNames(ctx.db, game.id, BOARDS_MAX);
  return { boards: ['main', ...names.filter((b) => b !== 'main').sort()].slice(0, BOARDS_MAX) };
}

/** GET /me/scores: the all-time best and rank on every visible board the player has scored on, and the 20 latest submissions. */
export async function myScores(ctx: AppContext, playerId: number) {
  const best = [];
  for (const b of await allTimeBests(ctx.db, playerId)) {
    const rank = await rankOf(ctx.db, b.board_id, keyOfBest(b));
    best.push({
      game: b.slug,
      game_name: b.name,
      board: b.board,
      best: Number(b.score),
      unit: b.leaderboard_unit,
      rank,
    });
  }
  const recent = (await recentScores(ctx.db, playerId, 20)).map((r) => ({
    game: r.slug,
    game_name: r.name,
    board: r.board,
    score: Number(r.score),
    meta: parseMeta(r.meta),
    created_at: formatTimestamp(Number(r.created_at)),
  }));
  return { best, recent };
}

/**
 * `best_scores` of GET /players/{username}: the player's all-time best on board main of every visible leaderboard,
 * with its rank there (one count-tree read a game) and the game's cover.
 */
export async function bestScoresForProfile(ctx: AppContext, playerId: number): Promise<ProfileBestScore[]> {
  const bests = await allTimeBests(ctx.db, playerId, 'main');
  return Promise.all(
    bests.map(async (b) => ({
      game: b.slug,
      game_name: b.name,
      best: Number(b.score),
      unit: b.leaderboard_unit,
      rank: await rankOf(ctx.db, b.board_id, keyOfBest(b)),
      cover_url: coverUrl(ctx, b),
    })),
  );
}
