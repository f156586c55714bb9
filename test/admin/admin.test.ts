// The operator console's API: who reaches it (no credential 401; players, guests and studio members 403; staff and
// admin through), and what each action does, with its audit entry (who, what, before → after).
import { beforeAll, describe, expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { freePort } from '../helpers/ports.js';
import { createStudio, memberOf } from '../helpers/studios.js';

type Method = 'get' | 'post' | 'put' | 'delete';

const port = await freePort();

eachDialect(
  'admin: the operator console',
  (h) => {
    const tokens = {} as Record<'player' | 'guest' | 'member' | 'staff' | 'admin', string>;
    const target = {} as { id: number; username: string; token: string };
    let gameSlug = '';
    let keyId = 0;
    let studioSlug = '';

    beforeAll(async () => {
      tokens.player = (await createPlayerWithToken(h.ctx)).token;
      const guest = await h.http.post('/v1/auth/guest', { body: {} });
      expect(guest.status).toBe(201);
      tokens.guest = guest.body.data.token;
      const studio = await createStudio(h.ctx);
      studioSlug = studio.slug;
      tokens.member = (await memberOf(h.ctx, studio.id, 'owner')).token;
      tokens.staff = (await createPlayerWithToken(h.ctx, { role: 'staff', username: 'staff_one' })).token;
      tokens.admin = (await createPlayerWithToken(h.ctx, { role: 'admin' })).token;
      const t = await createPlayerWithToken(h.ctx, { username: 'Target_Person', email: 'target@example.com' });
      Object.assign(target, { id: t.player.id, username: t.player.username, token: t.token });
      const game = await createGame(h.ctx, { status: 'published' });
      gameSlug = game.slug;
      keyId = (await createKey(h.ctx, game.id, ['states:read'])).id;
    });

    const routes = (): Array<{ method: Method; path: string; body?: unknown }> => [
      { method: 'get', path: '/v1/admin/players?q=target' },
      { method: 'get', path: `/v1/admin/players/${target.id}` },
      { method: 'post', path: `/v1/admin/players/${target.id}/suspend`, body: {} },
      { method: 'post', path: `/v1/admin/players/${target.id}/unsuspend`, body: {} },
      { method: 'put', path: `/v1/admin/players/${target.id}/role`, body: { role: 'admin' } },
      { method: 'put', path: `/v1/admin/players/${target.id}/membership`, body: { plan: 'unlimited' } },
      { method: 'get', path: '/v1/admin/games' },
      { method: 'put', path: `/v1/admin/games/${gameSlug}/status`, body: { status: 'retired' } },
      { method: 'put', path: `/v1/admin/games/${gameSlug}/studio`, body: { studio: studioSlug } },
      { method: 'get', path: '/v1/admin/studios' },
      { method: 'get', path: '/v1/admin/keys' },
      { method: 'post', path: '/v1/admin/keys', body: { game: gameSlug, scopes: 'states:read' } },
      { method: 'delete', path: `/v1/admin/keys/${keyId}` },
      { method: 'get', path: '/v1/admin/mail' },
      { method: 'post', path: '/v1/admin/mail/1/retry' },
      { method: 'get', path: '/v1/admin/audit' },
    ];

    const call = (r: { method: Method; path: string; body?: unknown }, token?: string) =>
      r.method === 'get' || r.method === 'delete'
        ? h.http[r.method](r.path, { token })
        : h.http[r.method](r.path, { token, body: r.body });

    it('answers 401 without a credential and 403 to players, guests and studio members on every route, changing nothing', async () => {
      for (const route of routes()) {
        const anonymous = await call(route);
        expect(anonymous.status, `${route.method} ${route.path}`).toBe(401);
        for (const who of ['player', 'guest', 'member'] as const) {
          const res = await call(route, tokens[who]);
          expect(res.status, `${who} ${route.method} ${route.path}`).toBe(403);
          expect(res.body.error.code).toBe('forbidden');
        }
      }
      const player = await h.ctx.db
        .selectFrom('players')
        .selectAll()
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(player).toMatchObject({ status: 'active', role: 'player', membership_plan: 'free' });
      const game = await h.ctx.db
        .selectFrom('games')
        .selectAll()
        .where('slug', '=', gameSlug)
        .executeTakeFirstOrThrow();
      expect(game).toMatchObject({ status: 'published', studio_id: null });
      expect(await h.ctx.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
      expect((await h.http.get('/v1/me', { token: target.token })).status).toBe(200);
    });

    it('lets staff and admin through', async () => {
      for (const who of ['staff', 'admin'] as const) {
        const res = await h.http.get('/v1/admin/players?q=target', { token: tokens[who] });
        expect(res.status).toBe(200);
      }
    });

    describe('players', () => {
      it('finds a player by the start of the username or email, case-insensitively, and by id', async () => {
        for (const q of ['TARGET_p', 'target@example', String(target.id)]) {
          const res = await h.http.get('/v1/admin/players', { token: tokens.staff, query: { q } });
          expect(res.status).toBe(200);
          expect(
            res.body.data.players.map((p: { id: number }) => p.id),
            q,
          ).toContain(target.id);
        }
        const none = await h.http.get('/v1/admin/players', { token: tokens.staff, query: { q: 'nobody_%' } });
        expect(none.body.data.players).toEqual([]);
      });

      it("shows a player's detail: tokens without secrets, membership, playtime", async () => {
        const res = await h.http.get(`/v1/admin/players/${target.id}`, { token: tokens.staff });
        expect(res.status).toBe(200);
        const { player, tokens: list, playtime } = res.body.data;
        expect(player).toMatchObject({ id: target.id, username: 'Target_Person', email: 'target@example.com' });
        expect(player.membership.plan).toBe('free');
        expect(list.length).toBeGreaterThan(0);
        expect(JSON.stringify(list)).not.toContain(target.token);
        expect(playtime.history).toHaveLength(30);
        expect((await h.http.get('/v1/admin/players/999999', { token: tokens.staff })).status).toBe(404);
      });

      it('suspends a player (their token stops working at once) and lifts it, each with an audit entry', async () => {
        const res = await h.http.post(`/v1/admin/players/${target.id}/suspend`, {
          token: tokens.staff,
          body: { reason: 'spam' },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('suspended');
        expect((await h.http.get('/v1/me', { token: target.token })).status).toBe(401);
        const again = await h.http.post(`/v1/admin/players/${target.id}/suspend`, { token: tokens.staff, body: {} });
        expect(again.status).toBe(422);
        const lifted = await h.http.post(`/v1/admin/players/${target.id}/unsuspend`, { token: tokens.admin, body: {} });
        expect(lifted.body.data.status).toBe('active');
        expect((await h.http.get('/v1/me', { token: target.token })).status).toBe(401); // old tokens stay revoked

        const audit = await h.http.get('/v1/admin/audit', {
          token: tokens.staff,
          query: { target_type: 'player', target_id: String(target.id) },
        });
        const [unsuspend, suspend] = audit.body.data.entries;
        expect(suspend).toMatchObject({
          actor: { name: 'staff_one' },
          action: 'player.suspend',
          reason: 'spam',
          before: { status: 'active' },
          after: { status: 'suspended' },
        });
        expect(unsuspend).toMatchObject({ action: 'player.unsuspend', before: { status: 'suspended' } });
        const byText = await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { q: 'SPAM' } });
        expect(byText.body.data.entries.map((e: { action: string }) => e.action)).toEqual(['player.suspend']);
        const byActor = await h.http.get('/v1/admin/audit', {
          token: tokens.staff,
          query: { actor: 'staff_one', action: 'player.suspend' },
        });
        expect(byActor.body.data.entries).toHaveLength(1);
      });

      it('changes the role and the membership, refusing a date in the past', async () => {
        const member = await h.http.put(`/v1/admin/players/${target.id}/membership`, {
          token: tokens.staff,
          body: { plan: 'unlimited', until: '2099-12-31' },
        });
        expect(member.status).toBe(200);
        expect(member.body.data.membership).toMatchObject({ plan: 'unlimited', unlimited: true });
        const past = await h.http.put(`/v1/admin/players/${target.id}/membership`, {
          token: tokens.staff,
          body: { plan: 'unlimited', until: '2000-01-01' },
        });
        expect(past.status).toBe(422);
        const free = await h.http.put(`/v1/admin/players/${target.id}/membership`, {
          token: tokens.staff,
          body: { plan: 'free' },
        });
        expect(free.body.data.membership.plan).toBe('free');
        const role = await h.http.put(`/v1/admin/players/${target.id}/role`, {
          token: tokens.admin,
          body: { role: 'staff' },
        });
        expect(role.body.data.role).toBe('staff');
        const bad = await h.http.put(`/v1/admin/players/${target.id}/role`, {
          token: tokens.admin,
          body: { role: 'king' },
        });
        expect(bad.status).toBe(422);
        const actions = (
          await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { target_id: String(target.id) } })
        ).body.data.entries.map((e: { action: string }) => e.action);
        expect(actions.slice(0, 3)).toEqual(['player.set_role', 'player.set_membership', 'player.set_membership']);
      });
    });

    describe('games and keys', () => {
      it('lists every game with its studio, sets a status and hands a game to a studio, with audit entries', async () => {
        const status = await h.http.put(`/v1/admin/games/${gameSlug}/status`, {
          token: tokens.staff,
          body: { status: 'beta' },
        });
        expect(status.body.data).toEqual({ slug: gameSlug, from: 'published', to: 'beta' });
        const handed = await h.http.put(`/v1/admin/games/${gameSlug}/studio`, {
          token: tokens.staff,
          body: { studio: studioSlug },
        });
        expect(handed.status).toBe(200);
        const games = await h.http.get('/v1/admin/games', { token: tokens.staff });
        expect(games.body.data.games.find((g: { slug: string }) => g.slug === gameSlug)).toMatchObject({
          status: 'beta',
          studio: studioSlug,
          featured: false,
        });
        const entries = (await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { target_type: 'game' } }))
          .body.data.entries;
        expect(entries.map((e: { action: string }) => e.action)).toEqual(['game.set_studio', 'game.set_status']);
        expect(entries[0]).toMatchObject({ before: { studio: null }, after: { studio: studioSlug } });
        expect(
          (await h.http.put('/v1/admin/games/nope/status', { token: tokens.staff, body: { status: 'beta' } })).status,
        ).toBe(404);
      });

      it('creates a key (secret shown once, never logged), lists it and revokes it', async () => {
        const created = await h.http.post('/v1/admin/keys', {
          token: tokens.staff,
          body: { game: gameSlug, scopes: 'states:read,scores:write', name: 'backend' },
        });
        expect(created.status).toBe(201);
        const { id, key } = created.body.data;
        const list = await h.http.get('/v1/admin/keys', { token: tokens.staff, query: { game: gameSlug } });
        expect(list.body.data.keys.map((k: { id: number }) => k.id)).toContain(id);
        expect(JSON.stringify(list.body)).not.toContain(key);
        const revoked = await h.http.delete(`/v1/admin/keys/${id}`, { token: tokens.staff });
        expect(revoked.body.data).toEqual({ revoked: true });
        const audit = await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { target_type: 'key' } });
        expect(audit.body.data.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoke', 'key.create']);
        expect(JSON.stringify(audit.body)).not.toContain(key);
      });
    });

    describe('mail outbox', () => {
      it('lists failed mail and retries one, which waits for the SMTP server again', async () => {
        const now = h.ctx.clock.now();
        const row = await h.ctx.db
          .insertInto('mail_outbox')
          .values({
            to_address: 'x@example.com',
            subject: 'Hello',
            text_body: 'hi',
            html_body: null,
            created_at: now,
            next_attempt_at: null,
            attempts: 1,
            last_error: '550 no such mailbox',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const failed = await h.http.get('/v1/admin/mail', { token: tokens.staff, query: { state: 'failed' } });
        expect(failed.body.data.mail.map((m: { id: number }) => m.id)).toEqual([row.id]);
        expect(failed.body.data.mail[0]).toMatchObject({ state: 'failed', last_error: '550 no such mailbox' });
        const retried = await h.http.post(`/v1/admin/mail/${row.id}/retry`, { token: tokens.staff });
        expect(retried.status).toBe(200);
        await h.ctx.mailer.idle();
        const pending = await h.http.get('/v1/admin/mail', { token: tokens.staff, query: { state: 'pending' } });
        expect(pending.body.data.mail.map((m: { id: number }) => m.id)).toEqual([row.id]); // the server is down
        expect((await h.http.post(`/v1/admin/mail/${row.id}/retry`, { token: tokens.staff })).status).toBe(422);
        expect((await h.http.post('/v1/admin/mail/999999/retry', { token: tokens.staff })).status).toBe(404);
        const audit = await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { action: 'mail.retry' } });
        expect(audit.body.data.entries[0]).toMatchObject({ target: { type: 'mail', id: String(row.id) } });
      });
    });

    it('pages the audit log', async () => {
      const first = await h.http.get('/v1/admin/audit', { token: tokens.staff, query: { limit: '2' } });
      expect(first.body.data.entries).toHaveLength(2);
      const second = await h.http.get('/v1/admin/audit', {
        token: tokens.staff,
        query: { limit: '2', before: String(first.body.data.next_before) },
      });
      expect(second.body.data.entries[0].id).toBeLessThan(first.body.data.entries[1].id);
    });
  },
  { settings: { smtp_url: `smtp://127.0.0.1:${port}` } },
);
