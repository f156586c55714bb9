// Queries on leaderboard_nodes: the count tree that gives a rank and a total without counting rows.
import { sql, type RawBuilder } from 'kysely';
import { compilable, int, jsonRows } from '../../db/sql-fragments.js';
import type { Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { NodeId, NodeRange, NodeRow, RankKey } from './count-tree.model.js';

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

const toNode = (r: NodeDbRow): BoardNodeRow => ({
  boardId: Number(r.leaderboard_id),
  level: Number(r.level),
  head: Number(r.head),
  parent: Number(r.parent),
  prefix: Number(r.prefix),
  cnt: Number(r.cnt),
  expanded: Number(r.expanded) === 1,
});

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
  return (await nodesInRangesQuery.run(db, { json })).rows.map(toNode);
}
const nodesInRangesQuery = statement(
  'countTree.nodesInRanges',
  (p: Params<{ json: string }>, db) =>
    compilable(
      db,
      sql<NodeDbRow>`
    with q as (${jsonRows(db, p.json, ['board_id', 'lvl', 'head', 'parent', 'lo', 'hi'])})
    select n.leaderboard_id, n.level, n.head, n.parent, n.prefix, n.cnt, n.expanded
    from q join leaderboard_nodes n
      on n.leaderboard_id = q.board_id and n.level = q.lvl and n.head = q.head and n.parent = q.parent
     and n.prefix >= q.lo and n.prefix <= q.hi`,
    ),
  { sqliteParamsFromOneRow: true },
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
  return rankOfRow((await rankQuery.run(db, { boardId, levels: levelsJson(levels), ...rankKeyArgs(key) })).rows[0]!);
}
export const levelsJson = (levels: PathLevel[]) =>
  JSON.stringify(levels.map((l) => [l.level, l.head, l.parent, l.lo, l.hi, l.from.norm, l.from.reachedAt]));
export const rankOfRow = (row: RankRow) => ({
  rank: 1 + Number(row.ahead ?? 0) + Number(row.inside),
  total: Number(row.total ?? 0),
});
type RankRow = { ahead: number | string | null; inside: number | string; total: number | string | null };
/** rankAndTotal's arguments: the board, its path as levelsJson, and the key ranked. */
export interface RankArgs {
  boardId: number;
  levels: string;
  norm: number;
  reachedAt: number;
  scoreId: number;
}
export const rankKeyArgs = (key: RankKey) => ({ norm: key.norm, reachedAt: key.reachedAt, scoreId: key.scoreId });
const rankQuery = statement('countTree.rank', (p: Params<RankArgs>, db) => compilable(db, rankSql(db, p)), {
  sqliteParamsFromOneRow: true,
});

/** rankAndTotal's statement; `before`: a data-modifying statement to run first, in a CTE (PostgreSQL). */
export function rankSql(db: Executor, p: Params<RankArgs>, before?: RawBuilder<unknown>) {
  const { boardId, levels: json, norm, reachedAt, scoreId } = p;
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
  return (await addToNodesQuery.run(db, { json })).rows.map(toNode);
}
// `where true`: SQLite's parser needs it between an INSERT … SELECT and ON CONFLICT.
const addToNodesQuery = statement('countTree.addToNodes', (p: Params<{ json: string }>, db) =>
  compilable(
    db,
    sql<NodeDbRow>`
    insert into leaderboard_nodes (leaderboard_id, level, head, parent, prefix, cnt, expanded)
    select d.board_id, d.lvl, d.head, d.parent, d.prefix, d.delta, 0
    from (${jsonRows(db, p.json, ['board_id', 'lvl', 'head', 'parent', 'prefix', 'delta'])}) d
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

/** The board's player count: its root node, one primary key lookup. */
export const rootCount = (boardId: ValueOrParam<number> | RawBuilder<number>) =>
  sql<number>`(select r.cnt from leaderboard_nodes r where r.leaderboard_id = ${boardId} and r.level = 0 and r.head = 0 and r.parent = 0 and r.prefix = 0)`;
