// Indexes for GET /dev/games/{slug}/stats, so that each statistic reads one game's index entries, not its rows.
// Cost to writers: a heartbeat on PostgreSQL (never a HOT update: it rewrites last_heartbeat_at, which the sweep index
// holds) adds an entry to two more indexes; on SQLite only play_sessions_game_active_idx changes with a heartbeat.
// bench/heartbeat.ts shows no difference beyond the noise (README, "Game backends").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Plays and players per day: the range of the game's sessions by start, with player_id in the index, so the range is
  // read from the index alone. It replaces play_sessions_game_idx (game_id, started_at), which it covers (that one served
  // only the cascade from games), so a heartbeat maintains no more entries for it than before.
  await db.schema
    .createIndex('play_sessions_game_started_idx')
    .on('play_sessions')
    .columns(['game_id', 'started_at', 'player_id'])
    .execute();
  await db.schema.dropIndex('play_sessions_game_idx').execute();
  // Distinct players a game ever had: an index-only scan of the game's entries in player order (distinct without a sort).
  await db.schema
    .createIndex('play_sessions_game_player_idx')
    .on('play_sessions')
    .columns(['game_id', 'player_id'])
    .execute();
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
  await db.schema
    .createIndex('play_sessions_game_idx')
    .on('play_sessions')
    .columns(['game_id', 'started_at'])
    .execute();
  await db.schema.dropIndex('play_sessions_game_started_idx').execute();
}
