// Queries on leaderboards, leaderboard_bests and leaderboard_nodes. Each hot query names its index and its cost.
import { sql, type Compilable, type RawBuilder, type Selectable } from 'kysely';
import { PREPARED, isPostgres, type Executor } from '../../db/connect.js';
import { prepared } from '../../db/prepared.js';
import type { LeaderboardBestsTable } from '../../db/schema.js';
import type { NodeId, NodeRange, NodeRow, RankKey } from './rank-tree.js';
import { LISTED_STATUSES } from '../games/manifest.js';
import type { ScoringGame } from './scores.repository.js';

export interface BoardRef {
  gameId: number;
  board: string;
  period: string;
  periodKey: string;
  order: string;
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
  return gameBoard.first(db, slug, board, period, periodKey, playerId);
}
// every leaderboard read starts here: compiled once (db/prepared.ts)
const gameBoard = prepared((db, slug: string, board: string, period: string, periodKey: string, playerId: number) =>
  gameBoardQuery(db, slug, board, period, periodKey, playerId),
);
function gameBoardQuery(
  db: Executor,
  slug: string,
  board: string,
  period: string,
  periodKey: string,
  playerId: number,
) {
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
 * PostgreSQL only: findGameBoard and, when the board exists, its page at a shallow offset (pageAtOffset) with the
 * board's player count, in one statement (a round trip costs the service more than the page's reads). The page reads
 * the board from the first part (materialized), so it is the same board findGameBoard would give.
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
  const rows = (await gameBoardPageQuery.execute(db, slug, board, period, periodKey, playerId, offset, limit)).rows;
  if (!rows.length) return undefined;
  const {
    board_total,
    page_score,
    entries,
    last_played,
    norm,
    reached_at,
    score_id,
    username,
    display_name,
    country,
    avatar_key,
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
            username: r.username!,
            display_name: r.display_name!,
            country: r.country,
            avatar_key: r.avatar_key,
            total: board_total,
          }),
        );
  return { game, page: { rows: page, total: Number(board_total ?? 0) } };
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
type GameBoardPageRow = GameBoardRow &
  Nullable<Omit<PageRow, 'score' | 'total'>> & { page_score: number | null; board_total: number | string | null };

