// Scores and leaderboards: every submission, Idempotency-Key replies, and per board and period the players' bests
// with the count tree that ranks them (see src/modules/scores/rank-tree.ts).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';
import { withId } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('scores'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('board', 'text', (c) => c.notNull())
    .addColumn('score', 'bigint', (c) => c.notNull())
    .addColumn('meta', 'text')
    .addColumn('play_session_id', 'integer', (c) => c.references('play_sessions.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // GET /games/{slug}/scores/me and GET /me/scores (newest first), and rebuilding a board from its history.
  await db.schema
    .createIndex('scores_player_game_idx')
    .on('scores')
    .columns(['player_id', 'game_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('scores_player_idx').on('scores').columns(['player_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('scores_board_idx').on('scores').columns(['game_id', 'board', 'created_at']).execute();

  await db.schema
    .createTable('score_requests')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('score_requests_pk', ['caller', 'idem_key'])
    .execute();
  // Forgetting keys older than 24 hours.
  await db.schema.createIndex('score_requests_created_idx').on('score_requests').column('created_at').execute();

  // One row per game, board, period (all, month, week, day), period key (its first date) and the order it ranks by.
  await withId(db, db.schema.createTable('leaderboards'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('board', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('period_key', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('leaderboards_key', ['game_id', 'board', 'period', 'period_key', 'sort_order'])
    .execute();

  await db.schema
    .createTable('leaderboard_bests')
    .addColumn('leaderboard_id', 'integer', (c) => c.notNull().references('leaderboards.id').onDelete('cascade'))
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('score', 'bigint', (c) => c.notNull())
    .addColumn('norm', 'bigint', (c) => c.notNull())
    .addColumn('reached_at', 'bigint', (c) => c.notNull())
    .addColumn('score_id', 'integer', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('last_played', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_bests_pk', ['leaderboard_id', 'player_id'])
    .execute();
  // The ranking order: pages, keyset scans around a player, and the bounded count inside a tree node.
  await db.schema
    .createIndex('leaderboard_bests_rank_idx')
    .on('leaderboard_bests')
    .columns(['leaderboard_id', 'norm', 'reached_at', 'score_id'])
    .execute();
  await db.schema.createIndex('leaderboard_bests_player_idx').on('leaderboard_bests').column('player_id').execute();

  let nodes = db.schema
    .createTable('leaderboard_nodes')
    .addColumn('leaderboard_id', 'integer', (c) => c.notNull().references('leaderboards.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('head', 'bigint', (c) => c.notNull())
    .addColumn('parent', 'bigint', (c) => c.notNull())
    .addColumn('prefix', 'bigint', (c) => c.notNull())
    .addColumn('cnt', 'integer', (c) => c.notNull())
    .addColumn('expanded', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_nodes_pk', ['leaderboard_id', 'level', 'head', 'parent', 'prefix']);
  // Siblings are read as ranges of the primary key: on SQLite keep the rows in it.
  if (!isPostgres(db)) nodes = nodes.modifyEnd(sql`without rowid`);
  await nodes.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leaderboard_nodes').execute();
  await db.schema.dropTable('leaderboard_bests').execute();
  await db.schema.dropTable('leaderboards').execute();
  await db.schema.dropTable('score_requests').execute();
  await db.schema.dropTable('scores').execute();
}
