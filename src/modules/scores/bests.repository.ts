// Queries on leaderboard_bests: each player's best per board, its rank key, and the bests rebuilt from history.
import { compilable, int, jsonRows } from '../../db/sql-fragments.js';
import { keyTuple } from './count-tree.model.js';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import { type Param, type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { LeaderboardBestsTable } from '../../db/schema.js';
import type { RankKey } from './count-tree.model.js';
import { type PathLevel, levelsJson, rankAndTotal, rankOfRow, rankSql } from './count-tree.repository.js';

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
  return (await lockBestsQuery.run(db, { boards: boardsJson(boardIds), playerId })).rows;
}

/** Board ids as lockBests' JSON parameter. */
export const boardsJson = (boardIds: number[]) => JSON.stringify(boardIds.map((id) => [id]));
const lockBestsQuery = statement(
  'bests.lock',
  (p: Params<{ boards: string; playerId: number }>, db) => compilable(db, lockBestsSql(db, p.boards, p.playerId)),
  { sqliteParamsFromOneRow: true },
);

/** lockBests' statement: `boards` is the JSON text of the board ids, each in an array of one. */
export function lockBestsSql(
  db: Executor,
  boards: ValueOrParam<string>,
  playerId: ValueOrParam<number>,
): RawBuilder<BestRow> {
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
  await updateBestsQuery.run(db, updateBestsArgs(counted, improved, playerId, now, best));
}
const idsJson = (list: number[]) => JSON.stringify(list.map((id) => [id]));

/** countEntryAndSetBest's arguments: the boards as JSON, the player, the time and the new best. */
interface UpdateBestsArgs {
  counted: string;
  improved: string;
  playerId: number;
  now: number;
  score: number;
  norm: number;
  reachedAt: number;
  scoreId: number;
}
const updateBestsArgs = (
  counted: number[],
  improved: number[],
  playerId: number,
  now: number,
  best: Pick<BestRow, 'score' | 'norm' | 'reached_at' | 'score_id'>,
): UpdateBestsArgs => ({
  counted: idsJson(counted),
  improved: idsJson(improved),
  playerId,
  now,
  score: best.score,
  norm: best.norm,
  reachedAt: best.reached_at,
  scoreId: best.score_id,
});
const updateBestsQuery = statement('bests.update', (p: Params<UpdateBestsArgs>, db) =>
  compilable(db, updateBestsSql(db, p)),
);

function updateBestsSql(db: Executor, p: Params<UpdateBestsArgs>) {
  const { counted, improved, playerId, now, score, norm, reachedAt, scoreId } = p;
  const isImproved = sql`leaderboard_id in (select q.id from (${jsonRows(db, improved, ['id'])}) q)`;
  const ifImproved = (value: Param<number>, column: string) =>
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
  const row = (
    await updateBestsAndRankQuery.run(db, {
      ...updateBestsArgs(counted, improved, playerId, now, best),
      boardId: rank.boardId,
      levels: levelsJson(rank.levels),
      keyNorm: rank.key.norm,
      keyReachedAt: rank.key.reachedAt,
      keyScoreId: rank.key.scoreId,
    })
  ).rows[0]!;
  return rankOfRow(row);
}
type UpdateAndRankArgs = UpdateBestsArgs & {
  boardId: number;
  levels: string;
  keyNorm: number;
  keyReachedAt: number;
  keyScoreId: number;
};
const updateBestsAndRankQuery = statement('bests.updateAndRank', (p: Params<UpdateAndRankArgs>, db) => {
  const key = { norm: p.keyNorm, reachedAt: p.keyReachedAt, scoreId: p.keyScoreId };
  const rank = { boardId: p.boardId, levels: p.levels, ...key };
  return compilable(db, rankSql(db, rank, updateBestsSql(db, p)));
});

/** Primary key lookup. */
export function findBest(db: Executor, boardId: number, playerId: number): Promise<BestRow | undefined> {
  return db
    .selectFrom('leaderboard_bests')
    .select(BEST_COLUMNS)
    .where('leaderboard_id', '=', boardId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
}

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

export interface BoardHistory {
  boardId: number;
  gameId: number;
  board: string;
  order: string;
  /** [start, end) of the period, or null for all time */
  window: { start: number; end: number } | null;
  /** the start of the board's live season (docs/api.md, "Board seasons"): earlier submissions count on none of its boards */
  since?: number | null;
}

/**
 * Fills a new board's bests from the stored submissions: per player the best in the period (earliest first on a
 * tie), the number of submissions and the last one. Index scores_board_idx; linear in the board's history. Runs when
 * a board is created (empty for a new period, the whole history when the game's order changed) or rebuilt. Players
 * waiting for their account's deletion are left out (docs/api.md, "Accounts and authentication"); with `playerId`, only
 * that player's best is filled (their return to the boards). Returns the rank keys inserted.
 */
export async function fillBestsFromScores(
  db: Executor,
  h: BoardHistory,
  playerId?: number,
): Promise<Array<Pick<BestRow, 'norm' | 'reached_at' | 'score_id'>>> {
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
    )
    .$if(h.since != null, (qb) => qb.where('s.created_at', '>=', h.since!))
    .$if(playerId !== undefined, (qb) => qb.where('s.player_id', '=', playerId!))
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('players as p')
            .select('p.id')
            .whereRef('p.id', '=', 's.player_id')
            .where('p.deletion_due_at', 'is not', null),
        ),
      ),
    );
  return db
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
    .returning(['norm', 'reached_at', 'score_id'])
    .execute();
}

/** The games and boards (by name) where the player has a best, in lock order (game, then board). */
export async function gameBoardsOfPlayer(
  db: Executor,
  playerId: number,
): Promise<Array<{ game_id: number; board: string }>> {
  return db
    .selectFrom('leaderboard_bests as b')
    .innerJoin('leaderboards as l', 'l.id', 'b.leaderboard_id')
    .select(['l.game_id', 'l.board'])
    .distinct()
    .where('b.player_id', '=', playerId)
    .orderBy('l.game_id')
    .orderBy('l.board')
    .execute();
}

/** The boards where the player has a best, in board order (the lock order). */
export async function boardsOfPlayer(db: Executor, playerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('leaderboard_bests')
    .select('leaderboard_id')
    .where('player_id', '=', playerId)
    .orderBy('leaderboard_id')
    .execute();
  return rows.map((r) => r.leaderboard_id);
}

/** Gives one player's bests on these boards to another who has none there: the rank keys stay as they are. */
export async function giveBests(db: Executor, fromId: number, toId: number, boardIds: number[]): Promise<void> {
  if (!boardIds.length) return;
  await db
    .updateTable('leaderboard_bests')
    .set({ player_id: toId })
    .where('player_id', '=', fromId)
    .where('leaderboard_id', 'in', boardIds)
    .execute();
}

/** Sets a player's best row on a board (the better of two merged bests, their entries added up). Primary key update. */
export async function setBest(db: Executor, row: BestRow): Promise<void> {
  const { leaderboard_id, player_id, ...fields } = row;
  await db
    .updateTable('leaderboard_bests')
    .set(fields)
    .where('leaderboard_id', '=', leaderboard_id)
    .where('player_id', '=', player_id)
    .execute();
}

/** Deletes a player's best rows on these boards (those merged into another player's). */
export async function deleteBests(db: Executor, playerId: number, boardIds: number[]): Promise<void> {
  if (!boardIds.length) return;
  await db
    .deleteFrom('leaderboard_bests')
    .where('player_id', '=', playerId)
    .where('leaderboard_id', 'in', boardIds)
    .execute();
}
