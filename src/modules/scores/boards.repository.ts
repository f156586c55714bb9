// Queries on leaderboards: a game's boards by name and period, and the game read with them.
import { compilable } from '../../db/sql-fragments.js';
import { rootCount } from './count-tree.repository.js';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import { type Params, statement, type ValueOrParam } from '../../db/statement.js';
import { LISTED_STATUSES } from '../games/manifest.js';
import type { ScoreBounds, ScoringGame } from './scoring-game.js';
import { type PageRow, pageQuery } from './pages.repository.js';

export interface BoardRef {
  gameId: number;
  board: string;
  period: string;
  periodKey: string;
  order: string;
}

/**
 * The lock of one board of a game (every period and order of it), PostgreSQL's transaction-scoped advisory lock keyed
 * by the game and the board's name: a score submission and a board's creation take it shared, before any bests row; a
 * moderator's rebuild of the board (moderation.service.ts) exclusively, before anything else. So a rebuild never runs
 * beside a submission to the board: each waits for the other's commit. No row is written to take it. SQLite runs one
 * write transaction at a time: nothing to take there.
 */
export function boardLockSql(
  gameId: ValueOrParam<number>,
  board: ValueOrParam<string>,
  mode: 'shared' | 'exclusive',
): RawBuilder<unknown> {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  return sql`select ${sql.raw(fn)}(cast(${gameId} as integer), hashtext(${board})) as locked`;
}

/** Takes boardLockSql's lock in its own statement (PostgreSQL; nothing on SQLite). */
export async function lockBoard(db: Executor, gameId: number, board: string, mode: 'shared' | 'exclusive') {
  if (isPostgres(db)) await boardLockSql(gameId, board, mode).execute(db);
}

/**
 * Takes the locks of several boards, shared, in one order (game, then board name), before any bests row: what a
 * change of one player's bests on many boards takes (a deletion, its cancelling, a purge, a guest's merge).
 */
export async function lockGameBoards(db: Executor, boards: ReadonlyArray<{ game_id: number; board: string }>) {
  if (!isPostgres(db)) return;
  const sorted = [...boards].sort(
    (a, b) => a.game_id - b.game_id || (a.board < b.board ? -1 : a.board > b.board ? 1 : 0),
  );
  for (const { game_id, board } of sorted) await lockBoard(db, game_id, board, 'shared');
}

/** Every board row of one game's board (every period, every order): a prefix of the unique index leaderboards_key. */
export async function boardsOfGameBoard(
  db: Executor,
  gameId: number,
  board: string,
): Promise<Array<{ id: number; period: string; period_key: string; sort_order: string }>> {
  return db
    .selectFrom('leaderboards')
    .select(['id', 'period', 'period_key', 'sort_order'])
    .where('game_id', '=', gameId)
    .where('board', '=', board)
    .orderBy('id')
    .execute();
}

/** The boards of one game, name and period, in any order: a prefix of the unique index leaderboards_key. */
function boardsInPeriod(db: Executor, ref: BoardRef) {
  return db
    .selectFrom('leaderboards')
    .select('id')
    .where('game_id', '=', ref.gameId)
    .where('board', '=', ref.board)
    .where('period', '=', ref.period)
    .where('period_key', '=', ref.periodKey);
}

/** Unique index leaderboards_key: one lookup. */
export async function findBoardId(db: Executor, ref: BoardRef): Promise<number | undefined> {
  const row = await boardsInPeriod(db, ref).where('sort_order', '=', ref.order).executeTakeFirst();
  return row?.id;
}

export interface GameBoardRow {
  id: number;
  slug: string;
  name: string;
  leaderboard_enabled: number;
  leaderboard_order: string;
  leaderboard_unit: string;
  board_id: number | null;
  /** the player's best on the board, when a player was named and has one */
  best_score: number | null;
  best_norm: number | null;
  best_reached_at: number | null;
  best_score_id: number | null;
  best_entries: number | null;
}

/**
 * A listed game, its board for the period under the game's current order and (for `playerId`) the player's best
 * there, in one statement: unique index on games.slug, then leaderboards_key, then leaderboard_bests_pk.
 */
