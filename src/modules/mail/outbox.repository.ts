// Queries on mail_outbox: mail kept when no SMTP server is set.
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { MailOutboxRow, MailOutboxTable } from '../../db/schema.js';

export async function insertOutboxMail(db: Executor, mail: Insertable<MailOutboxTable>): Promise<void> {
  await db.insertInto('mail_outbox').values(mail).execute();
}

/** Oldest first; `to` matches the address case-insensitively (addresses are stored lower-case). Uses mail_outbox_to_idx. */
export function listOutboxMail(db: Executor, to?: string): Promise<MailOutboxRow[]> {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at').orderBy('id');
  if (to) query = query.where('to_address', '=', to.trim().toLowerCase());
  return query.execute();
}
