// Leaderboard pages: rows in ranking order, by offset or from a key (keyset), with their players.
import type { RawBuilder } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { RankKey } from './count-tree.model.js';
import { rootCount } from './count-tree.repository.js';

export interface PageRow {
  score: number;
  entries: number;
  last_played: number;
  norm: number;
  reached_at: number;
  score_id: number;
  player_id: number;
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
  /** 1 for a guest player (shown under its generated name, with no profile to link to) */
  guest: number;
  /** players on the board (the root's count), read in the same statement */
  total: number | string | null;
}

/** The rows of a board with their players and the board's total, in no order yet. */
export function pageQuery(db: Executor, boardId: ValueOrParam<number> | RawBuilder<number>) {
  return db
    .selectFrom('leaderboard_bests as b')
    .innerJoin('players as p', 'p.id', 'b.player_id')
    .select([
      'b.score',
      'b.entries',
      'b.last_played',
      'b.norm',
      'b.reached_at',
      'b.score_id',
      'b.player_id',
      'p.username',
      'p.display_name',
      'p.country',
      'p.avatar_key',
      'p.guest',
    ])
    .select(rootCount(boardId).as('total'))
    .where('b.leaderboard_id', '=', boardId);
}

/** Rows at offset..offset+limit. Rank index scan of offset + limit entries: used only for shallow offsets. */
export async function pageAtOffset(db: Executor, boardId: number, offset: number, limit: number): Promise<PageRow[]> {
  return (await pageAtOffsetQuery.run(db, { boardId, offset, limit })).rows;
}
const pageAtOffsetQuery = statement(
  'pages.atOffset',
  (p: Params<{ boardId: number; offset: number; limit: number }>, db) =>
    pageQuery(db, p.boardId)
      .orderBy('b.norm')
      .orderBy('b.reached_at')
      .orderBy('b.score_id')
      .limit(p.limit)
      .offset(p.offset),
  { sqliteParamsFromOneRow: true },
);

/** A keyset page's arguments: the board, the key it starts from (or ends before), and how many rows. */
type KeysetArgs = { boardId: number; norm: number; reachedAt: number; scoreId: number; limit: number };
const keysetArgs = (boardId: number, key: RankKey, limit: number): KeysetArgs => ({
  boardId,
  norm: key.norm,
  reachedAt: key.reachedAt,
  scoreId: key.scoreId,
  limit,
});

/** `limit` rows from `from` on (inclusive). Keyset: rank index scan of `limit` entries, whatever the depth. */
export async function pageFrom(db: Executor, boardId: number, from: RankKey, limit: number): Promise<PageRow[]> {
  return (await pageFromQuery.run(db, keysetArgs(boardId, from, limit))).rows;
}
const pageFromQuery = statement('pages.from', (p: Params<KeysetArgs>, db) =>
  pageQuery(db, p.boardId)
    .where((eb) =>
      eb(eb.refTuple('b.norm', 'b.reached_at', 'b.score_id'), '>=', eb.tuple(p.norm, p.reachedAt, p.scoreId)),
    )
    .orderBy('b.norm')
    .orderBy('b.reached_at')
    .orderBy('b.score_id')
    .limit(p.limit),
);

/** The `count` rows just before `key`, in ranking order. Keyset backwards: rank index scan of `count` entries. */
export async function pageBefore(db: Executor, boardId: number, key: RankKey, count: number): Promise<PageRow[]> {
  if (count <= 0) return [];
  const rows = (await pageBeforeQuery.run(db, keysetArgs(boardId, key, count))).rows;
  return rows.reverse();
}
const pageBeforeQuery = statement('pages.before', (p: Params<KeysetArgs>, db) =>
  pageQuery(db, p.boardId)
    .where((eb) =>
      eb(eb.refTuple('b.norm', 'b.reached_at', 'b.score_id'), '<', eb.tuple(p.norm, p.reachedAt, p.scoreId)),
    )
    .orderBy('b.norm', 'desc')
    .orderBy('b.reached_at', 'desc')
    .orderBy('b.score_id', 'desc')
    .limit(p.limit),
);
