// Ranks from the count tree, and keeping the tree exact as bests change (in the submitting transaction).
import type { Executor } from '../../db/connect.js';
import { countEntrySetBestAndRank, keyAtOffsetFrom, keysBetween } from './bests.repository.js';
import {
  addToNodes,
  deleteTree,
  insertNodes,
  markExpanded,
  nodesInRanges,
  rankAndTotal,
  type BoardNodeRow,
  type PathLevel,
} from './count-tree.repository.js';
import {
  ROOT,
  SPLIT_AT,
  buildBelow,
  buildTree,
  childrenRange,
  compareNodes,
  highestKeyOf,
  isDeepTimeLevel,
  leadingSiblings,
  lowestKeyOf,
  nodeName,
  pathOf,
  type NodeId,
  type RankKey,
} from './count-tree.model.js';

/** The path of a key as rankAndTotal reads it. */
function pathLevels(key: RankKey): PathLevel[] {
  const path = pathOf(key);
  return path.slice(1).map((node, i) => ({ ...leadingSiblings(path, i + 1), from: lowestKeyOf(node) }));
}

/**
 * The 1-based rank of a key that is on the board, and the board's total: one statement whatever the board's size
 * (see rankAndTotal for the indexes and the cost).
 */
export function rankWithTotal(db: Executor, boardId: number, key: RankKey): Promise<{ rank: number; total: number }> {
  return rankAndTotal(db, boardId, pathLevels(key), key);
}

/**
 * A score submission's update of the player's bests rows (countEntryAndSetBest) and the rank of their best `key` on
 * `boardId` afterwards: one statement on PostgreSQL (countEntrySetBestAndRank).
 */
export function setBestsAndRank(
  db: Executor,
  entry: Parameters<typeof countEntrySetBestAndRank>[1],
  boardId: number,
  key: RankKey,
) {
  return countEntrySetBestAndRank(db, entry, { boardId, levels: pathLevels(key), key });
}

export async function rankOf(db: Executor, boardId: number, key: RankKey): Promise<number> {
  return (await rankWithTotal(db, boardId, key)).rank;
}

/**
 * The key at 0-based position `index`, walking down the tree: one statement per level (≤ 16 sibling rows, 128 at
 * the class level; about 6 levels for a million players), then an offset of < SPLIT_AT inside the last node.
 * Used for deep pages instead of an O(offset) OFFSET.
 */
export async function keyAtIndex(db: Executor, boardId: number, index: number): Promise<RankKey | undefined> {
  let node: NodeId = ROOT;
  let remaining = index;
  for (;;) {
    const range = childrenRange(node)!;
    const children = (await nodesInRanges(db, [{ boardId, ...range }])).sort((a, b) => a.prefix - b.prefix);
    let child: BoardNodeRow | undefined;
    for (const c of children) {
      if (remaining < c.cnt) {
        child = c;
        break;
      }
      remaining -= c.cnt;
    }
    if (!child) return undefined;
    if (!child.expanded) return keyAtOffsetFrom(db, boardId, lowestKeyOf(child), remaining);
    node = child;
  }
}

export interface KeyChange {
  boardId: number;
  /** the player's previous best key on the board, if any */
  from?: RankKey;
  to: RankKey;
}

interface PathCursor {
  boardId: number;
  path: NodeId[];
  delta: 1 | -1;
  /** depth where the next batch starts (nodes above are done) */
  depth: number;
}

const boardNode = (boardId: number, node: NodeId) => `${boardId}:${nodeName(node)}`;

/**
 * The nodes the cursors still have to update: each path from its cursor down to its stop, the first node that is
 * missing or not known to be expanded. (A node read as expanded stays expanded: splits are never undone.) Deltas on
 * one node are summed; a node whose sum is 0 is skipped (its count does not change and nothing reads it for this
 * change) unless it is a stop, which is locked so that a concurrent split of it waits for us or is seen by us.
 */