const gameBoardPageQuery = prepared(
  (
    db,
    slug: string,
    board: string,
    period: string,
    periodKey: string,
    playerId: number,
    offset: number,
    limit: number,
  ) => {
    const found = gameBoardQuery(db, slug, board, period, periodKey, playerId);
    const boardId = sql<number>`(select board_id from gb)`;
    const page = pageQuery(db, boardId, false)
      .orderBy('b.norm')
      .orderBy('b.reached_at')
      .orderBy('b.score_id')
      .limit(limit)
      .offset(offset);
    const query = sql<GameBoardPageRow>`with gb as materialized (${found}), page as materialized (${page})
select gb.*, ${rootCount(boardId)} as board_total, page.score as page_score, page.entries, page.last_played, page.norm,
  page.reached_at, page.score_id, page.username, page.display_name, page.country, page.avatar_key
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
  game: ScoringGame;
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
    await gameWithBoardsQuery.execute(
      db,
      slug,
      board,
      a.period,
      a.key,
      b.period,
      b.key,
      c.period,
      c.key,
      d.period,
      d.key,
    )
  ).rows;
  if (!rows.length) return undefined;
  const { board_id, period, period_key, ...game } = rows[0]!;
  const boards = rows
    .filter((r) => r.board_id !== null)
    .map((r) => ({ id: r.board_id!, period: r.period!, period_key: r.period_key! }));
  return { game, boards };
}
const gameWithBoardsQuery = prepared(
  (
    db,
    slug: string,
    board: string,
    p0: string,
    k0: string,
    p1: string,
    k1: string,
    p2: string,
    k2: string,
    p3: string,
    k3: string,
  ) =>
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
      .select(['l.id as board_id', 'l.period', 'l.period_key'])
      .where('g.slug', '=', slug)
      .where('g.status', 'in', [...LISTED_STATUSES]),
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

// ---- bests -------------------------------------------------------------------------------------------

export type BestRow = Selectable<LeaderboardBestsTable>;

export const keyOfBest = (row: Pick<BestRow, 'norm' | 'reached_at' | 'score_id'>): RankKey => ({
  norm: row.norm,
  reachedAt: row.reached_at,
  scoreId: row.score_id,
});

const BEST_COLUMNS = [
  'leaderboard_id',
  'player_id',
  'score',
  'norm',
  'reached_at',
  'score_id',
  'entries',
  'last_played',
] as const;

/**
 * The player's bests on these boards, locked for update on PostgreSQL in board order (primary key lookups). The
 * boards go in as one JSON parameter: one compiled statement whatever their number.
 */
export async function lockBests(db: Executor, boardIds: number[], playerId: number): Promise<BestRow[]> {
  if (!boardIds.length) return [];
  return (await lockBestsQuery.execute(db, boardsJson(boardIds), playerId)).rows;
}

/** Board ids as lockBests' JSON parameter. */
export const boardsJson = (boardIds: number[]) => JSON.stringify(boardIds.map((id) => [id]));
const lockBestsQuery = prepared((db, boards: string, playerId: number) =>
  compilable(db, lockBestsSql(db, boards, playerId)),
);

/** lockBests' statement: `boards` is the JSON text of the board ids, each in an array of one. */
export function lockBestsSql(db: Executor, boards: string, playerId: number): RawBuilder<BestRow> {
  return sql<BestRow>`
    select ${sql.raw(BEST_COLUMNS.join(', '))} from leaderboard_bests
    where player_id = ${playerId} and leaderboard_id in (select q.id from (${jsonRows(db, boards, ['id'])}) q)
    order by leaderboard_id${sql.raw(isPostgres(db) ? ' for update' : '')}`;
}

/** Inserts first bests; returns the boards where this request inserted (a concurrent request may have won others). */
export async function insertBests(db: Executor, rows: BestRow[]): Promise<number[]> {
  if (!rows.length) return [];
  const inserted = await db
    .insertInto('leaderboard_bests')
    .values(rows)
    .onConflict((oc) => oc.columns(['leaderboard_id', 'player_id']).doNothing())
    .returning('leaderboard_id')
    .execute();
  return inserted.map((r) => r.leaderboard_id);
}

/**
 * Counts one more entry on the boards `counted`, and moves the player's best to `best` on the boards `improved`
 * (a subset of `counted`, chosen by the caller), in one compiled statement: primary key lookups. Both lists go in as
 * JSON parameters. SET reads the row as it was, so the order of the assignments does not matter.
 */
export async function countEntryAndSetBest(
  db: Executor,
  counted: number[],
  improved: number[],
  playerId: number,
  now: number,
  best: Pick<BestRow, 'score' | 'norm' | 'reached_at' | 'score_id'>,
): Promise<void> {
  if (!counted.length) return;
  await updateBestsQuery.execute(
    db,
    idsJson(counted),
    idsJson(improved),
    playerId,
    now,
    best.score,
    best.norm,
    best.reached_at,
    best.score_id,
  );
}
const idsJson = (list: number[]) => JSON.stringify(list.map((id) => [id]));
const updateBestsQuery = prepared(
  (
    db,
    counted: string,
    improved: string,
    playerId: number,
    now: number,
    score: number,
    norm: number,
    reachedAt: number,
    scoreId: number,
  ) => compilable(db, updateBestsSql(db, counted, improved, playerId, now, score, norm, reachedAt, scoreId)),
);

function updateBestsSql(
  db: Executor,
  counted: string,
  improved: string,
  playerId: number,
  now: number,
  score: number,
  norm: number,
  reachedAt: number,
  scoreId: number,
) {
  const isImproved = sql`leaderboard_id in (select q.id from (${jsonRows(db, improved, ['id'])}) q)`;
  const ifImproved = (value: number, column: string) =>
    sql`case when ${isImproved} then ${int(db, value)} else ${sql.ref(column)} end`;
  return sql`
      update leaderboard_bests set
        entries = entries + 1,
        last_played = case when last_played > ${int(db, now)} then last_played else ${int(db, now)} end,
        score = ${ifImproved(score, 'score')},
        norm = ${ifImproved(norm, 'norm')},
        reached_at = ${ifImproved(reachedAt, 'reached_at')},
        score_id = ${ifImproved(scoreId, 'score_id')}
      where player_id = ${playerId} and leaderboard_id in (select q.id from (${jsonRows(db, counted, ['id'])}) q)`;
}

/**
 * countEntryAndSetBest, then rankAndTotal on one board, in one statement on PostgreSQL (a round trip less for every
 * score submission), in two on SQLite. The rank's reads see the bests as they were before the update (a statement's
 * data-modifying CTE is not visible to its other parts), and that gives the same rank: the update changes only the
 * submitting player's own rows, and a player's own key, old or new, is never ahead of the key ranked (their best
 * after the submission).
 */
export async function countEntrySetBestAndRank(
  db: Executor,
  entry: {
    counted: number[];
    improved: number[];
    playerId: number;
    now: number;
    best: Pick<BestRow, 'score' | 'norm' | 'reached_at' | 'score_id'>;
  },
  rank: { boardId: number; levels: PathLevel[]; key: RankKey },
): Promise<{ rank: number; total: number }> {
  const { counted, improved, playerId, now, best } = entry;
  if (!isPostgres(db) || !counted.length) {
    await countEntryAndSetBest(db, counted, improved, playerId, now, best);
    return rankAndTotal(db, rank.boardId, rank.levels, rank.key);
  }
  const { key } = rank;
  const row = (
    await updateBestsAndRankQuery.execute(
      db,
      idsJson(counted),
      idsJson(improved),
      playerId,
      now,
      best.score,
      best.norm,
      best.reached_at,
      best.score_id,
      rank.boardId,
      levelsJson(rank.levels),
      key.norm,
      key.reachedAt,
      key.scoreId,
    )
  ).rows[0]!;
  return rankOfRow(row);
}
const updateBestsAndRankQuery = prepared(
  (
    db,
    counted: string,
    improved: string,
    playerId: number,
    now: number,
    score: number,
    norm: number,
    reachedAt: number,
    scoreId: number,
    boardId: number,
    levels: string,
    keyNorm: number,
    keyReachedAt: number,
    keyScoreId: number,
  ) =>
    compilable(
      db,
      rankSql(
        db,
        boardId,
        levels,
        keyNorm,
        keyReachedAt,
        keyScoreId,
        updateBestsSql(db, counted, improved, playerId, now, score, norm, reachedAt, scoreId),
      ),
    ),
);

/** Primary key lookup. */
export function findBest(db: Executor, boardId: number, playerId: number): Promise<BestRow | undefined> {
  return db
    .selectFrom('leaderboard_bests')
    .select(BEST_COLUMNS)
    .where('leaderboard_id', '=', boardId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
}

const keyTuple = (k: RankKey) => [k.norm, k.reachedAt, k.scoreId] as const;

/** Sorted keys in [from, to] inclusive: the keys of one node being split (bounded by SPLIT_AT + 1), or a whole board when rebuilding. */
export async function keysBetween(db: Executor, boardId: number, from: RankKey, to: RankKey): Promise<RankKey[]> {
  const rows = await db
    .selectFrom('leaderboard_bests')
    .select(['norm', 'reached_at', 'score_id'])
    .where('leaderboard_id', '=', boardId)
    .where((eb) => eb(eb.refTuple('norm', 'reached_at', 'score_id'), '>=', eb.tuple(...keyTuple(from))))
    .where((eb) => eb(eb.refTuple('norm', 'reached_at', 'score_id'), '<=', eb.tuple(...keyTuple(to))))
    .orderBy('norm')
    .orderBy('reached_at')
    .orderBy('score_id')
    .execute();
  return rows.map(keyOfBest);
}

/** The key `offset` places after `from` (inclusive). Rank index range scan of offset + 1 entries (≤ SPLIT_AT here). */
export async function keyAtOffsetFrom(
  db: Executor,
  boardId: number,
  from: RankKey,
  offset: number,
): Promise<RankKey | undefined> {
  const row = await db
    .selectFrom('leaderboard_bests')
    .select(['norm', 'reached_at', 'score_id'])
    .where('leaderboard_id', '=', boardId)
    .where((eb) => eb(eb.refTuple('norm', 'reached_at', 'score_id'), '>=', eb.tuple(...keyTuple(from))))
    .orderBy('norm')
    .orderBy('reached_at')
    .orderBy('score_id')
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
  return row ? keyOfBest(row) : undefined;
}

// ---- pages ---------------------------------------------------------------------------------------------

export interface PageRow {
  score: number;
  entries: number;
  last_played: number;
  norm: number;
  reached_at: number;
  score_id: number;
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
  /** players on the board (the root's count), read in the same statement */
  total: number | string | null;
}

const rootCount = (boardId: number | RawBuilder<number>) =>
  sql<number>`(select r.cnt from leaderboard_nodes r where r.leaderboard_id = ${boardId} and r.level = 0 and r.head = 0 and r.parent = 0 and r.prefix = 0)`;

/** `mark`: end with PREPARED (not when db/prepared.ts adds the mark itself). */
function pageQuery(db: Executor, boardId: number | RawBuilder<number>, mark = true) {
  const query = db
    .selectFrom('leaderboard_bests as b')
    .innerJoin('players as p', 'p.id', 'b.player_id')
    .select([
      'b.score',
      'b.entries',
      'b.last_played',
      'b.norm',
      'b.reached_at',
      'b.score_id',
      'p.username',
      'p.display_name',
      'p.country',
      'p.avatar_key',
    ])
    .select(rootCount(boardId).as('total'))
    .where('b.leaderboard_id', '=', boardId);
  return mark ? query.modifyEnd(sql.raw(PREPARED)) : query;
}

/** Rows at offset..offset+limit. Rank index scan of offset + limit entries: used only for shallow offsets. */
export async function pageAtOffset(db: Executor, boardId: number, offset: number, limit: number): Promise<PageRow[]> {
  return (await pageAtOffsetQuery.execute(db, boardId, offset, limit)).rows;
}
const pageAtOffsetQuery = prepared((db, boardId: number, offset: number, limit: number) =>
  pageQuery(db, boardId, false)
    .orderBy('b.norm')
    .orderBy('b.reached_at')
    .orderBy('b.score_id')
    .limit(limit)
    .offset(offset),
);

/** `limit` rows from `from` on (inclusive). Keyset: rank index scan of `limit` entries, whatever the depth. */
export function pageFrom(db: Executor, boardId: number, from: RankKey, limit: number): Promise<PageRow[]> {
  return pageQuery(db, boardId)
    .where((eb) => eb(eb.refTuple('b.norm', 'b.reached_at', 'b.score_id'), '>=', eb.tuple(...keyTuple(from))))
    .orderBy('b.norm')
    .orderBy('b.reached_at')
    .orderBy('b.score_id')
    .limit(limit)
    .execute();
}

/** The `count` rows just before `key`, in ranking order. Keyset backwards: rank index scan of `count` entries. */
export async function pageBefore(db: Executor, boardId: number, key: RankKey, count: number): Promise<PageRow[]> {
  if (count <= 0) return [];
  const rows = await pageQuery(db, boardId)
    .where((eb) => eb(eb.refTuple('b.norm', 'b.reached_at', 'b.score_id'), '<', eb.tuple(...keyTuple(key))))
    .orderBy('b.norm', 'desc')
    .orderBy('b.reached_at', 'desc')
    .orderBy('b.score_id', 'desc')
    .limit(count)
    .execute();
  return rows.reverse();
}

// ---- count tree -----------------------------------------------------------------------------------------

interface NodeDbRow {
  leaderboard_id: number;
  level: number;
  head: number | string;
  parent: number | string;
  prefix: number | string;
  cnt: number | string;
  expanded: number | string;
}

export interface BoardNodeRow extends NodeRow {
  boardId: number;
}

/**
 * A number in a VALUES list or a row value: PostgreSQL needs the type written out, SQLite must not have it (a CAST
 * gives the value an affinity that keeps SQLite from using a row-value range on an index).
 */
function int(db: Executor, value: number): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`cast(${value} as bigint)` : sql<number>`${value}`;
}

const toNode = (r: NodeDbRow): BoardNodeRow => ({
  boardId: Number(r.leaderboard_id),
  level: Number(r.level),
  head: Number(r.head),
  parent: Number(r.parent),
  prefix: Number(r.prefix),
  cnt: Number(r.cnt),
  expanded: Number(r.expanded) === 1,
});

/** A raw statement as db/prepared.ts takes it (a RawBuilder compiles only given its executor). */
const compilable = <R>(db: Executor, query: RawBuilder<R>): Compilable<R> => ({ compile: () => query.compile(db) });

/**
 * The rows of a JSON array of arrays of integers as a table with these columns, for a statement whose SQL text must
 * not depend on how many rows it gets (so it is compiled once, db/prepared.ts): jsonb_each on SQLite, jsonb on
 * PostgreSQL. `ord` is the row's 0-based position. On SQLite `->>` gives an INTEGER with no affinity, so the values
 * still drive row-value ranges on indexes (see int()). SQLite's jsonb_each parses the text once into its binary
 * form, and each `->>` then reads a binary element: with json_each, every `->>` parsed its element's text again, and
 * that took most of a rank's time (a path of 17 levels, 7 columns: 57 → 39 µs a rank; 144 ranges of nodes 285 →
 * 172 µs; issue 14).
 */
function jsonRows(db: Executor, json: unknown, columns: string[]): RawBuilder<unknown> {
  if (isPostgres(db)) {
    const cols = columns.map((c, i) => `cast(j.e ->> ${i} as bigint) as ${c}`).join(', ');
    return sql`select ${sql.raw(cols)}, j.ord - 1 as ord from jsonb_array_elements(cast(${json} as jsonb)) with ordinality as j(e, ord)`;
  }
  const cols = columns.map((c, i) => `j.value ->> ${i} as ${c}`).join(', ');
  return sql`select ${sql.raw(cols)}, j.key as ord from jsonb_each(${json}) j`;
}

/**
 * Every node in the given ranges (board, level, head, parent, prefix lo..hi), in one statement: a nested loop
 * over the listed ranges, each one range scan of leaderboard_nodes_pk reading at most 16 entries (128 at the class
 * level). With the ≤ 25 ranges of one path this is the whole tree part of a rank. The ranges go in as one JSON
 * parameter, so the statement is compiled once whatever their number.
 */
export async function nodesInRanges(
  db: Executor,
  ranges: Array<NodeRange & { boardId: number }>,
): Promise<BoardNodeRow[]> {
  if (!ranges.length) return [];
  const json = JSON.stringify(ranges.map((r) => [r.boardId, r.level, r.head, r.parent, r.lo, r.hi]));
  return (await nodesInRangesQuery.execute(db, json)).rows.map(toNode);
}
const nodesInRangesQuery = prepared((db, json: string) =>
  compilable(
    db,
    sql<NodeDbRow>`
    with q as (${jsonRows(db, json, ['board_id', 'lvl', 'head', 'parent', 'lo', 'hi'])})
    select n.leaderboard_id, n.level, n.head, n.parent, n.prefix, n.cnt, n.expanded
    from q join leaderboard_nodes n
      on n.leaderboard_id = q.board_id and n.level = q.lvl and n.head = q.head and n.parent = q.parent
     and n.prefix >= q.lo and n.prefix <= q.hi`,
  ),
);

export interface PathLevel extends NodeRange {
  /** lowest key of the path's own node at this level: where the direct count starts if the tree stops here */
  from: RankKey;
}

/**
 * The rank of `key` and the board's total in ONE statement (one snapshot, one round trip), given the key's path:
 * for each level the range from the first sibling to the path's own node. The stop is the first level whose own
 * node is missing or not split (one primary key lookup per level); the siblings ahead are summed down to the stop,
 * then the keys ahead inside the stop are counted. The path goes in as one JSON parameter: one compiled statement.
 * Cost: ≤ 25 primary key lookups and ≤ 25 range scans of leaderboard_nodes_pk of ≤ 16 entries (128 at the class
 * level), one range scan of leaderboard_bests_rank_idx of ≤ SPLIT_AT entries, one primary key lookup of the root —
 * whatever the board's size. The joins are written as CROSS JOINs with the conditions in WHERE: SQLite keeps a CROSS
 * JOIN's order, and left free it read the path after the nodes, walking every node of the board (1 s a rank on a
 * board of a million players); PostgreSQL plans them as any inner join.
 */
export async function rankAndTotal(
  db: Executor,
  boardId: number,
  levels: PathLevel[],
  key: RankKey,
): Promise<{ rank: number; total: number }> {
  return rankOfRow(
    (await rankQuery.execute(db, boardId, levelsJson(levels), key.norm, key.reachedAt, key.scoreId)).rows[0]!,
  );
}
const levelsJson = (levels: PathLevel[]) =>
  JSON.stringify(levels.map((l) => [l.level, l.head, l.parent, l.lo, l.hi, l.from.norm, l.from.reachedAt]));
const rankOfRow = (row: RankRow) => ({
  rank: 1 + Number(row.ahead ?? 0) + Number(row.inside),
  total: Number(row.total ?? 0),
});
type RankRow = { ahead: number | string | null; inside: number | string; total: number | string | null };
const rankQuery = prepared((db, boardId: number, json: string, norm: number, reachedAt: number, scoreId: number) =>
  compilable(db, rankSql(db, boardId, json, norm, reachedAt, scoreId)),
);

/** rankAndTotal's statement; `before`: a data-modifying statement to run first, in a CTE (PostgreSQL). */
function rankSql(
  db: Executor,
  boardId: number,
  json: string,
  norm: number,
  reachedAt: number,
  scoreId: number,
  before?: RawBuilder<unknown>,
) {
  const board = int(db, boardId);
  return sql<RankRow>`
    with ${before ? sql`u as (${before}), ` : sql``}q as (${jsonRows(db, json, ['lvl', 'head', 'parent', 'lo', 'own', 'from_norm', 'from_reached'])}),
    stop as (
      select q.ord, q.from_norm, q.from_reached, n.prefix as found
      from q left join leaderboard_nodes n
        on n.leaderboard_id = ${board} and n.level = q.lvl and n.head = q.head and n.parent = q.parent and n.prefix = q.own
      where n.expanded is null or n.expanded = 0
      order by q.ord
      limit 1
    )
    select
      (select sum(n.cnt) from stop s cross join q cross join leaderboard_nodes n
        where q.ord <= s.ord and n.leaderboard_id = ${board} and n.level = q.lvl and n.head = q.head and n.parent = q.parent
          and n.prefix >= q.lo and n.prefix < q.own) as ahead,
      (select count(*) from stop s cross join leaderboard_bests b
        where s.found is not null and b.leaderboard_id = ${board}
          and (b.norm, b.reached_at, b.score_id) >= (s.from_norm, s.from_reached, 0)
          and (b.norm, b.reached_at, b.score_id) < (${int(db, norm)}, ${int(db, reachedAt)}, ${int(db, scoreId)})
      ) as inside,
      ${rootCount(boardId)} as total`;
}

/**
 * Adds `delta` to each node (creating missing ones, not expanded) and returns the nodes as they are now. The rows
 * must come in the global lock order (board, level, head, parent, prefix) so that writers never deadlock; a delta
 * of 0 only locks the node. Primary key upserts, one per node, in the order given (`order by ord`). The rows go in
 * as one JSON parameter: one compiled statement.
 */
export async function addToNodes(
  db: Executor,
  deltas: Array<NodeId & { boardId: number; delta: number }>,
): Promise<BoardNodeRow[]> {
  if (!deltas.length) return [];
  const json = JSON.stringify(deltas.map((d) => [d.boardId, d.level, d.head, d.parent, d.prefix, d.delta]));
  return (await addToNodesQuery.execute(db, json)).rows.map(toNode);
}
// `where true`: SQLite's parser needs it between an INSERT … SELECT and ON CONFLICT.
const addToNodesQuery = prepared((db, json: string) =>
  compilable(
    db,
    sql<NodeDbRow>`
    insert into leaderboard_nodes (leaderboard_id, level, head, parent, prefix, cnt, expanded)
    select d.board_id, d.lvl, d.head, d.parent, d.prefix, d.delta, 0
    from (${jsonRows(db, json, ['board_id', 'lvl', 'head', 'parent', 'prefix', 'delta'])}) d
    where true
    order by d.ord
    on conflict (leaderboard_id, level, head, parent, prefix) do update set cnt = leaderboard_nodes.cnt + excluded.cnt
    returning leaderboard_id, level, head, parent, prefix, cnt, expanded`,
  ),
);

/** Writes new nodes (a split, or a whole board), in chunks that stay under both databases' parameter limits. */
export async function insertNodes(db: Executor, boardId: number, rows: NodeRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    await db
      .insertInto('leaderboard_nodes')
      .values(
        chunk.map((r) => ({
          leaderboard_id: boardId,
          level: r.level,
          head: r.head,
          parent: r.parent,
          prefix: r.prefix,
          cnt: r.cnt,
          expanded: r.expanded ? (1 as const) : (0 as const),
        })),
      )
      .execute();
  }
}

export async function markExpanded(db: Executor, boardId: number, node: NodeId): Promise<void> {
  await db
    .updateTable('leaderboard_nodes')
    .set({ expanded: 1 })
    .where('leaderboard_id', '=', boardId)
    .where('level', '=', node.level)
    .where('head', '=', node.head)
    .where('parent', '=', node.parent)
    .where('prefix', '=', node.prefix)
    .execute();
}

export async function deleteTree(db: Executor, boardId: number): Promise<void> {
  await db.deleteFrom('leaderboard_nodes').where('leaderboard_id', '=', boardId).execute();
}

/** Players on the board: the root's count, one primary key lookup. */
export async function countPlayers(db: Executor, boardId: number): Promise<number> {
  const row = await db
    .selectFrom('leaderboard_nodes')
    .select('cnt')
    .where('leaderboard_id', '=', boardId)
    .where('level', '=', 0)
    .where('head', '=', 0)
    .where('parent', '=', 0)
    .where('prefix', '=', 0)
    .executeTakeFirst();
  return row ? Number(row.cnt) : 0;
}

// ---- rebuilding from history -------------------------------------------------------------------------------

export interface BoardHistory {
  boardId: number;
  gameId: number;
  board: string;
  order: string;
  /** [start, end) of the period, or null for all time */
  window: { start: number; end: number } | null;
}

/**
 * Fills a new board's bests from the stored submissions: per player the best in the period (earliest first on a
 * tie), the number of submissions and the last one. Index scores_board_idx; linear in the board's history. Runs when
 * a board is created: empty for a new period, the whole history when the game's order changed.
 */
export async function fillBestsFromScores(db: Executor, h: BoardHistory): Promise<void> {
  const norm = h.order === 'desc' ? sql<number>`(-s.score)` : sql<number>`s.score`;
  const ranked = db
    .selectFrom('scores as s')
    .select([
      's.player_id',
      's.score',
      's.id',
      's.created_at',
      norm.as('norm'),
      sql<number>`row_number() over (partition by s.player_id order by ${norm}, s.created_at, s.id)`.as('rn'),
      sql<number>`count(*) over (partition by s.player_id)`.as('entries'),
      sql<number>`max(s.created_at) over (partition by s.player_id)`.as('last_played'),
    ])
    .where('s.game_id', '=', h.gameId)
    .where('s.board', '=', h.board)
    .$if(h.window !== null, (qb) =>
      qb.where('s.created_at', '>=', h.window!.start).where('s.created_at', '<', h.window!.end),
    );
  await db
    .insertInto('leaderboard_bests')
    .columns(['leaderboard_id', 'player_id', 'score', 'norm', 'reached_at', 'score_id', 'entries', 'last_played'])
    .expression(
      db
        .selectFrom(ranked.as('t'))
        .select([
          sql<number>`${h.boardId}`.as('leaderboard_id'),
          't.player_id',
          't.score',
          't.norm',
          't.created_at',
          't.id',
          't.entries',
          't.last_played',
        ])
        .where('t.rn', '=', 1),
    )
    .execute();
}
