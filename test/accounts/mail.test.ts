// Mail flows against a real SMTP server: verification at registration, forgot and reset password; the outbox without SMTP.
import { afterAll, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayerWithPassword, createPlayerWithToken } from '../helpers/factories.js';
import { startSmtpServer, tokenFromMail } from '../helpers/smtp.js';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());

let n = 0;
const email = () => `mailer${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;

eachDialect(
  'accounts: mail through SMTP',
  (h) => {
    const register = async (address: string, password = 'first password') => {
      const res = await h.http.post('/v1/auth/register', {
        body: { email: address, password, display_name: 'Mail Tester' },
      });
      expect(res.status).toBe(201);
      await h.ctx.mailer.idle();
      return res.body.data as { token: string; player: { id: number; username: string } };
    };
    const forgot = async (address: unknown) => {
      const res = await h.http.post('/v1/auth/forgot-password', { body: { email: address } });
      await h.ctx.mailer.idle();
      return res;
    };

    it('mails a verification link at registration, from mail_from', async () => {
      const address = email();
      await register(address);
      const mails = smtp.to(address);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Confirm your email address');
      expect(mails[0]!.from).toBe('no-reply@localhost');
      expect(mails[0]!.text).toMatch(/^Hello,\r?\n/); // the address is not confirmed yet: no text the caller chose
      expect(mails[0]!.text).not.toContain('Mail Tester');
      expect(tokenFromMail(mails[0]!, 'verify-email')).toMatch(/^mt_[0-9A-Za-z]{43}$/);
      expect(mails[0]!.html).toContain('http://localhost:8080/verify-email?token=');
      // nothing kept in the outbox when SMTP is set
      expect(await h.ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', address).execute()).toEqual(
        [],
      );
    });

    it('stores only a hash of the mail token', async () => {
      const address = email();
      const { player } = await register(address);
      const token = tokenFromMail(smtp.to(address)[0]!, 'verify-email');
      const rows = await h.ctx.db.selectFrom('mail_tokens').selectAll().where('player_id', '=', player.id).execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('verifies the email once with the token', async () => {
      const address = email();
      const { token: session } = await register(address);
      const token = tokenFromMail(smtp.to(address)[0]!, 'verify-email');
      const res = await h.http.post('/v1/auth/verify-email', { body: { token } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, data: { email_verified: true } });
      expect((await h.http.get('/v1/me', { token: session })).body.data.player.email_verified).toBe(true);
      const again = await h.http.post('/v1/auth/verify-email', { body: { token } });
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe('invalid_token');
    });

    it('lets only one of two racing requests use a reset token', async () => {
      const address = email();
      await register(address);
      await forgot(address);
      const token = tokenFromMail(smtp.to(address).at(-1)!, 'reset-password');
      const results = await Promise.all(
        ['racing one 1', 'racing two 2'].map((password) =>
          h.http.post('/v1/auth/reset-password', { body: { token, password } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    });

    it('lets a verification token expire after 7 days', async () => {
      const address = email();
      await register(address);
      const token = tokenFromMail(smtp.to(address)[0]!, 'verify-email');
      h.clock.advance(7 * 86400);
      const res = await h.http.post('/v1/auth/verify-email', { body: { token } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_token');
    });

    it.each([
      ['an unknown token', { token: 'mt_unknown' }, 422, 'invalid_token'],
      ['a missing token', {}, 422, 'validation_failed'],
      ['a token that is a number', { token: 12 }, 422, 'validation_failed'],
      ['an empty token', { token: '  ' }, 422, 'validation_failed'],
    ])('refuses verify-email with %s', async (_what, body, status, code) => {
      const res = await h.http.post('/v1/auth/verify-email', { body });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
    });

    it('answers forgot-password the same for a known and an unknown address, mailing only the known one', async () => {
      const address = email();
      await register(address);
      const before = smtp.mails.length;
      const known = await forgot(address.toUpperCase());
      const unknown = await forgot('nobody-at-all@example.com');
      expect(known.status).toBe(200);
      expect(known.body).toEqual({ ok: true, data: { accepted: true } });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual(known.body);
      expect(smtp.mails.length).toBe(before + 1);
      const mail = smtp.to(address).at(-1)!;
      expect(mail.subject).toBe('Reset your password');
      expect(tokenFromMail(mail, 'reset-password')).toMatch(/^mt_/);
    });

    it('mails nothing to a suspended player', async () => {
      const player = await createPlayerWithPassword(h.ctx, 'whatever1', { status: 'suspended', email: email() });
      const res = await forgot(player.email);
      expect(res.status).toBe(200);
      expect(smtp.to(player.email)).toEqual([]);
    });

    it.each([
      ['no email', {}],
      ['an email that is not a string', { email: ['a@b.c'] }],
      ['a malformed email', { email: 'no-at-sign' }],
    ])('refuses forgot-password with %s (422)', async (_what, body) => {
      const res = await h.http.post('/v1/auth/forgot-password', { body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
    });

    it('resets the password, revoking every token at once', async () => {
      const address = email();
      const { token: first, player } = await register(address, 'old password');
      const second = (await h.http.post('/v1/auth/login', { body: { login: address, password: 'old password' } })).body
        .data.token;
      await forgot(address);
      const token = tokenFromMail(smtp.to(address).at(-1)!, 'reset-password');

      const res = await h.http.post('/v1/auth/reset-password', { body: { token, password: 'brand new password' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, data: { password_reset: true } });
      for (const t of [first, second]) expect((await h.http.get('/v1/me', { token: t })).status).toBe(401);
      expect((await h.http.post('/v1/auth/login', { body: { login: address, password: 'old password' } })).status).toBe(
        401,
      );
      const fresh = await h.http.post('/v1/auth/login', {
        body: { login: player.username, password: 'brand new password' },
      });
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.player.email_verified).toBe(true);

      const reused = await h.http.post('/v1/auth/reset-password', { body: { token, password: 'third password' } });
      expect(reused.status).toBe(422);
      expect(reused.body.error.code).toBe('invalid_token');
    });

    it('makes the other reset links useless once one is used', async () => {
      const address = email();
      await register(address);
      await forgot(address);
      await forgot(address);
      const [a, b] = smtp
        .to(address)
        .slice(-2)
        .map((m) => tokenFromMail(m, 'reset-password'));
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token: b, password: 'new password 1' } })).status,
      ).toBe(200);
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token: a, password: 'new password 2' } })).status,
      ).toBe(422);
    });

    it('lets a reset token expire after one hour', async () => {
      const address = email();
      await register(address);
      await forgot(address);
      const token = tokenFromMail(smtp.to(address).at(-1)!, 'reset-password');
      h.clock.advance(3600);
      const res = await h.http.post('/v1/auth/reset-password', { body: { token, password: 'too late now' } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_token');
    });

    it('keeps the reset token usable after a refused password, and keeps the two kinds of token apart', async () => {
      const address = email();
      await register(address);
      const verifyToken = tokenFromMail(smtp.to(address)[0]!, 'verify-email');
      await forgot(address);
      const resetToken = tokenFromMail(smtp.to(address).at(-1)!, 'reset-password');
      const short = await h.http.post('/v1/auth/reset-password', { body: { token: resetToken, password: 'short' } });
      expect(short.status).toBe(422);
      expect(short.body.error.fields).toHaveProperty('password');
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token: verifyToken, password: 'long enough pw' } }))
          .status,
      ).toBe(422);
      expect((await h.http.post('/v1/auth/verify-email', { body: { token: resetToken } })).status).toBe(422);
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token: resetToken, password: 'long enough pw' } }))
          .status,
      ).toBe(200);
    });

    it('refuses reset-password for a player suspended since the mail', async () => {
      const address = email();
      const { player } = await register(address);
      await forgot(address);
      const token = tokenFromMail(smtp.to(address).at(-1)!, 'reset-password');
      await h.ctx.db.updateTable('players').set({ status: 'suspended' }).where('id', '=', player.id).execute();
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token, password: 'a new password' } })).status,
      ).toBe(422);
    });

    it('needs no credential for the mail routes and ignores one sent', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await h.http.post('/v1/auth/forgot-password', { body: { email: 'x@example.com' }, token })).status).toBe(
        200,
      );
    });
  },
  { settings: { smtp_url: smtp.url } },
);

eachDialect(
  'accounts: mail when the SMTP server is down',
  (h) => {
    it('still registers the player and logs the failure', async () => {
      const res = await h.http.post('/v1/auth/register', {
        body: { email: email(), password: 'password1', display_name: 'Offline' },
      });
      expect(res.status).toBe(201);
      await h.ctx.mailer.idle();
      expect((await h.http.get('/v1/me', { token: res.body.data.token })).status).toBe(200);
    });
  },
  { settings: { smtp_url: 'smtp://127.0.0.1:9' } },
);
