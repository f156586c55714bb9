// Queries on mail_outbox: mail kept when no SMTP server is set, and mail waiting for the SMTP server (next_attempt_at set).
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { MailOutboxRow, MailOutboxTable } from '../../db/schema.js';

export async function insertOutboxMail(db: Executor, mail: Insertable<MailOutboxTable>): Promise<number> {
  const row = await db.insertInto('mail_outbox').values(mail).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Oldest first; `to` matches the address case-insensitively (addresses are stored lower-case). Uses mail_outbox_to_idx. */
export function listOutboxMail(db: Executor, to?: string): Promise<MailOutboxRow[]> {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at').orderBy('id');
  if (to) query = query.where('to_address', '=', to.trim().toLowerCase());
  return query.execute();
}

/** Mail whose next attempt is due, the most overdue first (mail_outbox_due_idx). */
export function dueOutboxMail(db: Executor, now: number, limit: number): Promise<MailOutboxRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes a mail for one attempt: moves its next attempt to `leaseUntil` if it is still at `expected` (compare-and-set),
 * so that of two processes (or the first attempt and the retry timer) only one sends it. False when another took it.
 */
export async function claimOutboxMail(
  db: Executor,
  id: number,
  expected: number,
  leaseUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('next_attempt_at', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sent: the mail leaves the outbox. */
export async function deleteOutboxMail(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('mail_outbox').where('id', '=', id).execute();
}

/** Failed: tried again at `next` (a temporary failure), or never (NULL: refused for good, kept for the operator). */
export async function rescheduleOutboxMail(
  db: Executor,
  id: number,
  next: number | null,
  error: string,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: next, last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}

/** Mail waiting for the SMTP server (mail_outbox_due_idx). */
export async function countWaitingMail(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('next_attempt_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** pending: waiting for the SMTP server; failed: refused by it for good; kept: never sent (no smtp_url set). */
export type OutboxState = 'pending' | 'failed' | 'kept';

/** The operator console's view: newest first, of one state or all, before an id (the next page). */
export function pageOutboxMail(
  db: Executor,
  filter: { state?: OutboxState; beforeId?: number; limit: number },
): Promise<MailOutboxRow[]> {
  let query = db.selectFrom('mail_outbox').selectAll();
  if (filter.state === 'pending') query = query.where('next_attempt_at', 'is not', null);
  if (filter.state === 'failed') query = query.where('next_attempt_at', 'is', null).where('last_error', 'is not', null);
  if (filter.state === 'kept') query = query.where('next_attempt_at', 'is', null).where('last_error', 'is', null);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}

export function findOutboxMail(db: Executor, id: number): Promise<MailOutboxRow | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A failed mail is due again at `now` (the retry timer or an immediate deliverDue sends it). */
export async function requeueOutboxMail(db: Executor, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: now })
    .where('id', '=', id)
    .where('next_attempt_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
