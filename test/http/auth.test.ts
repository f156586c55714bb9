// The credential layer: each auth mode with each credential kind, through probe routes.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayer, createPlayerWithToken, createToken } from '../helpers/factories.js';
import type { App } from '../../src/app.js';

function probes(app: App) {
  const echo = async (request: { credential: unknown }) => ({ ok: true, data: { credential: request.credential } });
  app.get('/v1/test/none', { config: { auth: 'none' } }, echo as never);
  app.get('/v1/test/optional', { config: { auth: 'optional' } }, echo as never);
  app.get('/v1/test/player', { config: { auth: 'player' } }, echo as never);
  app.get('/v1/test/key', { config: { auth: 'key', scope: 'stats:read' } }, echo as never);
  app.get('/v1/test/either', { config: { auth: 'player_or_key', scope: 'states:read' } }, echo as never);
}

eachDialect(
  'http: credentials',
  (h) => {
    const signed = (token: string) => h.app.signCookie(token);
    const sdk = { 'x-requested-with': 'ServiceSDK' };

    it('admits a player token on a player route', async () => {
      const { player, token } = await createPlayerWithToken(h.ctx);
      const res = await h.http.get('/v1/test/player', { token });
      expect(res.status).toBe(200);
      expect(res.body.data.credential).toMatchObject({ kind: 'player', playerId: player.id, via: 'bearer' });
    });

    it('answers a missing credential with 401 unauthenticated', async () => {
      const res = await h.http.get('/v1/test/player');
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    });

    it.each(['Bearer agp_unknown', 'Bearer nonsense', 'Basic dXNlcjpwYXNz', 'Bearer', 'agp_abc'])(
      'answers Authorization "%s" with 401',
      async (header) => {
        const res = await h.http.get('/v1/test/player', { headers: { authorization: header } });
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('unauthenticated');
      },
    );

    it('refuses an expired token', async () => {
      const player = await createPlayer(h.ctx);
      const { token } = await createToken(h.ctx, player.id, { ttlSeconds: 60 });
      expect((await h.http.get('/v1/test/player', { token })).status).toBe(200);
      h.clock.advance(61);
      expect((await h.http.get('/v1/test/player', { token })).status).toBe(401);
    });

    it('refuses a revoked token', async () => {
      const player = await createPlayer(h.ctx);
      const { token } = await createToken(h.ctx, player.id, { revoked: true });
      expect((await h.http.get('/v1/test/player', { token })).status).toBe(401);
    });

    it("refuses a suspended player's token", async () => {
      const { token } = await createPlayerWithToken(h.ctx, { status: 'suspended' });
      expect((await h.http.get('/v1/test/player', { token })).status).toBe(401);
    });

    it('admits the portal session cookie with X-Requested-With: ServiceSDK', async () => {
      const { player, token } = await createPlayerWithToken(h.ctx);
      const res = await h.http.get('/v1/test/player', { cookies: { gp_session: signed(token) }, headers: sdk });
      expect(res.status).toBe(200);
      expect(res.body.data.credential).toMatchObject({ playerId: player.id, via: 'cookie' });
    });

    it('refuses the cookie without the header with 403 csrf_rejected', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      const res = await h.http.get('/v1/test/player', { cookies: { gp_session: signed(token) } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_rejected');
    });

    it('refuses an unsigned or forged cookie', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      for (const value of [token, `${token}.forged`]) {
        const res = await h.http.get('/v1/test/player', { cookies: { gp_session: value }, headers: sdk });
        expect(res.status).toBe(401);
      }
    });

    it('lets a Bearer header win over a cookie', async () => {
      const a = await createPlayerWithToken(h.ctx);
      const b = await createPlayerWithToken(h.ctx);
      const res = await h.http.get('/v1/test/player', { token: b.token, cookies: { gp_session: signed(a.token) } });
      expect(res.body.data.credential.playerId).toBe(b.player.id);
    });

    it('answers a developer key on a player route with 403 forbidden', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['states:read']);
      const res = await h.http.get('/v1/test/player', { token: key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    });

    it('answers a player token on a key route with 403 forbidden', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      const res = await h.http.get('/v1/test/key', { token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    });

    it('admits a key with the scope and refuses one without it', async () => {
      const game = await createGame(h.ctx);
      const good = await createKey(h.ctx, game.id, ['stats:read']);
      const res = await h.http.get('/v1/test/key', { token: good.key });
      expect(res.status).toBe(200);
      expect(res.body.data.credential).toMatchObject({ kind: 'key', gameId: game.id });
      const bad = await createKey(h.ctx, game.id, ['states:write']);
      const denied = await h.http.get('/v1/test/key', { token: bad.key });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'stats:read' });
    });

    it('refuses a revoked key', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['stats:read'], { revoked: true });
      expect((await h.http.get('/v1/test/key', { token: key })).status).toBe(401);
    });

    it('admits both kinds on a PT/DK route, checking the scope only for keys', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await h.http.get('/v1/test/either', { token })).status).toBe(200);
      const game = await createGame(h.ctx);
      expect(
        (await h.http.get('/v1/test/either', { token: (await createKey(h.ctx, game.id, ['states:read'])).key })).status,
      ).toBe(200);
      expect(
        (await h.http.get('/v1/test/either', { token: (await createKey(h.ctx, game.id, ['stats:read'])).key })).status,
      ).toBe(403);
    });

    it('reads a credential on an optional route, and none without one', async () => {
      const { player, token } = await createPlayerWithToken(h.ctx);
      expect((await h.http.get('/v1/test/optional')).body.data.credential).toBeNull();
      expect((await h.http.get('/v1/test/optional', { token })).body.data.credential.playerId).toBe(player.id);
      // a cookie without the header is ignored on a public route, not refused
      const res = await h.http.get('/v1/test/optional', { cookies: { gp_session: signed(token) } });
      expect(res.status).toBe(200);
      expect(res.body.data.credential).toBeNull();
      expect((await h.http.get('/v1/test/optional', { token: 'agp_expired' })).status).toBe(401);
    });

    it('reads nothing on a route without auth', async () => {
      expect((await h.http.get('/v1/test/none', { token: 'agp_garbage' })).body.data.credential).toBeNull();
    });

    it('records last_used_at at the first call, then at most once a minute', async () => {
      const { token, tokenId } = await createPlayerWithToken(h.ctx);
      const read = async () =>
        (
          await h.ctx.db
            .selectFrom('player_tokens')
            .select('last_used_at')
            .where('id', '=', tokenId)
            .executeTakeFirstOrThrow()
        ).last_used_at;
      expect(await read()).toBeNull();
      h.clock.advance(1);
      await h.http.get('/v1/test/player', { token });
      const first = h.clock.now();
      expect(await read()).toBe(first);
      h.clock.advance(30);
      await h.http.get('/v1/test/player', { token });
      expect(await read()).toBe(first);
      h.clock.advance(61);
      await h.http.get('/v1/test/player', { token });
      expect(await read()).toBe(h.clock.now());
    });

    it('admits calls racing on a token whose last_used_at is due, writes it once, and still refuses the token once revoked', async () => {
      const { token, tokenId } = await createPlayerWithToken(h.ctx);
      h.clock.advance(1);
      const results = await Promise.all(Array.from({ length: 8 }, () => h.http.get('/v1/test/player', { token })));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      const row = await h.ctx.db
        .selectFrom('player_tokens')
        .select('last_used_at')
        .where('id', '=', tokenId)
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toBe(h.clock.now());
      await h.ctx.db
        .updateTable('player_tokens')
        .set({ revoked_at: h.clock.now() })
        .where('id', '=', tokenId)
        .execute();
      h.clock.advance(61);
      expect((await h.http.get('/v1/test/player', { token })).status).toBe(401);
      const after = await h.ctx.db
        .selectFrom('player_tokens')
        .select('last_used_at')
        .where('id', '=', tokenId)
        .executeTakeFirstOrThrow();
      expect(after.last_used_at).toBe(row.last_used_at);
    });
  },
  { beforeReady: probes },
);
