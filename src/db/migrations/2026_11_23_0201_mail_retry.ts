// The outbox also holds the mail waiting for the SMTP server: when to try next, how often it was tried, and why it failed.
// A row with next_attempt_at NULL is only kept (no smtp_url set, or refused for good); sent mail leaves the table.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('next_attempt_at', 'bigint').execute();
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('mail_outbox').addColumn('last_error', 'text').execute();
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').column('next_attempt_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_due_idx').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('last_error').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('attempts').execute();
  await db.schema.alterTable('mail_outbox').dropColumn('next_attempt_at').execute();
}
