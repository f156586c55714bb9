// A session that takes over the same player's still-active session of the same game (a second tab, another device)
// continues that play: it is marked, so that stats.plays and the developer stats count what a player calls a play.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('play_sessions')
    .addColumn('continues_play', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The developer stats count plays per day from this index alone (index-only scan): it now carries the mark too.
  await db.schema
    .createIndex('play_sessions_game_started_play_idx')
    .on('play_sessions')
    .columns(['game_id', 'started_at', 'player_id', 'continues_play'])
    .execute();
  await db.schema.dropIndex('play_sessions_game_started_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('play_sessions_game_started_idx')
    .on('play_sessions')
    .columns(['game_id', 'started_at', 'player_id'])
    .execute();
  await db.schema.dropIndex('play_sessions_game_started_play_idx').execute();
  await db.schema.alterTable('play_sessions').dropColumn('continues_play').execute();
}
