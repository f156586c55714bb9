// The count tree behind leaderboard ranks: pure key encoding, node identities, ranges and bulk building (no SQL here).
//
// A board's ranking key is (norm, reached_at, score_id), smaller is better: norm is the best score, negated when
// the game's order is desc; reached_at is when that best was reached; score_id breaks ties of the same millisecond.
// A player's rank is 1 + the number of keys smaller than theirs. Counting them over the bests index would cost
// O(rank), so every board keeps a radix tree of counts over the digits of its keys:
//
//   level 0         the root: every player of the board
//   level 1         the score's class: its sign and bit length (order-preserving, so small scores need few levels)
//   levels 2..14    the score's remaining bits, one hex digit per level (a class of b bits has ceil((b-1)/4) digits)
//   levels 101..111 reached_at (ms) one hex digit per level, under one exact score: this is how ties are ranked
//
// A node holds the number of keys below it. It is "expanded" (its children exist and are kept up to date) once it
// holds more than SPLIT_AT keys; a node that is not expanded is counted directly in the bests index, which is
// bounded by SPLIT_AT rows. So the keys ahead of a player are: the siblings before each node on the player's path
// (at most 15 per level, 127 at the class level) plus at most SPLIT_AT index entries. The cost depends on the
// depth of the path, never on the size of the board.
//
// Every node is (level, head, parent, prefix): `head` and `parent` name the parent node, `prefix` the node itself,
// so the siblings of a node are one contiguous range of the last column of the primary key.

export const SPLIT_AT = 64;

const TIME_DIGITS = 11;
const TIME_LEVEL_BASE = 100;
/** reached_at is kept within 44 bits (11 hex digits): up to the year 2527. */
export const MAX_REACHED_AT = 16 ** TIME_DIGITS - 1;
const MAX_SCORE = Number.MAX_SAFE_INTEGER;
const MAX_SCORE_ID = 2 ** 31 - 1;

export interface RankKey {
  /** the best, normalised so that smaller is better */
  norm: number;
  reachedAt: number;
  scoreId: number;
}

export interface NodeId {
  level: number;
  /** the class (score levels 2..14) or the exact normalised score (time levels); 0 for levels 0 and 1 */
  head: number;
  /** the parent's prefix (0 for levels 0 to 2 and the first time level) */
  parent: number;
  /** this node's prefix: the class at level 1, the score's leading digits, or reached_at's leading digits */
  prefix: number;
}

export interface NodeRow extends NodeId {
  cnt: number;
  expanded: boolean;
}

/** Nodes at one level under one parent with prefix in [lo, hi]: one range scan of the primary key. */
export interface NodeRange {
  level: number;
  head: number;
  parent: number;
  lo: number;
  hi: number;
}

/** Keys from lo to hi inclusive, as (norm, reached_at) pairs; score_id is free. */
export interface KeyBounds {
  lo: [number, number];
  hi: [number, number];
}

export const ROOT: NodeId = { level: 0, head: 0, parent: 0, prefix: 0 };

export function compareKeys(a: RankKey, b: RankKey): number {
  return a.norm - b.norm || a.reachedAt - b.reachedAt || a.scoreId - b.scoreId;
}

export function normalise(score: number, order: string): number {
  return order === 'desc' ? -score : score;
}

export function clampReachedAt(ms: number): number {
  return Math.min(Math.max(0, Math.floor(ms)), MAX_REACHED_AT);
}

const bitLength = (n: number) => (n === 0 ? 0 : n.toString(2).length);

/** The score's class (sign and bit length) and the remaining bits (mantissa) in an order-preserving form. */
export interface ScoreParts {
  cls: number;
  mant: number;
  digits: number;
}

export function scoreParts(norm: number): ScoreParts {
  if (norm >= 0) {
    const b = bitLength(norm);
    const mant = b === 0 ? 0 : norm - 2 ** (b - 1);
    return { cls: 64 + b, mant, digits: classDigits(64 + b) };
  }
  const a = -norm;
  const b = bitLength(a);
  // A larger magnitude is a smaller number: reverse the mantissa so that digit order is number order.
  return { cls: 64 - b, mant: 2 ** b - 1 - a, digits: classDigits(64 - b) };
}

function mantissaBits(cls: number): number {
  const b = cls >= 64 ? cls - 64 : 64 - cls;
  return Math.max(0, b - 1);
}

export function classDigits(cls: number): number {
  return Math.ceil(mantissaBits(cls) / 4);
}

