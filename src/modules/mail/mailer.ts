// The platform's outgoing mail: through SMTP when smtp_url is set, else into the outbox table and the log.
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { insertOutboxMail } from './outbox.repository.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /**
   * Starts delivering in the background: a request never waits for the SMTP server (so forgot-password takes the same
   * time whether or not the address exists), and a failed delivery is logged, never thrown at the caller.
   */
  send(message: MailMessage): void;
  /** Resolves once every mail started so far has been delivered or has failed (tests wait on it; shutdown drains it). */
  idle(): Promise<void>;
  /** Drains, then closes the SMTP connection. */
  close(): Promise<void>;
}

interface MailerDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
}

type Deliver = (message: MailMessage) => Promise<void>;

function smtpDelivery(config: Config): { deliver: Deliver; close: () => void } {
  const transport = nodemailer.createTransport(config.smtp_url);
  return {
    deliver: async (m) => {
      await transport.sendMail({ from: config.mail_from, to: m.to, subject: m.subject, text: m.text, ...(m.html ? { html: m.html } : {}) });
    },
    close: () => transport.close(),
  };
}

function outboxDelivery({ db, clock, log }: MailerDeps): Deliver {
  return async (m) => {
    await insertOutboxMail(db, { to_address: m.to, subject: m.subject, text_body: m.text, html_body: m.html ?? null, created_at: clock.now() });
    // Without SMTP the log is where a developer reads the mail (also `gameplatform mail outbox`).
    log.info({ mail: { to: m.to, subject: m.subject, text: m.text } }, 'mail kept in the outbox (no smtp_url set)');
  };
}

export function createMailer(deps: MailerDeps): Mailer {
  const smtp = deps.config.smtp_url ? smtpDelivery(deps.config) : null;
  const deliver = smtp?.deliver ?? outboxDelivery(deps);
  const pending = new Set<Promise<void>>();

  const mailer: Mailer = {
    send(message) {
      const delivery = deliver(message).catch((error: unknown) => {
        deps.log.error({ err: error, mail: { to: message.to, subject: message.subject } }, 'mail could not be delivered');
      });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      await mailer.idle();
      smtp?.close();
    },
  };
  return mailer;
}
