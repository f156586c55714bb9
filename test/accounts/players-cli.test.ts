// Roles, membership and suspension (docs/operations.md, "Command line"): the operator actions in-process, and the gameplatform players/mail commands.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { createPlayer, createPlayerWithPassword, createPlayerWithToken, createToken } from '../helpers/factories.js';
import {
  grantUnlimited,
  revokeUnlimited,
  setRole,
  suspend,
  unsuspend,
} from '../../src/modules/accounts/admin.service.js';

/** Each command is a new process (tsx compiles on start): slow on a busy machine. */
const CLI_TIMEOUT = 120_000;

eachDialect('accounts: operator actions', (h) => {
  const me = async (token: string) => (await h.http.get('/v1/me', { token })).body.data;

  it('sets a role; staff and admin play without limit', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    for (const role of ['staff', 'admin', 'player'] as const) {
      await setRole(h.ctx, player.username.toUpperCase(), role);
      const data = await me(token);
      expect(data.player.role).toBe(role);
      expect(data.entitlement.unlimited).toBe(role !== 'player');
    }
    await expect(setRole(h.ctx, player.username, 'emperor')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(setRole(h.ctx, 'no_such_player', 'staff')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('grants Unlimited through the end of a day in reset_timezone, and it lapses after', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    await grantUnlimited(h.ctx, player.username, '2026-12-31');
    expect((await me(token)).membership).toEqual({
      unlimited: true,
      plan: 'unlimited',
      status: 'active',
      renews_at: null,
      ends_at: '2026-12-31 23:00:00',
    });
    expect((await h.http.get(`/v1/players/${player.username}`)).body.data.unlimited).toBe(true);
    h.clock.set('2026-12-31T22:59:59Z');
    expect((await me(token)).entitlement.unlimited).toBe(true);
    h.clock.set('2026-12-31T23:00:00Z');
    const after = await me(token);
    expect(after.membership).toMatchObject({ unlimited: false, status: 'expired' });
    expect(after.entitlement).toMatchObject({ unlimited: false, remaining_seconds: 900 });
  });

  it('grants Unlimited without an end, and revokes it at once', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    await grantUnlimited(h.ctx, player.username);
    expect((await me(token)).membership).toEqual({
      unlimited: true,
      plan: 'unlimited',
      status: 'active',
      renews_at: null,
      ends_at: null,
    });
    await revokeUnlimited(h.ctx, player.username);
    expect((await me(token)).membership).toEqual({
      unlimited: false,
      plan: 'free',
      status: 'none',
      renews_at: null,
      ends_at: null,
    });
  });

  it('refuses an --until that is not a date or is past', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const player = await createPlayer(h.ctx);
    for (const until of ['2026-11-20', '2026-02-30', 'tomorrow', '21.11.2026']) {
      await expect(grantUnlimited(h.ctx, player.username, until)).rejects.toMatchObject({ code: 'validation_failed' });
    }
    await expect(grantUnlimited(h.ctx, player.username, '2026-11-21')).resolves.toBeDefined();
  });

  it('suspends a player: every token revoked at once, login refused, profile gone; unsuspend lets them log in again', async () => {
    const player = await createPlayerWithPassword(h.ctx, 'a good password');
    const a = await createToken(h.ctx, player.id);
    const b = await createToken(h.ctx, player.id);
    const { revoked } = await suspend(h.ctx, player.username);
    expect(revoked).toBe(2);
    for (const t of [a, b]) expect((await h.http.get('/v1/me', { token: t.token })).status).toBe(401);
    expect((await h.http.get(`/v1/players/${player.username}`)).status).toBe(404);
    expect(
      (await h.http.post('/v1/auth/login', { body: { login: player.username, password: 'a good password' } })).status,
    ).toBe(403);
    await unsuspend(h.ctx, player.username);
    expect((await h.http.get('/v1/me', { token: a.token })).status).toBe(401);
    expect(
      (await h.http.post('/v1/auth/login', { body: { login: player.username, password: 'a good password' } })).status,
    ).toBe(200);
    await expect(unsuspend(h.ctx, player.username)).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

eachDialect('accounts: gameplatform players and mail commands', (h) => {
  const cli = (...args: string[]) => runCli(args, { GP_DATABASE_URL: h.config.database_url, GP_DATA_DIR: h.dataDir });

  it(
    'sets a role',
    async () => {
      const { token } = await createPlayerWithToken(h.ctx, { username: 'Cli_Role' });
      const res = await cli('players', 'set-role', 'cli_role', 'staff');
      expect(res).toMatchObject({ code: 0, stdout: 'Cli_Role is now staff\n' });
      expect((await h.http.get('/v1/me', { token })).body.data.player.role).toBe('staff');
    },
    CLI_TIMEOUT,
  );

  it(
    'grants Unlimited until a day and revokes it',
    async () => {
      const { token } = await createPlayerWithToken(h.ctx, { username: 'Cli_Member' });
      const grant = await cli('players', 'grant-unlimited', 'Cli_Member', '--until', '2099-12-31');
      expect(grant).toMatchObject({ code: 0, stdout: 'Cli_Member: Unlimited until 2099-12-31 23:00:00 UTC\n' });
      expect((await h.http.get('/v1/me', { token })).body.data.membership).toMatchObject({
        unlimited: true,
        ends_at: '2099-12-31 23:00:00',
      });
      expect((await cli('players', 'revoke-unlimited', 'Cli_Member')).stdout).toBe('Cli_Member: free\n');
      expect((await h.http.get('/v1/me', { token })).body.data.membership).toMatchObject({
        unlimited: false,
        plan: 'free',
      });
    },
    CLI_TIMEOUT,
  );

  it(
    'suspends, revoking the tokens, and unsuspends',
    async () => {
      const { player, token } = await createPlayerWithToken(h.ctx, { username: 'Cli_Suspend' });
      const suspended = await cli('players', 'suspend', 'Cli_Suspend');
      expect(suspended).toMatchObject({ code: 0, stdout: 'Cli_Suspend is suspended; 1 token revoked\n' });
      expect((await h.http.get('/v1/me', { token })).status).toBe(401);
      expect((await cli('players', 'unsuspend', 'Cli_Suspend')).stdout).toBe('Cli_Suspend is active again\n');
      expect(
        (await h.ctx.db.selectFrom('players').select('status').where('id', '=', player.id).executeTakeFirstOrThrow())
          .status,
      ).toBe('active');

      // A player who asked for deletion before the suspension: lifting it says the deletion is still due.
      const leaving = await createPlayer(h.ctx, { username: 'Cli_Leaving' });
      const due = Date.UTC(2099, 0, 31, 12, 0, 0);
      await h.ctx.db
        .updateTable('players')
        .set({ status: 'deleting', deletion_due_at: due })
        .where('id', '=', leaving.id)
        .execute();
      expect((await cli('players', 'suspend', 'Cli_Leaving')).code).toBe(0);
      expect((await cli('players', 'unsuspend', 'Cli_Leaving')).stdout).toBe(
        'Cli_Leaving can log in again; the deletion they asked for is still due at 2099-01-31 12:00:00 UTC (their login cancels it)\n',
      );
    },
    CLI_TIMEOUT,
  );

  it(
    'exits with status 1 and a message for an unknown player or a bad value',
    async () => {
      const unknown = await cli('players', 'suspend', 'nobody_at_all');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe('gameplatform: No player named nobody_at_all\n');
      await createPlayer(h.ctx, { username: 'bad_values' });
      const role = await cli('players', 'set-role', 'bad_values', 'emperor');
      expect(role.code).toBe(1);
      expect(role.stderr).toMatch(/Unknown role emperor/);
    },
    CLI_TIMEOUT,
  );

  it(
    'shows the outbox, filtered by address',
    async () => {
      const res = await h.http.post('/v1/auth/register', {
        body: { email: 'Outbox.Reader@example.com', password: 'password1', display_name: 'Outbox Reader' },
      });
      expect(res.status).toBe(201);
      await h.ctx.mailer.idle();
      const out = await cli('mail', 'outbox', '--to', 'OUTBOX.READER@example.com');
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(
        /^--- #\d+ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\nTo: outbox.reader@example.com\nSubject: Confirm your email address\n\nHello,\n/,
      );
      expect(out.stdout).toMatch(/http:\/\/localhost:8080\/verify-email\?token=mt_/);
      expect((await cli('mail', 'outbox', '--to', 'nobody@example.com')).stdout).toBe(
        'no mail to nobody@example.com in the outbox\n',
      );
      const json = await cli('mail', 'outbox', '--to', 'outbox.reader@example.com', '--json');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        {
          id: expect.any(Number),
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
          to: 'outbox.reader@example.com',
          subject: 'Confirm your email address',
          text: expect.stringMatching(/verify-email\?token=mt_/),
        },
      ]);
    },
    CLI_TIMEOUT,
  );
});