/** The inverse of scoreParts. */
export function scoreFrom(cls: number, mant: number): number {
  if (cls === 64) return 0;
  if (cls > 64) return 2 ** (cls - 65) + mant;
  const b = 64 - cls;
  return -(2 ** b - 1 - mant);
}

const isTimeLevel = (level: number) => level > TIME_LEVEL_BASE;
/** reached_at's levels below its first: they exist only under a score more than SPLIT_AT players share. */
export const isDeepTimeLevel = (level: number) => level > TIME_LEVEL_BASE + 1;

/** The node at depth `depth` (0 = root) on the path of a key. */
function nodeAt(parts: ScoreParts, norm: number, reachedAt: number, depth: number): NodeId {
  const { cls, mant, digits } = parts;
  if (depth === 0) return ROOT;
  if (depth === 1) return { level: 1, head: 0, parent: 0, prefix: cls };
  const j = depth - 1;
  if (j <= digits) {
    const prefix = Math.floor(mant / 16 ** (digits - j));
    const parent = j === 1 ? 0 : Math.floor(mant / 16 ** (digits - j + 1));
    return { level: depth, head: cls, parent, prefix };
  }
  const t = j - digits;
  const prefix = Math.floor(reachedAt / 16 ** (TIME_DIGITS - t));
  const parent = t === 1 ? 0 : Math.floor(reachedAt / 16 ** (TIME_DIGITS - t + 1));
  return { level: TIME_LEVEL_BASE + t, head: norm, parent, prefix };
}

function pathLength(parts: ScoreParts): number {
  return 2 + parts.digits + TIME_DIGITS;
}

/** Root to time leaf: every node that counts this key. */
export function pathOf(key: { norm: number; reachedAt: number }): NodeId[] {
  const parts = scoreParts(key.norm);
  const path: NodeId[] = [];
  for (let depth = 0; depth < pathLength(parts); depth++) path.push(nodeAt(parts, key.norm, key.reachedAt, depth));
  return path;
}

/** All children of a node as one range, or null for a time leaf (exact millisecond), which is never split. */
export function childrenRange(node: NodeId): NodeRange | null {
  const { level, prefix } = node;
  if (level === 0) return { level: 1, head: 0, parent: 0, lo: 0, hi: 127 };
  if (!isTimeLevel(level)) {
    // A class node (level 1) has no mantissa digits yet: its own prefix among the score digits is 0.
    const cls = level === 1 ? prefix : node.head;
    const own = level === 1 ? 0 : prefix;
    if (level - 1 < classDigits(cls))
      return { level: level + 1, head: cls, parent: own, lo: own * 16, hi: own * 16 + 15 };
    return { level: TIME_LEVEL_BASE + 1, head: scoreFrom(cls, own), parent: 0, lo: 0, hi: 15 };
  }
  const t = level - TIME_LEVEL_BASE;
  if (t >= TIME_DIGITS) return null;
  return { level: level + 1, head: node.head, parent: prefix, lo: prefix * 16, hi: prefix * 16 + 15 };
}

/** The range of path[i]'s siblings that come before it, and path[i] itself (i ≥ 1). */
export function leadingSiblings(path: NodeId[], i: number): NodeRange {
  const range = childrenRange(path[i - 1]!)!;
  return { ...range, hi: path[i]!.prefix };
}

/** The keys a node counts, as inclusive (norm, reached_at) bounds. */
export function nodeBounds(node: NodeId): KeyBounds {
  const { level, prefix } = node;
  if (level === 0) return { lo: [-MAX_SCORE, 0], hi: [MAX_SCORE, MAX_REACHED_AT] };
  if (isTimeLevel(level)) {
    const width = 16 ** (TIME_DIGITS - (level - TIME_LEVEL_BASE));
    return { lo: [node.head, prefix * width], hi: [node.head, (prefix + 1) * width - 1] };
  }
  const cls = level === 1 ? prefix : node.head;
  const digits = classDigits(cls);
  const width = 16 ** (digits - (level - 1));
  const maxMant = 2 ** mantissaBits(cls) - 1;
  const own = level === 1 ? 0 : prefix;
  const lo = scoreFrom(cls, own * width);
  const hi = scoreFrom(cls, Math.min(maxMant, (own + 1) * width - 1));
  return { lo: [lo, 0], hi: [hi, MAX_REACHED_AT] };
}

