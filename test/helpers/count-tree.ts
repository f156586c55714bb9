// Checks a board's count tree against its bests: the invariant every rank relies on.
import { expect } from 'vitest';
import { childrenRange, compareKeys, nodeBounds, type NodeRow } from '../../src/modules/scores/count-tree.model.js';
import type { Harness } from './harness.js';

/** Every expanded node's children add up to it; every other node counts exactly the bests within its bounds. Returns the split nodes. */
export async function checkTree(h: Harness, boardId: number): Promise<number> {
  const raw = await h.ctx.db
    .selectFrom('leaderboard_nodes')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .execute();
  const nodes: NodeRow[] = raw.map((r) => ({
    level: Number(r.level),
    head: Number(r.head),
    parent: Number(r.parent),
    prefix: Number(r.prefix),
    cnt: Number(r.cnt),
    expanded: Number(r.expanded) === 1,
  }));
  const bests = (
    await h.ctx.db.selectFrom('leaderboard_bests').selectAll().where('leaderboard_id', '=', boardId).execute()
  ).map((b) => ({
    norm: Number(b.norm),
    reachedAt: Number(b.reached_at),
    scoreId: Number(b.score_id),
  }));
  expect(nodes.find((n) => n.level === 0)?.cnt ?? 0).toBe(bests.length);
  let split = 0;
  for (const node of nodes) {
    const range = childrenRange(node);
    const children = nodes.filter(
      (c) =>
        range &&
        c.level === range.level &&
        c.head === range.head &&
        c.parent === range.parent &&
        c.prefix >= range.lo &&
        c.prefix <= range.hi,
    );
    if (node.expanded) {
      split++;
      expect(children.reduce((n, c) => n + c.cnt, 0)).toBe(node.cnt);
    } else {
      const { lo, hi } = nodeBounds(node);
      const inside = bests.filter(
        (k) =>
          compareKeys(k, { norm: lo[0], reachedAt: lo[1], scoreId: 0 }) >= 0 &&
          compareKeys(k, { norm: hi[0], reachedAt: hi[1], scoreId: 2 ** 31 }) <= 0,
      );
      expect(inside.length).toBe(node.cnt);
    }
  }
  return split;
}
