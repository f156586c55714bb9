// Account self-service: a player may ask to delete the account (purged after a grace period), and a change of email
// waits in a mail token for the new address to be confirmed.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Set while the account waits to be purged (status 'deleting'); the sweep purges players whose time has come.
  await db.schema.alterTable('players').addColumn('deletion_due_at', 'bigint').execute();
  await db.schema.createIndex('players_deletion_due_idx').on('players').column('deletion_due_at').execute();
  // The address a `change_email` token would set (null for the other purposes).
  await db.schema.alterTable('mail_tokens').addColumn('new_email', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_tokens').dropColumn('new_email').execute();
  await db.schema.dropIndex('players_deletion_due_idx').execute();
  await db.schema.alterTable('players').dropColumn('deletion_due_at').execute();
}
