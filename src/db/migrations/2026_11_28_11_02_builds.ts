// Numbered builds of a game (each a file set in the store), the uploads that become them, and preview sessions.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('game_builds'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    // the file set under games/<slug>/ (never reused: names carry random bytes)
    .addColumn('files_dir', 'text', (c) => c.notNull().unique())
    .addColumn('entry', 'text', (c) => c.notNull())
    // the checked game.json (games/manifest.ts GameManifest), JSON
    .addColumn('manifest', 'text', (c) => c.notNull())
    .addColumn('files', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by', 'integer', (c) => c.references('players.id').onDelete('set null'))
    .addColumn('uploaded_key_id', 'integer', (c) => c.references('developer_keys.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // when it first went live (null: never released)
    .addColumn('released_at', 'bigint')
    // ready | pruned (its files deleted from the store; the row stays for the history)
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('ready'))
    .addColumn('pruned_at', 'bigint')
    .addUniqueConstraint('game_builds_number_uq', ['game_id', 'number'])
    .execute();

  await db.schema
    .createTable('build_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.references('players.id').onDelete('cascade'))
    .addColumn('key_id', 'integer', (c) => c.references('developer_keys.id').onDelete('cascade'))
    .addColumn('size', 'bigint', (c) => c.notNull())
    // open (taking parts) | processing (being checked and stored as a build)
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('build_uploads_expires_idx').on('build_uploads').column('expires_at').execute();

  await withId(db, db.schema.createTable('preview_sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('build_id', 'integer', (c) => c.notNull().references('game_builds.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('preview_sessions_player_idx').on('preview_sessions').column('player_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('preview_sessions').execute();
  await db.schema.dropTable('build_uploads').execute();
  await db.schema.dropTable('game_builds').execute();
}
