// A heartbeat rewrites play_sessions.last_heartbeat_at, which two indexes held: play_sessions_sweep_idx (status,
// last_heartbeat_at) and play_sessions_game_active_idx (game_id, last_heartbeat_at) WHERE status = 'active'. So every
// heartbeat moved entries in both, and on PostgreSQL no heartbeat was a HOT update: each wrote a new entry into every
// index of the table (1,237 bytes of WAL a heartbeat; 571 with these indexes gone, nearly every update HOT).
// Their readers (the idle sweep, players online, live sessions of a game, whether a game has one) read the active
// sessions instead, from partial indexes of the active sessions only (play_sessions_one_active_idx for all of them,
// play_sessions_game_live_idx for a game's), and check the last heartbeat in the row: the active sessions are the live
// ones but for the few idle ones the sweep has not closed yet, so these read about as many rows as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('play_sessions_game_live_idx')
    .on('play_sessions')
    .column('game_id')
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema.dropIndex('play_sessions_game_active_idx').execute();
  await db.schema.dropIndex('play_sessions_sweep_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('play_sessions_sweep_idx')
    .on('play_sessions')
    .columns(['status', 'last_heartbeat_at'])
    .execute();
  await db.schema
    .createIndex('play_sessions_game_active_idx')
    .on('play_sessions')
    .columns(['game_id', 'last_heartbeat_at'])
    .where(sql.ref('status'), '=', 'active')
    .execute();
  await db.schema.dropIndex('play_sessions_game_live_idx').execute();
}
