// Saves and scores made while previewing a build: kept apart from the live ones, in tables of their own.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('preview_states')
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('preview_states_pk', ['player_id', 'game_id', 'slot'])
    .execute();

  await withId(db, db.schema.createTable('preview_scores'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('board', 'text', (c) => c.notNull())
    .addColumn('score', 'bigint', (c) => c.notNull())
    .addColumn('meta', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('preview_scores_board_idx')
    .on('preview_scores')
    .columns(['game_id', 'board', 'player_id'])
    .execute();

  // Listing pictures uploaded through the API (store keys under media/), instead of the build's cover file.
  await db.schema.alterTable('games').addColumn('cover_key', 'text').execute();
  await db.schema
    .alterTable('games')
    .addColumn('screenshots', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('screenshots').execute();
  await db.schema.alterTable('games').dropColumn('cover_key').execute();
  await db.schema.dropTable('preview_scores').execute();
  await db.schema.dropTable('preview_states').execute();
}