export const lowestKeyOf = (node: NodeId): RankKey => {
  const { lo } = nodeBounds(node);
  return { norm: lo[0], reachedAt: lo[1], scoreId: 0 };
};

export const highestKeyOf = (node: NodeId): RankKey => {
  const { hi } = nodeBounds(node);
  return { norm: hi[0], reachedAt: hi[1], scoreId: MAX_SCORE_ID };
};

export function nodeName(node: NodeId): string {
  return `${node.level}/${node.head}/${node.parent}/${node.prefix}`;
}

/** The global order in which writers lock nodes (so two writers never wait on each other in a cycle). */
export function compareNodes(a: NodeId, b: NodeId): number {
  return a.level - b.level || a.head - b.head || a.parent - b.parent || a.prefix - b.prefix;
}

export const sameNode = (a: NodeId, b: NodeId) => compareNodes(a, b) === 0;

/**
 * The walk that rankAndTotal (leaderboard.repository.ts) does in SQL, written out in TypeScript for the unit tests.
 * What the rows read along a key's path say: the keys ahead of it counted by the tree, and the node where the
 * tree stops (not expanded), whose keys ahead must be counted in the bests index. `stop` is null when the key's own
 * node is missing (the key is not on the board): then nothing more is ahead.
 */
export function countAhead(path: NodeId[], rows: NodeRow[]): { ahead: number; stop: NodeId | null } {
  const byLevel = new Map<number, NodeRow[]>();
  for (const row of rows) byLevel.set(row.level, [...(byLevel.get(row.level) ?? []), row]);
  let ahead = 0;
  for (let i = 1; i < path.length; i++) {
    const own = path[i]!;
    let mine: NodeRow | undefined;
    for (const row of byLevel.get(own.level) ?? []) {
      if (row.head !== own.head || row.parent !== own.parent) continue;
      if (row.prefix < own.prefix) ahead += row.cnt;
      else if (row.prefix === own.prefix) mine = row;
    }
    if (!mine) return { ahead, stop: null };
    if (!mine.expanded) return { ahead, stop: own };
  }
  return { ahead, stop: path[path.length - 1]! };
}

/** The nodes at depth + 1 present among sorted keys[from..to), in order, each with the slice of keys it counts. */
function groupChildren(
  depth: number,
  keys: Array<{ norm: number; reachedAt: number }>,
  parts: ScoreParts[],
  from: number,
  to: number,
) {
  const groups: Array<{ id: NodeId; from: number; to: number }> = [];
  for (let i = from; i < to; i++) {
    const key = keys[i]!;
    const id = nodeAt(parts[i]!, key.norm, key.reachedAt, depth + 1);
    const last = groups[groups.length - 1];
    if (last && sameNode(last.id, id)) last.to = i + 1;
    else groups.push({ id, from: i, to: i + 1 });
  }
  return groups;
}

/**
 * The rows below `node` for sorted keys that it counts: its children, and recursively the children of every child
 * holding more than SPLIT_AT keys. Used to split a node, and (from the root) to build a whole board at once.
 */
export function buildBelow(node: NodeId, keys: Array<{ norm: number; reachedAt: number }>): NodeRow[] {
  const parts = keys.map((k) => scoreParts(k.norm));
  const depth = keys.length ? pathOf(keys[0]!).findIndex((n) => sameNode(n, node)) : 0;
  const rows: NodeRow[] = [];
  const walk = (id: NodeId, d: number, from: number, to: number) => {
    if (!childrenRange(id)) return;
    for (const group of groupChildren(d, keys, parts, from, to)) {
      const count = group.to - group.from;
      const expanded = count > SPLIT_AT && childrenRange(group.id) !== null;
      rows.push({ ...group.id, cnt: count, expanded });
      if (expanded) walk(group.id, d + 1, group.from, group.to);
    }
  };
  if (keys.length) {
    if (depth < 0) throw new Error(`keys outside node ${nodeName(node)}`);
    walk(node, depth, 0, keys.length);
  }
  return rows;
}

/** A whole board's tree for sorted keys: the root (always expanded) and everything below it. */
export function buildTree(keys: Array<{ norm: number; reachedAt: number }>): NodeRow[] {
  return [{ ...ROOT, cnt: keys.length, expanded: true }, ...buildBelow(ROOT, keys)];
}

/** A key as the (norm, reached_at, score_id) row value the rank index orders by. */
export const keyTuple = (k: RankKey) => [k.norm, k.reachedAt, k.scoreId] as const;
