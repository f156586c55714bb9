// Play sessions and the per-day usage counter: the data the entitlement, the entry-file gate and score checks read.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('play_sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('credited_until', 'bigint', (c) => c.notNull())
    .addColumn('credited_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ended_at', 'bigint')
    .addColumn('end_reason', 'text')
    .execute();
  await db.schema
    .createIndex('play_sessions_player_idx')
    .on('play_sessions')
    .columns(['player_id', 'status', 'game_id'])
    .execute();
  await db.schema
    .createIndex('play_sessions_sweep_idx')
    .on('play_sessions')
    .columns(['status', 'last_heartbeat_at'])
    .execute();
  await db.schema
    .createIndex('play_sessions_game_idx')
    .on('play_sessions')
    .columns(['game_id', 'started_at'])
    .execute();

  await db.schema
    .createTable('daily_usage')
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('daily_usage_pk', ['player_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('daily_usage').execute();
  await db.schema.dropTable('play_sessions').execute();
}
