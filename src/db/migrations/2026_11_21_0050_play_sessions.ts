// Play sessions: at most one active session per player and game, and the column through which a capped credit reports what it took.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Two starts of the same game racing on PostgreSQL: the second insert fails here and is retried (it then replaces the first).
  await db.schema
    .createIndex('play_sessions_one_active_idx')
    .on('play_sessions')
    .columns(['player_id', 'game_id'])
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
  // Set by every credit in the same UPDATE as `seconds` (SET sees the old row on both databases), so the capped
  // upsert returns what it really added without a read-modify-write.
  await db.schema
    .alterTable('daily_usage')
    .addColumn('last_credit', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('daily_usage').dropColumn('last_credit').execute();
  await db.schema.dropIndex('play_sessions_one_active_idx').execute();
}
