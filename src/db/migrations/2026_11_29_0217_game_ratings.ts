// Thumbs up or down on a game, one per player and game (docs/api.md, "Ratings"). A player's or a game's removal takes
// its votes with it (cascade); game_ratings_game_idx counts a game's votes of each kind from the index alone.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('game_ratings')
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('game_ratings_pk', ['player_id', 'game_id'])
    .addCheckConstraint('game_ratings_value_check', sql`value in (1, -1)`)
    .execute();
  await db.schema.createIndex('game_ratings_game_idx').on('game_ratings').columns(['game_id', 'value']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('game_ratings').execute();
}
