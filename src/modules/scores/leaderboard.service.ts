// Reading leaderboards: pages, a player's standing, the bests on /me/scores and on public profiles.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { Credential } from '../../http/auth.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { formatTimestamp, type Period } from '../../time.js';
import { boardToRead } from './boards.js';
import { countPlayers, findBest, keyOfBest, pageAtOffset, pageBefore, pageFrom, type PageRow } from './leaderboard.repository.js';
import { periodKeyFor } from './periods.js';
import { publicPlayer } from './player-view.js';
import { normalise } from './rank-tree.js';
import { keyAtIndex, rankOf } from './ranking.js';
import type { LeaderboardQuery, LeaderboardRow, ProfileBestScore, StandingQuery } from './scores.schemas.js';
import { allTimeBests, recentScores, type ScoringGame } from './scores.repository.js';
import { parseMeta, scoringGame } from './scores.service.js';

/** Offsets up to this are read with OFFSET (cheap); deeper pages find their first key by walking the count tree. */
const SHALLOW_OFFSET = 200;

/** Runs reads on one snapshot, so a page, its total and the caller's rank agree (repeatable read on PostgreSQL). */
function readSnapshot<T>(ctx: AppContext, fn: (db: Executor) => Promise<T>): Promise<T> {
  const trx = ctx.db.transaction();
  return (ctx.dialect === 'postgres' ? trx.setIsolationLevel('repeatable read') : trx).execute(fn);
}

interface OpenBoard {
  game: ScoringGame;
  period: Period;
  /** undefined when the board has no score in the period */
  boardId: number | undefined;
}

async function openBoard(ctx: AppContext, slug: string, board: string, period: Period, at: string | undefined): Promise<OpenBoard> {
  const game = await scoringGame(ctx, slug);
  const periodKey = periodKeyFor(period, ctx.clock.now(), ctx.config.reset_timezone, at);
  if (periodKey === null) throw validationFailed({ at: 'must be a real date YYYY-MM-DD' });
  return { game, period, boardId: await boardToRead(ctx, game, board, period, periodKey) };
}

async function standingOf(db: Executor, boardId: number | undefined, playerId: number, order: string) {
  const best = boardId === undefined ? undefined : await findBest(db, boardId, playerId);
  if (!best) return { rank: null, best: null, entries: 0, key: undefined };
  const key = keyOfBest(best);
  return { rank: await rankOf(db, boardId!, key), best: normalise(key.norm, order), entries: best.entries, key };
}

function toRow(ctx: AppContext, row: PageRow, rank: number): LeaderboardRow {
  return {
    rank,
    score: Number(row.score),
    entries: Number(row.entries),
    last_played: formatTimestamp(Number(row.last_played)),
    player: publicPlayer(ctx.config, row),
  };
}

/** The rows from 0-based `offset`: OFFSET when shallow, else a walk down the count tree to the first key, then a keyset scan. */
async function pageAt(db: Executor, boardId: number, offset: number, limit: number): Promise<PageRow[]> {
  if (offset <= SHALLOW_OFFSET) return pageAtOffset(db, boardId, offset, limit);
  const first = await keyAtIndex(db, boardId, offset);
  return first ? pageFrom(db, boardId, first, limit) : [];
}

/** GET /games/{slug}/leaderboard. `credential` adds `me` when it is a player's. */
export async function getLeaderboard(ctx: AppContext, slug: string, query: LeaderboardQuery, credential: Credential | null) {
  const player = credential?.kind === 'player' ? credential.playerId : undefined;
  if (query.around === 'me' && player === undefined) {
    if (!credential) throw new AppError('unauthenticated', 'around=me needs a player token or a portal session');
    throw new AppError('forbidden', 'around=me needs a player credential, not a developer key');
  }
  const { game, boardId } = await openBoard(ctx, slug, query.board, query.period, query.at);
  const { limit } = query;
  const read = await readSnapshot(ctx, async (db) => {
    const total = boardId === undefined ? 0 : await countPlayers(db, boardId);
    const me = player === undefined ? undefined : await standingOf(db, boardId, player, game.leaderboard_order);
    let offset = query.offset;
    let rows: PageRow[] = [];
    if (boardId !== undefined && query.around === 'me' && me?.key) {
      // The page centred on the player, clamped to the board; read by keyset on both sides of the player's key.
      offset = Math.max(0, Math.min(me.rank! - 1 - Math.floor((limit - 1) / 2), total - limit));
      const before = me.rank! - 1 - offset;
      rows = [...(await pageBefore(db, boardId, me.key, before)), ...(await pageFrom(db, boardId, me.key, limit - before))];
    } else if (boardId !== undefined) {
      rows = await pageAt(db, boardId, offset, limit);
    }
    return { total, me, offset, rows };
  });
  const data: { leaderboard: LeaderboardRow[]; me?: { rank: number | null; best: number | null } } = {
    leaderboard: read.rows.map((row, i) => toRow(ctx, row, read.offset + i + 1)),
  };
  if (read.me) data.me = { rank: read.me.rank, best: read.me.best };
  const meta = {
    game: game.slug,
    board: query.board,
    period: query.period,
    order: game.leaderboard_order,
    unit: game.leaderboard_unit,
    limit,
    offset: read.offset,
    total: read.total,
  };
  return { data, meta };
}

/** GET /games/{slug}/leaderboard/me. */
export async function getStanding(ctx: AppContext, slug: string, playerId: number, query: StandingQuery) {
  const { game, boardId } = await openBoard(ctx, slug, query.board, query.period, query.at);
  const standing = await readSnapshot(ctx, (db) => standingOf(db, boardId, playerId, game.leaderboard_order));
  return { board: query.board, period: query.period, rank: standing.rank, best: standing.best, entries: standing.entries };
}

/** GET /me/scores: the all-time best and rank on every visible board the player has scored on, and the 20 latest submissions. */
export async function myScores(ctx: AppContext, playerId: number) {
  return readSnapshot(ctx, async (db) => {
    const bests = await allTimeBests(db, playerId);
    const best = [];
    for (const b of bests) {
      best.push({ game: b.slug, game_name: b.name, board: b.board, best: Number(b.score), unit: b.leaderboard_unit, rank: await rankOf(db, b.board_id, keyOfBest(b)) });
    }
    const recent = (await recentScores(db, playerId, 20)).map((r) => ({
      game: r.slug,
      game_name: r.name,
      board: r.board,
      score: Number(r.score),
      meta: parseMeta(r.meta),
      created_at: formatTimestamp(Number(r.created_at)),
    }));
    return { best, recent };
  });
}

/** `best_scores` of GET /players/{username}: the player's all-time best on board main of every visible leaderboard. */
export async function bestScoresForProfile(ctx: AppContext, playerId: number): Promise<ProfileBestScore[]> {
  const bests = await allTimeBests(ctx.db, playerId, 'main');
  return bests.map((b) => ({ game: b.slug, game_name: b.name, best: Number(b.score), unit: b.leaderboard_unit }));
}
