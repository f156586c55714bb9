// Save states: one row per (player, game, slot). An emptied slot keeps its row (state NULL) so versions never go back.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('save_states')
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    // the last version assigned; kept when the slot is emptied, so a re-created state continues from it
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('label', 'text')
    // the canonical JSON text of the state; NULL while the slot is empty
    .addColumn('state', 'text')
    .addColumn('size_bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // The key the empty-slot INSERT races on, and the index of every read (list: player_id, game_id prefix).
    .addPrimaryKeyConstraint('save_states_pk', ['player_id', 'game_id', 'slot'])
    .execute();
  // Deleting a game cascades through this index instead of scanning the table.
  await db.schema.createIndex('save_states_game_idx').on('save_states').column('game_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('save_states').execute();
}