export function findGameBoard(
  db: Executor,
  slug: string,
  board: string,
  period: string,
  periodKey: string,
  playerId = 0,
): Promise<GameBoardRow | undefined> {
  return gameBoard.first(db, { slug, board, period, periodKey, playerId });
}
/** findGameBoard's arguments. */
type GameBoardArgs = { slug: string; board: string; period: string; periodKey: string; playerId: number };
// every leaderboard read starts here: compiled once (db/statement.ts)
const gameBoard = statement('boards.gameBoard', (p: Params<GameBoardArgs>, db) => gameBoardQuery(db, p), {
  sqliteParamsFromOneRow: true,
});
function gameBoardQuery(db: Executor, { slug, board, period, periodKey, playerId }: Params<GameBoardArgs>) {
  return db
    .selectFrom('games as g')
    .leftJoin('leaderboards as l', (join) =>
      join
        .onRef('l.game_id', '=', 'g.id')
        .on('l.board', '=', board)
        .on('l.period', '=', period)
        .on('l.period_key', '=', periodKey)
        .onRef('l.sort_order', '=', 'g.leaderboard_order'),
    )
    .leftJoin('leaderboard_bests as b', (join) =>
      join.onRef('b.leaderboard_id', '=', 'l.id').on('b.player_id', '=', playerId),
    )
    .select([
      'g.id',
      'g.slug',
      'g.name',
      'g.leaderboard_enabled',
      'g.leaderboard_order',
      'g.leaderboard_unit',
      'l.id as board_id',
    ])
    .select([
      'b.score as best_score',
      'b.norm as best_norm',
      'b.reached_at as best_reached_at',
      'b.score_id as best_score_id',
      'b.entries as best_entries',
    ])
    .where('g.slug', '=', slug)
    .where('g.status', 'in', [...LISTED_STATUSES]);
}

export interface GameBoardPage {
  game: GameBoardRow;
  /** the page at offset..offset+limit, and the board's player count; only when the board exists */
  page: { rows: PageRow[]; total: number } | undefined;
}

/**
 * findGameBoard and, when the board exists, its page at a shallow offset (pageAtOffset) with the board's player count.
 * PostgreSQL reads both in one statement (a round trip costs the service more than the page's reads); the page reads
 * the board from the first part (materialized), so it is the same board findGameBoard would give. SQLite, where a
 * statement costs no round trip, reads only the board: the caller reads the page as for any other offset.
 */
