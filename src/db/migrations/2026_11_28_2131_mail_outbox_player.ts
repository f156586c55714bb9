// Each mail of the outbox names the player it is about, so that an account's purge takes all of its mail (to a new
// address it asked for, or an earlier one), not only the mail to its current address.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('player_id', 'integer').execute();
  await db.schema.createIndex('mail_outbox_player_idx').on('mail_outbox').column('player_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_player_idx').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('player_id').execute();
}
