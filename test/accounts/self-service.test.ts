// Account self-service: resend the verification mail, change password, change email (confirmed at the new address),
// delete the account with a grace period and the purge after it, export the own data.
import { afterAll, expect, it } from 'vitest';
import { purgeDeletedPlayers } from '../../src/modules/accounts/self-service.service.js';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createPlayerWithPassword, createPlaySession, createToken } from '../helpers/factories.js';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp.js';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());

let n = 0;
const unique = () => `${++n}${Math.random().toString(36).slice(2, 7)}`;
const PASSWORD = 'the password 1';

/** The token of a mail's link `…/<path>?token=…`. */
function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`/${path}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.text}`);
  return decodeURIComponent(match[1]!);
}

eachDialect(
  'accounts: self-service',
  (h) => {
    /** A player who can log in with PASSWORD, and a token. */
    const account = async (options: { verified?: boolean } = {}) => {
      const id = unique();
      const player = await createPlayerWithPassword(h.ctx, PASSWORD, {
        username: `self_${id}`,
        email: `self${id}@example.com`,
      });
      if (options.verified)
        await h.ctx.db.updateTable('players').set({ email_verified: 1 }).where('id', '=', player.id).execute();
      const { token, id: tokenId } = await createToken(h.ctx, player.id);
      return { player, token, tokenId };
    };
    const login = (loginName: string, password = PASSWORD) =>
      h.http.post('/v1/auth/login', { body: { login: loginName, password } });
    const mailsTo = async (address: string) => {
      await h.ctx.mailer.idle();
      return smtp.to(address);
    };

    // ---- resend verification -------------------------------------------------------------------

    it('mails a new verification link that verifies the address', async () => {
      const { player, token } = await account();
      const res = await h.http.post('/v1/me/verification-email', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, data: { sent: true, email: player.email } });
      const mails = await mailsTo(player.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Confirm your email address');
      const verified = await h.http.post('/v1/auth/verify-email', {
        body: { token: linkToken(mails[0]!, 'verify-email') },
      });
      expect(verified.status).toBe(200);
      expect((await h.http.get('/v1/me', { token })).body.data.player.email_verified).toBe(true);
    });

    it('answers 409 already_verified for a verified address, mailing nothing', async () => {
      const { player, token } = await account({ verified: true });
      const res = await h.http.post('/v1/me/verification-email', { token });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('already_verified');
      expect(await mailsTo(player.email)).toEqual([]);
    });

    it('needs a player token', async () => {
      expect((await h.http.post('/v1/me/verification-email')).status).toBe(401);
    });

    // ---- change password -------------------------------------------------------------------------

    it('changes the password, revoking every other token but keeping the one used', async () => {
      const { player, token } = await account();
      const other = await createToken(h.ctx, player.id);
      const res = await h.http.post('/v1/me/password', {
        token,
        body: { current_password: PASSWORD, new_password: 'a new password' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ password_changed: true, tokens_revoked: 1 });
      expect((await h.http.get('/v1/me', { token })).status).toBe(200);
      expect((await h.http.get('/v1/me', { token: other.token })).status).toBe(401);
      expect((await login(player.username)).status).toBe(401);
      expect((await login(player.username, 'a new password')).status).toBe(200);
    });

    it('refuses a wrong current password with 403 wrong_password, changing nothing', async () => {
      const { player, token } = await account();
      const other = await createToken(h.ctx, player.id);
      const res = await h.http.post('/v1/me/password', {
        token,
        body: { current_password: 'not the password', new_password: 'a new password' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('wrong_password');
      expect((await h.http.get('/v1/me', { token: other.token })).status).toBe(200);
      expect((await login(player.username)).status).toBe(200);
    });

    it.each([
      ['a new password under 8 characters', { current_password: PASSWORD, new_password: 'short' }, 'new_password'],
      [
        'a new password over 256 characters',
        { current_password: PASSWORD, new_password: 'x'.repeat(257) },
        'new_password',
      ],
      ['no current password', { new_password: 'a new password' }, 'current_password'],
    ])('refuses %s with 422', async (_what, body, field) => {
      const { token } = await account();
      const res = await h.http.post('/v1/me/password', { token, body });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields)).toContain(field);
    });

    // ---- change email ----------------------------------------------------------------------------

    it('changes the email only once the new address confirms it, and tells the old address', async () => {
      const { player, token } = await account({ verified: true });
      const newAddress = `moved${unique()}@example.com`;
      const res = await h.http.post('/v1/me/email', {
        token,
        body: { email: ` ${newAddress.toUpperCase()} `, password: PASSWORD },
      });
      expect(res.status).toBe(202);
      expect(res.body.data.pending_email).toBe(newAddress);
      // nothing changes before the confirmation
      expect((await h.http.get('/v1/me', { token })).body.data.player.email).toBe(player.email);
      const [confirmation] = await mailsTo(newAddress);
      expect(confirmation!.subject).toBe('Confirm your new email address');
      const notice = (await mailsTo(player.email)).at(-1)!;
      expect(notice.subject).toBe('Your email address is about to change');
      expect(notice.text).toContain(newAddress);

      const confirmToken = linkToken(confirmation!, 'confirm-email');
      const confirmed = await h.http.post('/v1/auth/confirm-email', { body: { token: confirmToken } });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data).toEqual({ email: newAddress, email_verified: true });
      const me = (await h.http.get('/v1/me', { token })).body.data.player;
      expect(me).toMatchObject({ email: newAddress, email_verified: true });
      expect((await login(newAddress)).status).toBe(200);
      expect((await login(player.email)).status).toBe(401);
      // single use
      const again = await h.http.post('/v1/auth/confirm-email', { body: { token: confirmToken } });
      expect(again.status).toBe(422);
      expect(again.body.error.code).toBe('invalid_token');
    });

    it('mails the new, unconfirmed address no text the caller chose (no display name)', async () => {
      const { player, token } = await account({ verified: true });
      const spam = 'Visit https://spam.example now';
      expect(
        (await h.http.patch('/v1/me', { token, body: { display_name: spam } })).status,
        'the display name takes a URL',
      ).toBe(200);
      const newAddress = `victim${unique()}@example.com`;
      expect(
        (await h.http.post('/v1/me/email', { token, body: { email: newAddress, password: PASSWORD } })).status,
      ).toBe(202);
      const [confirmation] = await mailsTo(newAddress);
      expect(confirmation!.text).toMatch(/^Hello,\r?\n/);
      expect(confirmation!.text).not.toContain('spam.example');
      expect(confirmation!.html).not.toContain('spam.example');
      // the verified current address is greeted by name
      expect((await mailsTo(player.email)).at(-1)!.text).toMatch(/^Hello Visit https:\/\/spam\.example now,/);
    });

    it('drops a pending change of email when the password is changed or reset (the notice says to do that)', async () => {
      for (const how of ['change', 'reset'] as const) {
        const { player, token } = await account();
        const newAddress = `taker${unique()}@example.com`;
        expect(
          (await h.http.post('/v1/me/email', { token, body: { email: newAddress, password: PASSWORD } })).status,
        ).toBe(202);
        const confirmToken = linkToken((await mailsTo(newAddress))[0]!, 'confirm-email');
        if (how === 'change') {
          expect(
            (
              await h.http.post('/v1/me/password', {
                token,
                body: { current_password: PASSWORD, new_password: 'another password 1' },
              })
            ).status,
          ).toBe(200);
        } else {
          expect((await h.http.post('/v1/auth/forgot-password', { body: { email: player.email } })).status).toBe(200);
          const resetToken = linkToken((await mailsTo(player.email)).at(-1)!, 'reset-password');
          expect(
            (
              await h.http.post('/v1/auth/reset-password', {
                body: { token: resetToken, password: 'another password 2' },
              })
            ).status,
          ).toBe(200);
        }
        const confirmed = await h.http.post('/v1/auth/confirm-email', { body: { token: confirmToken } });
        expect(confirmed.status).toBe(422);
        expect(confirmed.body.error.code).toBe('invalid_token');
        const row = await h.ctx.db
          .selectFrom('players')
          .select('email')
          .where('id', '=', player.id)
          .executeTakeFirstOrThrow();
        expect(row.email).toBe(player.email);
      }
    });

    it('refuses a taken address with 409 email_taken, at the request and again at the confirmation', async () => {
      const { token } = await account();
      const holder = await account();
      const taken = await h.http.post('/v1/me/email', {
        token,
        body: { email: holder.player.email, password: PASSWORD },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('email_taken');

      const address = `race${unique()}@example.com`;
      expect((await h.http.post('/v1/me/email', { token, body: { email: address, password: PASSWORD } })).status).toBe(
        202,
      );
      const confirmToken = linkToken((await mailsTo(address))[0]!, 'confirm-email');
      // someone registers the address meanwhile
      const registered = await h.http.post('/v1/auth/register', {
        body: { email: address, password: 'other password', display_name: 'Quick One' },
      });
      expect(registered.status).toBe(201);
      const confirmed = await h.http.post('/v1/auth/confirm-email', { body: { token: confirmToken } });
      expect(confirmed.status).toBe(409);
      expect(confirmed.body.error.code).toBe('email_taken');
    });

    it('refuses a wrong password, the current address, and a link older than 24 hours', async () => {
      const { player, token } = await account();
      const wrong = await h.http.post('/v1/me/email', {
        token,
        body: { email: `x${unique()}@example.com`, password: 'wrong password' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('wrong_password');
      const same = await h.http.post('/v1/me/email', { token, body: { email: player.email, password: PASSWORD } });
      expect(same.status).toBe(422);
      expect(same.body.error.fields).toHaveProperty('email');

      const address = `late${unique()}@example.com`;
      await h.http.post('/v1/me/email', { token, body: { email: address, password: PASSWORD } });
      const confirmToken = linkToken((await mailsTo(address))[0]!, 'confirm-email');
      h.clock.advance(86_400);
      const late = await h.http.post('/v1/auth/confirm-email', { body: { token: confirmToken } });
      expect(late.status).toBe(422);
      expect(late.body.error.code).toBe('invalid_token');
    });

    it('does not take a verification token as a change-of-email token', async () => {
      const { player, token } = await account();
      await h.http.post('/v1/me/verification-email', { token });
      const verifyToken = linkToken((await mailsTo(player.email)).at(-1)!, 'verify-email');
      expect((await h.http.post('/v1/auth/confirm-email', { body: { token: verifyToken } })).status).toBe(422);
    });

    // ---- delete account --------------------------------------------------------------------------

    it('schedules the deletion: tokens revoked, profile gone, a notice mailed; refuses a wrong password', async () => {
      const { player, token } = await account();
      const wrong = await h.http.delete('/v1/me', { token, body: { password: 'wrong password' } });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('wrong_password');
      h.clock.set('2026-03-01T12:00:00Z');
      const res = await h.http.delete('/v1/me', { token, body: { password: PASSWORD } });
      expect(res.status).toBe(202);
      expect(res.body.data).toEqual({
        deletion_scheduled: true,
        deletion_due_at: '2026-03-31 12:00:00',
        grace_days: 30,
      });
      expect((await h.http.get('/v1/me', { token })).status).toBe(401);
      expect((await h.http.get(`/v1/players/${player.username}`)).status).toBe(404);
      const notice = (await mailsTo(player.email)).at(-1)!;
      expect(notice.subject).toBe('Your account will be deleted');
      expect(notice.text).toContain('2026-03-31 12:00:00');
    });

    it('cancels the deletion when the player logs in within the grace period', async () => {
      const { player, token } = await account();
      expect((await h.http.delete('/v1/me', { token, body: { password: PASSWORD } })).status).toBe(202);
      h.clock.advance(29 * 86_400);
      const res = await login(player.username);
      expect(res.status).toBe(200);
      expect(res.body.data.deletion_canceled).toBe(true);
      expect((await h.http.get(`/v1/players/${player.username}`)).status).toBe(200);
      h.clock.advance(2 * 86_400);
      await purgeDeletedPlayers(h.ctx);
      expect(
        await h.ctx.db.selectFrom('players').select('status').where('id', '=', player.id).executeTakeFirst(),
      ).toEqual({ status: 'active' });
      const next = await login(player.username);
      expect(next.status).toBe(200);
      expect(next.body.data).not.toHaveProperty('deletion_canceled');
    });

    it('lets a player waiting for deletion who forgot the password reset it, and the login cancels the deletion', async () => {
      const { player, token } = await account();
      expect((await h.http.delete('/v1/me', { token, body: { password: PASSWORD } })).status).toBe(202);
      expect((await h.http.post('/v1/auth/forgot-password', { body: { email: player.email } })).status).toBe(200);
      const resetToken = linkToken((await mailsTo(player.email)).at(-1)!, 'reset-password');
      expect(
        (await h.http.post('/v1/auth/reset-password', { body: { token: resetToken, password: 'a new password 3' } }))
          .status,
      ).toBe(200);
      const res = await login(player.username, 'a new password 3');
      expect(res.status).toBe(200);
      expect(res.body.data.deletion_canceled).toBe(true);
    });

    it('purges the account after 30 days: personal data, saves, favourites, votes, sessions and scores; the boards stay exact', async () => {
      const game = await createGame(h.ctx, { save_slots: 2 });
      const leaving = await account();
      const staying = await account();
      const third = await account();
      const post = (t: string, score: number) =>
        h.http.post(`/v1/games/${game.slug}/scores`, { token: t, body: { score } });
      expect((await post(staying.token, 100)).status).toBe(201);
      expect((await post(leaving.token, 500)).status).toBe(201);
      expect((await post(third.token, 50)).status).toBe(201);
      expect(
        (await h.http.put(`/v1/games/${game.slug}/states/0`, { token: leaving.token, body: { state: { level: 9 } } }))
          .status,
      ).toBe(201);
      expect((await h.http.post(`/v1/games/${game.slug}/favorite`, { token: leaving.token })).status).toBe(200);
      expect(
        (await h.http.put(`/v1/games/${game.slug}/rating`, { token: leaving.token, body: { value: 'up' } })).status,
      ).toBe(200);
      await createPlaySession(h.ctx, leaving.player.id, game.id);
      await h.ctx.db
        .insertInto('daily_usage')
        .values({ player_id: leaving.player.id, day: '2026-03-01', seconds: 120, sessions: 1 })
        .execute();
      expect(
        await h.ctx.db.selectFrom('play_sessions').select('id').where('player_id', '=', leaving.player.id).execute(),
      ).toHaveLength(1);

      await purgeDeletedPlayers(h.ctx); // accounts of earlier tests
      expect((await h.http.delete('/v1/me', { token: leaving.token, body: { password: PASSWORD } })).status).toBe(202);
      // The notice goes out in the background, through the outbox: wait for it, then leave a mail waiting for the SMTP
      // server (as after an outage), which the purge must take with the account.
      await h.ctx.mailer.idle();
      const later = h.clock.now() + 31 * 86_400_000;
      await h.ctx.db
        .insertInto('mail_outbox')
        .values({
          to_address: leaving.player.email,
          subject: 'Waiting',
          text_body: 'for the server',
          html_body: null,
          created_at: h.clock.now(),
          next_attempt_at: later,
          last_error: 'down',
        })
        .execute();
      h.clock.advance(30 * 86_400 - 1);
      expect(await purgeDeletedPlayers(h.ctx)).toBe(0);
      // off the board from the request on (test/scores/pending-deletion.test.ts)
      expect((await h.http.get(`/v1/games/${game.slug}/leaderboard`)).body.meta.total).toBe(2);
      h.clock.advance(1);
      expect(await purgeDeletedPlayers(h.ctx)).toBe(1);

      const id = leaving.player.id;
      expect(await h.ctx.db.selectFrom('players').select('id').where('id', '=', id).execute()).toEqual([]);
      for (const table of [
        'player_tokens',
        'mail_tokens',
        'save_states',
        'favorites',
        'game_ratings',
        'scores',
        'play_sessions',
        'daily_usage',
        'leaderboard_bests',
      ] as const) {
        expect(
          await h.ctx.db.selectFrom(table).select('player_id').where('player_id', '=', id).execute(),
          table,
        ).toEqual([]);
      }
      expect(
        await h.ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', leaving.player.email).execute(),
      ).toEqual([]);
      const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
      expect(board.body.meta.total).toBe(2);
      expect(board.body.data.leaderboard.map((r: { rank: number; score: number }) => [r.rank, r.score])).toEqual([
        [1, 100],
        [2, 50],
      ]);
      const standing = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token: third.token });
      expect(standing.body.data.rank ?? standing.body.data.me?.rank).toBe(2);
      // the username and address are free again; a login names nobody
      expect((await login(leaving.player.username)).status).toBe(401);
      const again = await h.http.post('/v1/auth/register', {
        body: {
          email: leaving.player.email,
          password: PASSWORD,
          display_name: 'Back Again',
          username: leaving.player.username,
        },
      });
      expect(again.status).toBe(201);
    });

    // ---- export ----------------------------------------------------------------------------------

    it('exports the own data as a JSON attachment, without password or token hashes', async () => {
      h.clock.set('2026-05-02T08:00:00Z');
      const game = await createGame(h.ctx, { save_slots: 2 });
      const { player, token } = await account();
      await h.http.put(`/v1/games/${game.slug}/states/1`, {
        token,
        body: { state: { level: 4, items: ['sword'] }, label: 'Cave' },
      });
      await h.http.post(`/v1/games/${game.slug}/favorite`, { token });
      await h.http.put(`/v1/games/${game.slug}/rating`, { token, body: { value: 'down' } });
      await h.http.post(`/v1/games/${game.slug}/scores`, { token, body: { score: 42, meta: { lives: 2 } } });
      const session = await createPlaySession(h.ctx, player.id, game.id);
      const res = await h.http.get('/v1/me/export', { token });
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="gameplatform-${player.username}-2026-05-02.json"`,
      );
      const data = res.body.data;
      expect(data.player).toMatchObject({ username: player.username, email: player.email });
      expect(data.membership).toMatchObject({ plan: 'free' });
      expect(data.tokens).toHaveLength(1);
      expect(data.tokens[0].prefix).toBe(token.slice(0, 12));
      expect(data.favorites).toEqual([{ game: game.slug, game_name: game.name, created_at: '2026-05-02 08:00:00' }]);
      expect(data.ratings).toEqual([
        {
          game: game.slug,
          game_name: game.name,
          value: 'down',
          created_at: '2026-05-02 08:00:00',
          updated_at: '2026-05-02 08:00:00',
        },
      ]);
      expect(data.saves).toEqual([
        expect.objectContaining({ game: game.slug, slot: 1, label: 'Cave', state: { level: 4, items: ['sword'] } }),
      ]);
      expect(data.scores).toEqual([
        expect.objectContaining({ game: game.slug, board: 'main', score: 42, meta: { lives: 2 } }),
      ]);
      expect(data.play_sessions).toEqual([
        expect.objectContaining({
          id: session.id,
          game: game.slug,
          status: 'closed',
          end_reason: 'quit',
          started_at: '2026-05-02 08:00:00',
        }),
      ]);
      expect(data.play_sessions[0]).not.toHaveProperty('token_hash');
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(token);
      expect(text).not.toContain(session.token);
      expect(text).not.toContain(player.password_hash);
      expect(text).not.toMatch(/"(password_hash|token_hash)"/);
      const hashes = await h.ctx.db
        .selectFrom('player_tokens')
        .select('token_hash')
        .where('player_id', '=', player.id)
        .execute();
      for (const row of hashes) expect(text).not.toContain(row.token_hash);
    });
  },
  { settings: { smtp_url: smtp.url } },
);

eachDialect(
  'accounts: self-service rate limits',
  (h) => {
    it('limits resending the verification mail per player as forgot-password (429 with Retry-After)', async () => {
      const player = await createPlayerWithPassword(h.ctx, PASSWORD);
      const a = await createToken(h.ctx, player.id);
      const b = await createToken(h.ctx, player.id);
      expect((await h.http.post('/v1/me/verification-email', { token: a.token })).status).toBe(200);
      expect((await h.http.post('/v1/me/verification-email', { token: a.token })).status).toBe(200);
      // another token of the same player shares the count
      const limited = await h.http.post('/v1/me/verification-email', { token: b.token });
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      const other = await createPlayerWithPassword(h.ctx, PASSWORD);
      const { token } = await createToken(h.ctx, other.id);
      expect((await h.http.post('/v1/me/verification-email', { token })).status).toBe(200);
    });

    it('limits asking to change the email per player and per new address as forgot-password', async () => {
      const player = await createPlayerWithPassword(h.ctx, PASSWORD);
      const { token } = await createToken(h.ctx, player.id);
      const ask = (t: string, email: string) =>
        h.http.post('/v1/me/email', { token: t, body: { email, password: PASSWORD } });
      expect((await ask(token, `first${unique()}@example.com`)).status).toBe(202);
      expect((await ask(token, `second${unique()}@example.com`)).status).toBe(202);
      const limited = await ask(token, `third${unique()}@example.com`);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

      // one address asked for by many players
      const target = `target${unique()}@example.com`;
      const players = await Promise.all(
        [1, 2, 3].map(
          async () => (await createToken(h.ctx, (await createPlayerWithPassword(h.ctx, PASSWORD)).id)).token,
        ),
      );
      expect((await ask(players[0]!, target)).status).toBe(202);
      expect((await ask(players[1]!, target)).status).toBe(202);
      const byAddress = await ask(players[2]!, target);
      expect(byAddress.status).toBe(429);
      expect(byAddress.body.error.code).toBe('rate_limited');
      expect(Number(byAddress.headers['retry-after'])).toBeGreaterThan(0);
      expect((await ask(players[2]!, `other${unique()}@example.com`)).status).toBe(202);
      const kept = await h.ctx.db.selectFrom('mail_outbox').select('id').where('to_address', '=', target).execute();
      expect(kept).toHaveLength(2);
    });

    it('limits password checks per player as login', async () => {
      const player = await createPlayerWithPassword(h.ctx, PASSWORD);
      const { token } = await createToken(h.ctx, player.id);
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await h.http.post('/v1/me/password', {
              token,
              body: { current_password: `guess ${i}xx`, new_password: 'a new password' },
            })
          ).status,
        );
      expect(statuses).toEqual([403, 403, 403, 429]);
    });
  },
  { settings: { 'rate_limits.forgot_password.max': 2, 'rate_limits.login.max': 3 } },
);

eachDialect("accounts: the purge takes all of the account's mail", (h) => {
  it('removes mail kept in the outbox for the account, to its address and to a new address it asked for', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD, {
      username: `purged_${unique()}`,
      email: `purged${unique()}@example.com`,
    });
    const { token } = await createToken(h.ctx, player.id);
    const newAddress = `asked${unique()}@example.com`;
    expect((await h.http.post('/v1/me/email', { token, body: { email: newAddress, password: PASSWORD } })).status).toBe(
      202,
    );
    await h.ctx.mailer.idle();
    const outbox = async (address: string) =>
      (await h.ctx.db.selectFrom('mail_outbox').select('subject').where('to_address', '=', address).execute()).map(
        (r) => r.subject,
      );
    // no smtp_url: every mail is kept in the outbox
    expect(await outbox(newAddress)).toEqual(['Confirm your new email address']);
    expect((await h.http.delete('/v1/me', { token, body: { password: PASSWORD } })).status).toBe(202);
    await h.ctx.mailer.idle();
    expect(await outbox(player.email)).toEqual([
      'Your email address is about to change',
      'Your account will be deleted',
    ]);
    h.clock.advance(30 * 86_400);
    expect(await purgeDeletedPlayers(h.ctx)).toBeGreaterThanOrEqual(1);
    expect(await outbox(newAddress)).toEqual([]);
    expect(await outbox(player.email)).toEqual([]);
    expect(await h.ctx.db.selectFrom('mail_outbox').select('id').where('player_id', '=', player.id).execute()).toEqual(
      [],
    );
  });
});
