import { describe, expect, it } from 'vitest';
import {
  SPLIT_AT,
  buildTree,
  childrenRange,
  compareKeys,
  countAhead,
  leadingSiblings,
  nodeBounds,
  pathOf,
  scoreFrom,
  scoreParts,
  type NodeRow,
  type RankKey,
} from './count-tree.model.js';

const MAX = Number.MAX_SAFE_INTEGER;
const samples = [
  -MAX,
  -(2 ** 52),
  -1_000_001,
  -65536,
  -65535,
  -17,
  -16,
  -2,
  -1,
  0,
  1,
  2,
  3,
  15,
  16,
  17,
  255,
  256,
  1_000_000,
  2 ** 40 + 7,
  2 ** 52,
  MAX,
];

/** A deterministic generator, so a failing case can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The rank of `key` by the tree rows alone plus a direct count inside the stop node, as the service does it. */
function rankByTree(rows: NodeRow[], sorted: RankKey[], key: RankKey): number {
  const path = pathOf(key);
  const wanted = new Set(path.slice(1).map((_, i) => i + 1));
  const inRanges = rows.filter((row) =>
    [...wanted].some((i) => {
      const r = leadingSiblings(path, i);
      return (
        row.level === r.level &&
        row.head === r.head &&
        row.parent === r.parent &&
        row.prefix >= r.lo &&
        row.prefix <= r.hi
      );
    }),
  );
  const { ahead, stop } = countAhead(path, inRanges);
  if (!stop) return 1 + ahead;
  const { lo } = nodeBounds(stop);
  const direct = sorted.filter(
    (k) => compareKeys(k, { norm: lo[0], reachedAt: lo[1], scoreId: 0 }) >= 0 && compareKeys(k, key) < 0,
  ).length;
  expect(direct).toBeLessThanOrEqual(SPLIT_AT);
  return 1 + ahead + direct;
}

describe('scores: rank key encoding', () => {
  it('round-trips every score through class and mantissa', () => {
    for (const v of samples) {
      const { cls, mant } = scoreParts(v);
      expect(scoreFrom(cls, mant)).toBe(v);
    }
  });

  it('keeps score order in (class, mantissa) order', () => {
    const sorted = [...samples].sort((a, b) => a - b);
    const encoded = sorted.map(scoreParts);
    for (let i = 1; i < encoded.length; i++) {
      const a = encoded[i - 1]!;
      const b = encoded[i]!;
      expect(a.cls < b.cls || (a.cls === b.cls && a.mant < b.mant)).toBe(true);
    }
  });

  it('gives small scores short paths and the largest at most 25 nodes', () => {
    expect(pathOf({ norm: 0, reachedAt: 0 })).toHaveLength(2 + 11);
    expect(pathOf({ norm: 1_000_000, reachedAt: 0 })).toHaveLength(2 + 5 + 11);
    expect(pathOf({ norm: MAX, reachedAt: 0 })).toHaveLength(2 + 13 + 11);
    expect(pathOf({ norm: -MAX, reachedAt: 0 })).toHaveLength(2 + 13 + 11);
  });

  it('puts every key inside the bounds of each node of its path, and each node inside its parent', () => {
    for (const norm of samples) {
      const key = { norm, reachedAt: 1_790_000_000_123 };
      const path = pathOf(key);
      for (let i = 0; i < path.length; i++) {
        const { lo, hi } = nodeBounds(path[i]!);
        expect(lo[0] < norm || (lo[0] === norm && lo[1] <= key.reachedAt)).toBe(true);
        expect(hi[0] > norm || (hi[0] === norm && hi[1] >= key.reachedAt)).toBe(true);
        if (i > 0) {
          const range = childrenRange(path[i - 1]!)!;
          expect(path[i]).toMatchObject({ level: range.level, head: range.head, parent: range.parent });
          expect(path[i]!.prefix).toBeGreaterThanOrEqual(range.lo);
          expect(path[i]!.prefix).toBeLessThanOrEqual(range.hi);
        }
      }
      expect(childrenRange(path[path.length - 1]!)).toBeNull();
    }
  });
});

describe('scores: count tree', () => {
  it('builds a root with every key and splits only nodes over the threshold', () => {
    const keys = Array.from({ length: 500 }, (_, i) => ({ norm: i % 7, reachedAt: 1000 + i, scoreId: i + 1 }));
    keys.sort(compareKeys);
    const rows = buildTree(keys);
    expect(rows[0]).toMatchObject({ level: 0, cnt: 500, expanded: true });
    for (const row of rows) {
      const children = rows.filter((r) => {
        const range = childrenRange(row);
        return (
          range &&
          r.level === range.level &&
          r.head === range.head &&
          r.parent === range.parent &&
          r.prefix >= range.lo &&
          r.prefix <= range.hi
        );
      });
      if (row.expanded) expect(children.reduce((n, c) => n + c.cnt, 0)).toBe(row.cnt);
      else {
        expect(children).toHaveLength(0);
        expect(row.cnt).toBeLessThanOrEqual(SPLIT_AT);
      }
    }
  });

  it('ranks like a sort of all keys, with many ties, both signs and wide scores', () => {
    const next = random(42);
    for (const spread of [3, 50, 5000, 2 ** 45]) {
      const keys: RankKey[] = Array.from({ length: 700 }, (_, i) => ({
        norm: Math.floor((next() - 0.3) * spread),
        reachedAt: 1_790_000_000_000 + Math.floor(next() * 40) * 1000,
        scoreId: i + 1,
      }));
      const sorted = [...keys].sort(compareKeys);
      const rows = buildTree(sorted);
      for (let i = 0; i < sorted.length; i += 7) expect(rankByTree(rows, sorted, sorted[i]!)).toBe(i + 1);
      expect(rankByTree(rows, sorted, sorted[sorted.length - 1]!)).toBe(sorted.length);
    }
  });

  it('stops at the exact millisecond when hundreds tie on score and time', () => {
    const keys: RankKey[] = Array.from({ length: 300 }, (_, i) => ({
      norm: -10,
      reachedAt: 5000 + Math.floor(i / 60),
      scoreId: i + 1,
    }));
    const rows = buildTree(keys);
    for (const i of [0, 59, 60, 150, 299]) expect(rankByTree(rows, keys, keys[i]!)).toBe(i + 1);
  });
});
