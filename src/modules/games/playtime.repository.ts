// A game's credited playtime (stats.playtime_hours, the developer's stats): the game's own column, which holds time
// credited before the shards existed, plus its rows in game_playtime. Heartbeats and ends add to one of
// PLAYTIME_SHARDS rows chosen by the session, so the heartbeats of a popular game do not queue for one row lock until
// each commits (PostgreSQL; on SQLite writers take turns anyway).
import { sql, type AliasedRawBuilder } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { type Params, statement } from '../../db/statement.js';

export const PLAYTIME_SHARDS = 16;

/** The shard a session's credits go to. */
export const playtimeShard = (sessionId: number) => sessionId % PLAYTIME_SHARDS;

/**
 * The game's playtime in seconds as a selection named playtime_seconds, for a query over `games` (or `games as g`):
 * the column plus the game's shards (primary key game_playtime_pk, at most PLAYTIME_SHARDS rows).
 */
export function playtimeSeconds(table: 'games' | 'g'): AliasedRawBuilder<number, 'playtime_seconds'> {
  return sql<number>`cast(${sql.ref(`${table}.playtime_seconds`)} + coalesce((select sum(gp.seconds) from game_playtime gp where gp.game_id = ${sql.ref(`${table}.id`)}), 0) as bigint)`.as(
    'playtime_seconds',
  );
}

/** Adds credited seconds to the game's shard: an upsert of one of its PLAYTIME_SHARDS rows. */
export async function addPlaytime(db: Executor, gameId: number, shard: number, seconds: number): Promise<void> {
  await addToShard.run(db, { gameId, shard, seconds });
}
const addToShard = statement(
  'playtime.addToShard',
  (p: Params<{ gameId: number; shard: number; seconds: number }>, db) =>
    db
      .insertInto('game_playtime')
      .values({ game_id: p.gameId, shard: p.shard, seconds: p.seconds })
      .onConflict((oc) =>
        oc
          .columns(['game_id', 'shard'])
          .doUpdateSet({ seconds: sql<number>`game_playtime.seconds + excluded.seconds` }),
      ),
);

/** The game's playtime in seconds (0 for no such game). */
export async function gamePlaytime(db: Executor, gameId: number): Promise<number> {
  const row = await db.selectFrom('games').select(playtimeSeconds('games')).where('id', '=', gameId).executeTakeFirst();
  return Number(row?.playtime_seconds ?? 0);
}
