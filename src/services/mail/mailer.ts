// The platform's outgoing mail. With smtp_url set, every mail is written to the outbox table first and leaves it only once
// the SMTP server took it: a server that is down or refuses for now gets it again later, with backoff; nothing is lost.
// Without smtp_url the mail is kept in the outbox and written to the log (development).
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { MailOutboxRow } from '../../db/schema.js';
import type { Metrics } from '../metrics/metrics.js';
import {
  claimOutboxMail,
  countWaitingMail,
  deleteOutboxMail,
  dueOutboxMail,
  insertOutboxMail,
  rescheduleOutboxMail,
} from './outbox.repository.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** the player the mail is about: its mail leaves the outbox when the account is purged */
  playerId?: number;
}

export interface Mailer {
  /**
   * Starts delivering in the background: a request never waits for the SMTP server (so forgot-password takes the same
   * time whether or not the address exists), and a failed delivery is kept for a retry, never thrown at the caller.
   */
  send(message: MailMessage): void;
  /** Tries once more every mail whose next attempt is due by the clock; resolves to how many were sent. */
  deliverDue(): Promise<number>;
  /** Runs deliverDue on a timer (the server does; tests call deliverDue after moving the clock). */
  startRetrying(everyMs?: number): void;
  /** How many mails wait for the SMTP server (gauge gameplatform_mail_outbox_waiting). */
  waiting(): Promise<number>;
  /** Resolves once every delivery started so far has ended (tests wait on it; shutdown drains it). */
  idle(): Promise<void>;
  /** Stops the timer, drains, then closes the SMTP connection. Mail still waiting stays in the outbox for the next start. */
  close(): Promise<void>;
}

interface MailerDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  metrics?: Metrics;
}

/** After the n-th failed attempt the next comes this much later: 30 s, 1 min, 2 min, … at most an hour, for as long as it takes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/** A mail being sent is not due again before this, so a process that dies mid-send leaves it to another one later. */
const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const RETRY_EVERY_MS = 15_000;

/** The server refused this message or recipient for good (5xx to MAIL FROM, RCPT TO or DATA): trying again will not help. */
function refusedForGood(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Deliver = (m: MailMessage) => Promise<void>;

/** nodemailer is loaded with the first message: a process that sends none never loads it. */
function smtpTransport(config: Config): { deliver: Deliver; close: () => void } {
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(
      ({ default: nodemailer }) =>
        // Short timeouts: a server that does not answer is a failed attempt, tried again later, not a held connection.
        nodemailer.createTransport({
          url: config.smtp_url,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 60_000,
        }),
      (error: unknown) => {
        transport = undefined; // the next attempt loads it again (the mail stays in the outbox meanwhile)
        throw error;
      },
    ));
  return {
    deliver: async (m) => {
      await (await open()).sendMail({
        from: config.mail_from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        ...(m.html ? { html: m.html } : {}),
      });
    },
    // A transport that never loaded has nothing to close (and its rejection must not go unhandled).
    close: () =>
      void transport?.then(
        (t) => t.close(),
        () => undefined,
      ),
  };
}

const messageOf = (row: Pick<MailOutboxRow, 'to_address' | 'subject' | 'text_body' | 'html_body'>): MailMessage => ({
  to: row.to_address,
  subject: row.subject,
  text: row.text_body,
  ...(row.html_body === null ? {} : { html: row.html_body }),
});

export function createMailer(deps: MailerDeps): Mailer {
  const { config, db, clock, log, metrics } = deps;
  const smtp = config.smtp_url ? smtpTransport(config) : null;
  const pending = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let retrying: Promise<number> | undefined;

  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => {});
    return work;
  };

  /** One attempt at a mail of the outbox; 'taken' when another process or call has it. */
  async function attempt(
    row: Pick<MailOutboxRow, 'id' | 'attempts' | 'to_address' | 'subject' | 'text_body' | 'html_body'>,
    due: number,
  ) {
    if (!(await claimOutboxMail(db, row.id, due, clock.now() + LEASE_MS))) return 'taken';
    const attempts = row.attempts + 1;
    const mail = { id: row.id, to: row.to_address, subject: row.subject, attempts };
    try {
      await smtp!.deliver(messageOf(row));
    } catch (error) {
      if (refusedForGood(error)) {
        await rescheduleOutboxMail(db, row.id, null, describe(error));
        metrics?.mailFailures.inc({ outcome: 'refused' });
        log.error(
          { err: error, mail },
          'the SMTP server refused the mail for good; it stays in the outbox (gameplatform mail outbox)',
        );
        return 'refused';
      }
      const next = clock.now() + retryDelayMs(attempts);
      await rescheduleOutboxMail(db, row.id, next, describe(error));
      metrics?.mailFailures.inc({ outcome: 'retry' });
      log.warn(
        { err: error, mail: { ...mail, next_attempt_at: new Date(next).toISOString() } },
        'mail not delivered; it waits in the outbox for the next attempt',
      );
      return 'retry';
    }
    await deleteOutboxMail(db, row.id);
    metrics?.mailSent.inc();
    if (attempts > 1) log.info({ mail }, 'mail delivered after an earlier attempt failed');
    return 'sent';
  }

  async function sendNow(message: MailMessage): Promise<void> {
    const now = clock.now();
    const row = {
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      player_id: message.playerId ?? null,
      created_at: now,
    };
    if (!smtp) {
      await insertOutboxMail(db, row);
      // Without SMTP the log is where a developer reads the mail (also `gameplatform mail outbox`).
      log.info(
        { mail: { to: message.to, subject: message.subject, text: message.text } },
        'mail kept in the outbox (no smtp_url set)',
      );
      return;
    }
    let id: number;
    try {
      id = await insertOutboxMail(db, { ...row, next_attempt_at: now });
    } catch (error) {
      // The database is away: one direct attempt rather than none.
      log.warn(
        { err: error, mail: { to: message.to, subject: message.subject } },
        'the outbox cannot be written; sending the mail directly, once',
      );
      await smtp.deliver(message);
      metrics?.mailSent.inc();
      return;
    }
    await attempt({ id, attempts: 0, ...row }, now);
  }

  async function deliverDue(): Promise<number> {
    if (!smtp) return 0;
    let sent = 0;
    for (const row of await dueOutboxMail(db, clock.now(), BATCH)) {
      const outcome = await attempt(row, row.next_attempt_at!);
      if (outcome === 'sent') sent++;
      if (outcome === 'retry') break; // the server is away or busy: the rest waits for the next round
    }
    return sent;
  }

  const mailer: Mailer = {
    send(message) {
      void track(sendNow(message)).catch((error: unknown) => {
        log.error({ err: error, mail: { to: message.to, subject: message.subject } }, 'mail could not be delivered');
      });
    },
    deliverDue: () => track(deliverDue()),
    startRetrying(everyMs = RETRY_EVERY_MS) {
      if (!smtp || timer) return;
      timer = setInterval(() => {
        if (retrying) return; // a slow round is not stacked on itself
        retrying = mailer.deliverDue();
        void retrying
          .catch((error: unknown) =>
            log.warn({ err: error }, 'retrying the outbox failed; it runs again on the next tick'),
          )
          .finally(() => {
            retrying = undefined;
          });
      }, everyMs);
      timer.unref();
    },
    waiting: () => countWaitingMail(db),
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      clearInterval(timer);
      timer = undefined;
      await mailer.idle();
      smtp?.close();
    },
  };
  return mailer;
}
