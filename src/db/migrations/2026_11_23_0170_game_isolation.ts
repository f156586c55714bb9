// game.json `cross_origin_isolated`: the game's frame and the play shell are served with COOP/COEP so that the game
// gets crossOriginIsolated (SharedArrayBuffer, threads), as threaded Unity and Godot builds need.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('games')
    .addColumn('cross_origin_isolated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('cross_origin_isolated').execute();
}