function plan(cursors: PathCursor[], known: Map<string, BoardNodeRow>) {
  const deltas = new Map<string, NodeId & { boardId: number; delta: number }>();
  const stops = new Map<PathCursor, number>();
  const lockOnly = new Set<string>();
  for (const cursor of cursors) {
    for (let d = cursor.depth; d < cursor.path.length; d++) {
      const node = cursor.path[d]!;
      const name = boardNode(cursor.boardId, node);
      const entry = deltas.get(name) ?? { boardId: cursor.boardId, ...node, delta: 0 };
      entry.delta += cursor.delta;
      deltas.set(name, entry);
      if (!known.get(name)?.expanded) {
        stops.set(cursor, d);
        lockOnly.add(name);
        break;
      }
    }
  }
  const writes = [...deltas.entries()].filter(([name, d]) => d.delta !== 0 || lockOnly.has(name)).map(([, d]) => d);
  return { writes, stops };
}

/**
 * Unlocked read of the nodes the cursors have left: one statement, each node once. reached_at's levels below its
 * first (10 of a path's levels) exist only under a score more than SPLIT_AT players share: they are read in
 * a second statement, for the paths whose first reached_at node is split.
 */
async function readPaths(db: Executor, cursors: PathCursor[], known: Map<string, BoardNodeRow>): Promise<void> {
  const deep = cursors.map((c) => {
    const at = c.path.findIndex((n, d) => d >= c.depth && isDeepTimeLevel(n.level));
    return at < 0 ? c.path.length : at;
  });
  await readNodes(
    db,
    cursors.flatMap((c, i) => c.path.slice(c.depth, deep[i]).map((n) => ({ boardId: c.boardId, ...n }))),
    known,
  );
  const below = cursors.flatMap((c, i) => {
    const at = deep[i]!;
    const reached = at === c.depth || known.get(boardNode(c.boardId, c.path[at - 1]!))?.expanded;
    return at < c.path.length && reached ? c.path.slice(at).map((n) => ({ boardId: c.boardId, ...n })) : [];
  });
  if (below.length) await readNodes(db, below, known);
}

/** These nodes as they are (the missing ones are not returned), each read once. */
async function readNodes(
  db: Executor,
  nodes: Array<NodeId & { boardId: number }>,
  known: Map<string, BoardNodeRow>,
): Promise<void> {
  const ranges = new Map(
    nodes.map((n) => [
      boardNode(n.boardId, n),
      { boardId: n.boardId, level: n.level, head: n.head, parent: n.parent, lo: n.prefix, hi: n.prefix },
    ]),
  );
  for (const row of await nodesInRanges(db, [...ranges.values()])) known.set(boardNode(row.boardId, row), row);
}

/** Adds the deltas (addToNodes), learns the nodes as they are now, and splits those that grew past SPLIT_AT. */
async function addAndSplit(
  db: Executor,
  batch: Parameters<typeof addToNodes>[1],
  known: Map<string, BoardNodeRow>,
): Promise<void> {
  const rows = await addToNodes(db, batch);
  for (const row of rows) known.set(boardNode(row.boardId, row), row);
  for (const row of rows) if (!row.expanded && row.cnt > SPLIT_AT && childrenRange(row)) await split(db, row);
}

/** Whether a cursor's stop, read as not split, was found split when locked (a concurrent writer), with more path below. */
function splitAtStop(cursor: PathCursor, stop: number, known: Map<string, BoardNodeRow>): boolean {
  return stop + 1 < cursor.path.length && Boolean(known.get(boardNode(cursor.boardId, cursor.path[stop]!))?.expanded);
}

/** Splits a node that has just grown past SPLIT_AT: its children are counted from its ≤ SPLIT_AT + 1 keys. */
async function split(db: Executor, node: BoardNodeRow): Promise<void> {
  const keys = await keysBetween(db, node.boardId, lowestKeyOf(node), highestKeyOf(node));
  await insertNodes(db, node.boardId, buildBelow(node, keys));
  await markExpanded(db, node.boardId, node);
}

/**
 * Moves keys in one board's tree. Nodes are locked in one global order — board, then level, head, parent, prefix —
 * so concurrent writers never deadlock: each statement locks only nodes at or above the shallowest stop, all of them
 * after every node locked before. When a stop turns out to have been split by a concurrent writer while we waited
 * for it, the walk goes on below it in the next statement.
 */
