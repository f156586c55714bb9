// Leaderboard pages: rows in ranking order, by offset or from a key (keyset), with their players.
import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Executor } from '../../db/connect.js';
import { prepared } from '../../db/prepared.js';
import type { RankKey } from './count-tree.model.js';
import { keyTuple } from './count-tree.model.js';
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

/** `mark`: end with PREPARED (not when db/prepared.ts adds the mark itself). */
export function pageQuery(db: Executor, boardId: number | RawBuilder<number>, mark = true) {
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
      'b.player_id',
      'p.username',
      'p.display_name',
      'p.country',
      'p.avatar_key',
      'p.guest',
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
