// game.json `leaderboard.min` / `leaderboard.max`: the scores a game can give; a submission outside is refused.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').addColumn('leaderboard_min', 'bigint').execute();
  await db.schema.alterTable('games').addColumn('leaderboard_max', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('leaderboard_max').execute();
  await db.schema.alterTable('games').dropColumn('leaderboard_min').execute();
}