async function moveKeysOnBoard(db: Executor, cursors: PathCursor[], known: Map<string, BoardNodeRow>): Promise<void> {
  while (cursors.length) {
    const { writes, stops } = plan(cursors, known);
    const level = Math.min(...cursors.map((c) => c.path[stops.get(c)!]!.level));
    const batch = writes.filter((w) => w.level <= level).sort(compareNodes);
    await addAndSplit(db, batch, known);

    const next: PathCursor[] = [];
    let splitUnderUs = false;
    for (const cursor of cursors) {
      const stop = stops.get(cursor)!;
      if (cursor.path[stop]!.level > level) {
        next.push({ ...cursor, depth: cursor.path.findIndex((n) => n.level > level) });
      } else if (splitAtStop(cursor, stop, known)) {
        next.push({ ...cursor, depth: stop + 1 });
        splitUnderUs = true;
      }
    }
    if (splitUnderUs) await readPaths(db, next, known);
    cursors = next;
  }
}

/**
 * Moves players' keys in the count trees, inside the transaction that changed their bests rows (which it must have
 * locked first): one unlocked read of every path, then ONE upsert of every node to change on every board, in the
 * global lock order (board, level, head, parent, prefix). A board's upper nodes are rows every writer of that board
 * locks: in one statement, a submission holds them for that statement and the commit, not for one statement per
 * board after them.
 *
 * If a node read as not split turns out split when locked (a concurrent writer split it meanwhile), its keys would go
 * on below it, locking nodes after others it holds already: TreeChanged is thrown, and the caller runs its
 * transaction again with `oneStatement` false, which moves the boards one at a time (moveKeysOnBoard: it goes on
 * below such a node in the lock order, and never throws). On SQLite (one writer at a time) nothing changes between
 * the read and the upsert.
 */
export async function applyKeyChanges(db: Executor, changes: KeyChange[], oneStatement = true): Promise<void> {
  const cursors: PathCursor[] = changes.flatMap((c): PathCursor[] => [
    ...(c.from ? [{ boardId: c.boardId, path: pathOf(c.from), delta: -1 as const, depth: 0 }] : []),
    { boardId: c.boardId, path: pathOf(c.to), delta: 1 as const, depth: 0 },
  ]);
  const known = new Map<string, BoardNodeRow>();
  await readPaths(db, cursors, known);
  if (!oneStatement) return moveBoardByBoard(db, cursors, known);
  const { writes, stops } = plan(cursors, known);
  await addAndSplit(
    db,
    writes.sort((a, b) => a.boardId - b.boardId || compareNodes(a, b)),
    known,
  );
  if (cursors.some((cursor) => splitAtStop(cursor, stops.get(cursor)!, known))) throw new TreeChanged();
}

/** applyKeyChanges found a node split under it: run the transaction again with `oneStatement` false. */
export class TreeChanged extends Error {
  constructor() {
    super('a count tree node was split while the submission waited for it');
  }
}

/**
 * Takes keys off the count trees (the bests of a purged player), inside the transaction that deletes those bests
 * rows after locking them: the same lock order as applyKeyChanges, so it never deadlocks with a submission. Board
 * by board: a purge is rare, and this way never has to be run again.
 */
export async function removeKeys(db: Executor, removals: Array<{ boardId: number; key: RankKey }>): Promise<void> {
  const cursors: PathCursor[] = removals.map((r) => ({
    boardId: r.boardId,
    path: pathOf(r.key),
    delta: -1 as const,
    depth: 0,
  }));
  const known = new Map<string, BoardNodeRow>();
  await readPaths(db, cursors, known);
  await moveBoardByBoard(db, cursors, known);
}

/** Moves the keys board after board, in board order (moveKeysOnBoard). */
async function moveBoardByBoard(db: Executor, cursors: PathCursor[], known: Map<string, BoardNodeRow>): Promise<void> {
  const boards = [...new Set(cursors.map((c) => c.boardId))].sort((a, b) => a - b);
  for (const boardId of boards)
    await moveKeysOnBoard(
      db,
      cursors.filter((c) => c.boardId === boardId),
      known,
    );
}

/** Rebuilds a board's tree from its bests (a new board filled from history). Reads the board's keys once. */
export async function rebuildTree(db: Executor, boardId: number): Promise<void> {
  await deleteTree(db, boardId);
  const keys = await keysBetween(db, boardId, lowestKeyOf(ROOT), highestKeyOf(ROOT));
  await insertNodes(db, boardId, buildTree(keys));
}
