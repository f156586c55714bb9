// A game's credited playtime in shards: every crediting heartbeat of a game used to add to one row (games.playtime_seconds),
// whose lock each heartbeat held until its commit, so on PostgreSQL a popular game's heartbeats committed one after
// another. They now add to one of PLAYTIME_SHARDS rows chosen by the session; a reader sums the game's column (time
// credited before this migration, and by tests and tools that set it) and its shards (games/playtime.repository.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('game_playtime')
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('game_playtime_pk', ['game_id', 'shard'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // the shards' time goes back into the games' column, where it was counted before
  await db
    .updateTable('games')
    .set((eb) => ({
      playtime_seconds: eb(
        'playtime_seconds',
        '+',
        eb.fn.coalesce(
          eb
            .selectFrom('game_playtime')
            .select((s) => s.fn.sum<number>('seconds').as('s'))
            .whereRef('game_playtime.game_id', '=', 'games.id'),
          eb.lit(0),
        ),
      ),
    }))
    .execute();
  await db.schema.dropTable('game_playtime').execute();
}
