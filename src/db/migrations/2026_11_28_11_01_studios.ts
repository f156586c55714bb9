// Studios (teams that own games) and their members, each with a studio role; a game's studio and its listing review.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('studios'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // active | pending (signed up by itself, waiting for an operator's approval)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_at', 'bigint')
    .execute();

  await db.schema
    .createTable('studio_members')
    .addColumn('studio_id', 'integer', (c) => c.notNull().references('studios.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    // owner | developer
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('studio_members_pk', ['studio_id', 'player_id'])
    .execute();
  await db.schema.createIndex('studio_members_player_idx').on('studio_members').column('player_id').execute();

  // No foreign key: SQLite cannot drop a column that one names (down), and a studio is never deleted while it has games.
  await db.schema.alterTable('games').addColumn('studio_id', 'integer').execute();
  await db.schema.createIndex('games_studio_idx').on('games').column('studio_id').execute();
  // An operator's review of a status change a studio asked for (setting studios.review): pending | rejected | null.
  await db.schema.alterTable('games').addColumn('review_status', 'text').execute();
  await db.schema.alterTable('games').addColumn('review_target', 'text').execute();
  await db.schema.alterTable('games').addColumn('review_note', 'text').execute();
  await db.schema.alterTable('games').addColumn('review_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['review_at', 'review_note', 'review_target', 'review_status'])
    await db.schema.alterTable('games').dropColumn(column).execute();
  await db.schema.dropIndex('games_studio_idx').execute();
  await db.schema.alterTable('games').dropColumn('studio_id').execute();
  await db.schema.dropTable('studio_members').execute();
  await db.schema.dropTable('studios').execute();
}
