// Board seasons (docs/api.md, "Board seasons"): a studio ends a board's season; its all-time standings are kept here
// with their ranks as they stood, and the board's live rows start empty.
import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('leaderboard_seasons'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('board', 'text', (c) => c.notNull())
    .addColumn('season', 'integer', (c) => c.notNull())
    .addColumn('sort_order', 'text', (c) => c.notNull())
    // null for a board's first season: it began with its first score
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint', (c) => c.notNull())
    .addColumn('players', 'integer', (c) => c.notNull())
    .addUniqueConstraint('leaderboard_seasons_key', ['game_id', 'board', 'season'])
    .execute();

  await db.schema
    .createTable('leaderboard_season_ranks')
    .addColumn('season_id', 'integer', (c) => c.notNull().references('leaderboard_seasons.id').onDelete('cascade'))
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('score', 'bigint', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('last_played', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_season_ranks_pk', ['season_id', 'rank'])
    .execute();
  // A player's row in a season (`me`, around=me), and the cascade of a purged player.
  await db.schema
    .createIndex('leaderboard_season_ranks_player_idx')
    .on('leaderboard_season_ranks')
    .columns(['player_id', 'season_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leaderboard_season_ranks').execute();
  await db.schema.dropTable('leaderboard_seasons').execute();
}
