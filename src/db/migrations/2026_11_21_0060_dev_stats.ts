// Indexes for GET /dev/games/{slug}/stats, so no statistic reads every play session of a game row by row.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Distinct players a game ever had: an index-only scan of the game's entries, grouped as they come (no heap reads,
  // no sort). play_sessions_game_idx (game_id, started_at) would need a row fetch per session for player_id.
  await db.schema.createIndex('play_sessions_game_player_idx').on('play_sessions').columns(['game_id', 'player_id']).execute();
  // Sessions of a game live now: holds active sessions only (closing one removes its entry), so counting them is a
  // short range scan however long the game's history is. Queries must say status = 'active' as a literal.
  await db.schema
    .createIndex('play_sessions_game_active_idx')
    .on('play_sessions')
    .columns(['game_id', 'last_heartbeat_at'])
    .where(sql.ref('status'), '=', 'active')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('play_sessions_game_active_idx').execute();
  await db.schema.dropIndex('play_sessions_game_player_idx').execute();
}