export async function findGameBoardPage(
  db: Executor,
  slug: string,
  board: string,
  period: string,
  periodKey: string,
  playerId: number,
  offset: number,
  limit: number,
): Promise<GameBoardPage | undefined> {
  if (!isPostgres(db)) {
    const game = await findGameBoard(db, slug, board, period, periodKey, playerId);
    return game && { game, page: undefined };
  }
  const args = { slug, board, period, periodKey, playerId, offset, limit };
  const rows = (await gameBoardPageQuery.run(db, args)).rows;
  if (!rows.length) return undefined;
  const {
    board_total,
    page_score,
    entries,
    last_played,
    norm,
    reached_at,
    score_id,
    player_id,
    username,
    display_name,
    country,
    avatar_key,
    guest,
    ...game
  } = rows[0]!;
  if (game.board_id === null) return { game, page: undefined };
  const page =
    page_score === null
      ? []
      : rows.map(
          (r): PageRow => ({
            score: r.page_score!,
            entries: r.entries!,
            last_played: r.last_played!,
            norm: r.norm!,
            reached_at: r.reached_at!,
            score_id: r.score_id!,
            player_id: r.player_id!,
            username: r.username!,
            display_name: r.display_name!,
            country: r.country,
            avatar_key: r.avatar_key,
            guest: r.guest!,
            total: board_total,
          }),
        );
  return { game, page: { rows: page, total: Number(board_total ?? 0) } };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
type GameBoardPageRow = GameBoardRow &
  Nullable<Omit<PageRow, 'score' | 'total'>> & { page_score: number | null; board_total: number | string | null };

const gameBoardPageQuery = statement(
  'boards.gameBoardPage',
  (p: Params<GameBoardArgs & { offset: number; limit: number }>, db) => {
    const found = gameBoardQuery(db, p);
    const boardId = sql<number>`(select board_id from gb)`;
    const page = pageQuery(db, boardId)
      .orderBy('b.norm')
      .orderBy('b.reached_at')
      .orderBy('b.score_id')
      .limit(p.limit)
      .offset(p.offset);
    const query = sql<GameBoardPageRow>`with gb as materialized (${found}), page as materialized (${page})
select gb.*, ${rootCount(boardId)} as board_total, page.score as page_score, page.entries, page.last_played, page.norm,
  page.reached_at, page.score_id, page.player_id, page.username, page.display_name, page.country, page.avatar_key, page.guest
from gb left join page on true
order by page.norm, page.reached_at, page.score_id`;
    return compilable(db, query);
  },
);

/**
 * The names of a game's boards that have an all-time board (so a score), by name, at most `limit`: index
 * leaderboards_key (game_id, board, …) read in order, one row per board and period key (`all` has one).
 */
export async function listBoardNames(db: Executor, gameId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('leaderboards')
    .select('board')
    .distinct()
    .where('game_id', '=', gameId)
    .where('period', '=', 'all')
    .orderBy('board')
    .limit(limit)
    .execute();
  return rows.map((r) => r.board);
}

export interface GameWithBoards {
  /** with the bounds of its scores, read in the same statement */
  game: ScoringGame & ScoreBounds;
  /** the game's boards of the four periods that exist, under its current order */
  boards: Array<{ id: number; period: string; period_key: string }>;
}

/**
 * A listed game (as findListedGame reads it) and its boards of the four periods (all, month, week, day) of one board
 * name under the game's current order, in one compiled statement: every submission starts here. Unique index on
 * games.slug, then leaderboards_key: one lookup per period.
 */
export async function findGameWithBoards(
  db: Executor,
  slug: string,
  board: string,
  periods: Array<{ period: string; key: string }>,
): Promise<GameWithBoards | undefined> {
  if (periods.length !== 4) throw new Error('findGameWithBoards reads exactly four periods');
  const [a, b, c, d] = periods as [(typeof periods)[0], (typeof periods)[0], (typeof periods)[0], (typeof periods)[0]];
  const rows = (
    await gameWithBoardsQuery.run(db, {
      slug,
      board,
      p0: a.period,
      k0: a.key,
      p1: b.period,
      k1: b.key,
      p2: c.period,
      k2: c.key,
      p3: d.period,
      k3: d.key,
    })
  ).rows;
  if (!rows.length) return undefined;
  const { board_id, period, period_key, ...game } = rows[0]!;
  const boards = rows
    .filter((r) => r.board_id !== null)
    .map((r) => ({ id: r.board_id!, period: r.period!, period_key: r.period_key! }));
  return { game, boards };
}
type GameWithBoardsArgs = { slug: string; board: string } & Record<`${'p' | 'k'}${0 | 1 | 2 | 3}`, string>;
const gameWithBoardsQuery = statement(
  'boards.gameWithBoards',
  ({ slug, board, p0, k0, p1, k1, p2, k2, p3, k3 }: Params<GameWithBoardsArgs>, db) =>
    db
      .selectFrom('games as g')
      .leftJoin('leaderboards as l', (join) =>
        join
          .onRef('l.game_id', '=', 'g.id')
          .on('l.board', '=', board)
          .onRef('l.sort_order', '=', 'g.leaderboard_order')
          .on((eb) =>
            eb.or([
              eb.and([eb('l.period', '=', p0), eb('l.period_key', '=', k0)]),
              eb.and([eb('l.period', '=', p1), eb('l.period_key', '=', k1)]),
              eb.and([eb('l.period', '=', p2), eb('l.period_key', '=', k2)]),
              eb.and([eb('l.period', '=', p3), eb('l.period_key', '=', k3)]),
            ]),
          ),
      )
      .select(['g.id', 'g.slug', 'g.name', 'g.leaderboard_enabled', 'g.leaderboard_order', 'g.leaderboard_unit'])
      .select(['g.leaderboard_min', 'g.leaderboard_max'])
      .select(['l.id as board_id', 'l.period', 'l.period_key'])
      .where('g.slug', '=', slug)
      .where('g.status', 'in', [...LISTED_STATUSES]),
  { sqliteParamsFromOneRow: true },
);

/** Whether the board exists in this period under another order (the game's order changed since). */
export async function boardExistsInAnyOrder(db: Executor, ref: BoardRef): Promise<boolean> {
  return (await boardsInPeriod(db, ref).executeTakeFirst()) !== undefined;
}

/** Creates the board unless another request just did; returns the new id, or undefined when it already existed. */
export async function insertBoard(db: Executor, ref: BoardRef, now: number): Promise<number | undefined> {
  const row = await db
    .insertInto('leaderboards')
    .values({
      game_id: ref.gameId,
      board: ref.board,
      period: ref.period,
      period_key: ref.periodKey,
      sort_order: ref.order,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['game_id', 'board', 'period', 'period_key', 'sort_order']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}
