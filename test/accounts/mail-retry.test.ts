// SMTP down or refusing: the mail waits in the outbox and is tried again on the injected clock's schedule (30 s, 1 min,
// 2 min, …), arrives exactly once when the server takes it, and is never lost; a refusal for good keeps it for the operator.
import { afterAll, expect, it, vi } from 'vitest';
import { retryDelayMs } from '../../src/services/mail/mailer.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { freePort } from '../helpers/ports.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

// A port nothing listens on (test/helpers/ports.ts: no other test's server can land there): the harness's smtp_url
// points at it while it is down, and a new server takes it later.
const port = await freePort();
const servers: TestSmtpServer[] = [];

let n = 0;
const email = (what: string) => `${what}${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Whether the mail to this address is waiting (next attempt in ms from now), kept without a next attempt, or gone. */
async function outbox(h: Harness, address: string) {
  const rows = await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', address).execute();
  return rows.map((r) => ({
    attempts: r.attempts,
    next_in_ms: r.next_attempt_at === null ? null : r.next_attempt_at - h.clock.now(),
    error: r.last_error !== null,
  }));
}

eachDialect(
  'mail: SMTP down, then back',
  (h) => {
    // Each dialect's block starts with the server down: the last test's server goes with its block.
    afterAll(async () => {
      while (servers.length) await servers.pop()!.close();
    });
    const register = async (address: string) => {
      const res = await h.http.post('/v1/auth/register', {
        body: { email: address, password: 'long enough', display_name: 'Retry Reader' },
      });
      expect(res.status).toBe(201);
      await h.ctx.mailer.idle();
    };
    const retry = async () => {
      const sent = await h.ctx.mailer.deliverDue();
      await h.ctx.mailer.idle();
      return sent;
    };

    it('backs off 30 s, 1 min, 2 min, … up to an hour', () => {
      expect([1, 2, 3, 4, 7, 8, 20].map(retryDelayMs)).toEqual([
        30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000,
      ]);
    });

    it('keeps the mail while the server is down and delivers it once when it is back, on the clock', async () => {
      const address = email('down');
      await register(address); // answered 201 although the server is down
      expect(await outbox(h, address)).toEqual([{ attempts: 1, next_in_ms: 30_000, error: true }]);

      h.clock.advance(29);
      expect(await retry()).toBe(0);
      expect(await outbox(h, address)).toEqual([{ attempts: 1, next_in_ms: 1000, error: true }]); // not due: not tried
      h.clock.advance(1);
      expect(await retry()).toBe(0);
      expect(await outbox(h, address)).toEqual([{ attempts: 2, next_in_ms: 60_000, error: true }]);

      const server = await startSmtpServer({ port });
      servers.push(server);
      h.clock.advance(59);
      expect(await retry()).toBe(0);
      expect(server.to(address)).toEqual([]);
      h.clock.advance(1);
      expect(await retry()).toBe(1);
      expect(server.to(address)).toHaveLength(1);
      expect(server.to(address)[0]!.subject).toBe('Confirm your email address');
      expect(await outbox(h, address)).toEqual([]);

      h.clock.advance(86_400);
      expect(await retry()).toBe(0);
      expect(server.to(address)).toHaveLength(1);
    });

    it('tries again a mail the server refused for now (451), and delivers it once', async () => {
      const address = email('busy');
      let refusing = true;
      await servers.pop()?.close();
      const server = await startSmtpServer({
        port,
        refuse: (to) => (refusing && to === address ? { code: 451, message: 'try again later' } : undefined),
      });
      servers.push(server);
      await register(address);
      expect(await outbox(h, address)).toEqual([{ attempts: 1, next_in_ms: 30_000, error: true }]);
      refusing = false;
      h.clock.advance(30);
      expect(await retry()).toBe(1);
      expect(server.to(address)).toHaveLength(1);
      expect(await outbox(h, address)).toEqual([]);
    });

    it('keeps a mail the server refused for good (550) without trying it again, and says so', async () => {
      const address = email('never');
      await servers.pop()?.close();
      const server = await startSmtpServer({
        port,
        refuse: (to) => (to === address ? { code: 550, message: 'no such mailbox' } : undefined),
      });
      servers.push(server);
      await register(address);
      expect(await outbox(h, address)).toEqual([{ attempts: 1, next_in_ms: null, error: true }]);
      h.clock.advance(86_400);
      expect(await retry()).toBe(0);
      expect(await outbox(h, address)).toEqual([{ attempts: 1, next_in_ms: null, error: true }]);
      expect(server.mails).toHaveLength(0);
    });

    it('counts mail sent, failed attempts and the mail waiting in /metrics', async () => {
      const value = async (name: string) => {
        const text = (await h.http.get('/metrics')).text;
        return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
      };
      const sent = await value('gameplatform_mail_sent_total');
      await servers.pop()?.close();
      const address = email('counted');
      await register(address);
      expect(await value('gameplatform_mail_outbox_waiting')).toBe(1);
      servers.push(await startSmtpServer({ port }));
      h.clock.advance(30);
      expect(await retry()).toBe(1);
      expect(await value('gameplatform_mail_outbox_waiting')).toBe(0);
      expect((await value('gameplatform_mail_sent_total')) - sent).toBe(1);
      expect((await h.http.get('/metrics')).text).toMatch(
        /^gameplatform_mail_failures_total\{outcome="retry"\} [1-9]/m,
      );
    });

    it('sends the mail directly, once, when the outbox cannot be written', async () => {
      await servers.pop()?.close();
      const server = await startSmtpServer({ port });
      servers.push(server);
      const address = email('direct');
      await h.ctx.db.schema.alterTable('mail_outbox').renameTo('mail_outbox_away').execute();
      try {
        h.ctx.mailer.send({ to: address, subject: 'Sent without the outbox', text: 'Hello' });
        await h.ctx.mailer.idle();
      } finally {
        await h.ctx.db.schema.alterTable('mail_outbox_away').renameTo('mail_outbox').execute();
      }
      expect(server.to(address).map((m) => m.subject)).toEqual(['Sent without the outbox']);
      expect(await outbox(h, address)).toEqual([]);
    });

    it('retries due mail on its timer (the server starts it)', async () => {
      await servers.pop()?.close();
      const address = email('timer');
      await register(address);
      const server = await startSmtpServer({ port });
      servers.push(server);
      const rounds = vi.spyOn(h.ctx.mailer, 'deliverDue');
      h.ctx.mailer.startRetrying(20); // polls often; what is due still comes from the clock
      await vi.waitFor(() => expect(rounds.mock.calls.length).toBeGreaterThanOrEqual(3), {
        timeout: 5000,
        interval: 20,
      });
      expect(server.to(address)).toEqual([]); // not due yet by the clock
      h.clock.advance(30);
      await vi.waitFor(() => expect(server.to(address)).toHaveLength(1), { timeout: 5000, interval: 20 });
      // The server has the mail before the service hears its answer and removes the row: wait for that too.
      await vi.waitFor(async () => expect(await outbox(h, address)).toEqual([]), { timeout: 5000, interval: 20 });
      expect(server.to(address)).toHaveLength(1);
    });
  },
  { settings: { smtp_url: `smtp://127.0.0.1:${port}` } },
);
