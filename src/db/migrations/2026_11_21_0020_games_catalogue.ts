// The catalogue's own data: favourites, the folded search text of each game, and the file set kept from the previous publish.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('favorites')
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['player_id', 'game_id'])
    .execute();
  await db.schema.createIndex('favorites_game_idx').on('favorites').column('game_id').execute();

  // name, tagline, description, tags and author, case-folded in JS (the databases fold Unicode differently).
  await db.schema
    .alterTable('games')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // The file set the last publish replaced, still served under its versioned URL to pages that loaded it.
  await db.schema.alterTable('games').addColumn('previous_files_dir', 'text').execute();
  await db.schema.alterTable('games').addColumn('previous_entry', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('previous_entry').execute();
  await db.schema.alterTable('games').dropColumn('previous_files_dir').execute();
  await db.schema.alterTable('games').dropColumn('search_text').execute();
  await db.schema.dropTable('favorites').execute();
}
