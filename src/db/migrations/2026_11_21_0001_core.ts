// Players, their tokens, games and developer keys: what the credential layer needs.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('players'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('player'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('bio', 'text')
    .addColumn('country', 'text')
    .addColumn('newsletter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('avatar_key', 'text')
    .addColumn('membership_plan', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('membership_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('membership_renews_at', 'bigint')
    .addColumn('membership_ends_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('player_tokens'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('player_tokens_player_idx')
    .on('player_tokens')
    .columns(['player_id', 'revoked_at'])
    .execute();

  await withId(db, db.schema.createTable('games'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tagline', 'text')
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('orientation', 'text', (c) => c.notNull().defaultTo('any'))
    .addColumn('players_min', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('players_max', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('leaderboard_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leaderboard_order', 'text', (c) => c.notNull().defaultTo('desc'))
    .addColumn('leaderboard_unit', 'text', (c) => c.notNull().defaultTo('points'))
    .addColumn('save_slots', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requires_premium', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text', (c) => c.notNull())
    .addColumn('cover', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull().defaultTo('index.html'))
    .addColumn('files_dir', 'text', (c) => c.notNull())
    .addColumn('plays', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('playtime_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('games_status_idx').on('games').columns(['status', 'plays']).execute();

  await withId(db, db.schema.createTable('developer_keys'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('developer_keys_game_idx').on('developer_keys').column('game_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('developer_keys').execute();
  await db.schema.dropTable('games').execute();
  await db.schema.dropTable('player_tokens').execute();
  await db.schema.dropTable('players').execute();
}
