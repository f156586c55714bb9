// Developer keys: issued with a SHA-256 stored, scoped, bound to one game, refused on player routes, dead once revoked.
import { expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { AppError } from '../../src/http/errors.js';
import { sha256 } from '../../src/lib/secrets.js';
import { createDeveloperKey, listDeveloperKeys, revokeDeveloperKey } from '../../src/modules/games/keys.service.js';
import { createGame } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

function probes(app: App) {
  const echo = async (request: { credential: unknown }) => ({ ok: true, data: { credential: request.credential } });
  // GET /v1/me is not on main yet: a player route like it stands in for it.
  app.get('/v1/test/me-like', { config: { auth: 'player' } }, echo as never);
  app.get('/v1/test/stats', { config: { auth: 'key', scope: 'stats:read' } }, echo as never);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

eachDialect(
  'games: developer keys',
  (h) => {
    it('issues agk_ keys and stores only their SHA-256 and prefix', async () => {
      const game = await createGame(h.ctx);
      const created = await createDeveloperKey(h.ctx, {
        game: game.slug,
        scopes: 'states:read,states:write',
        name: 'backend',
      });
      expect(created.key).toMatch(/^agk_[0-9A-Za-z]{43}$/);
      expect(created).toMatchObject({
        game: game.slug,
        name: 'backend',
        scopes: ['states:read', 'states:write'],
        prefix: created.key.slice(0, 12),
      });
      const row = await h.ctx.db
        .selectFrom('developer_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        game_id: game.id,
        key_hash: sha256(created.key),
        prefix: created.key.slice(0, 12),
        scopes: 'states:read states:write',
        revoked_at: null,
      });
      expect(JSON.stringify(row)).not.toContain(created.key);
    });

    it('names the key after its game by default and drops repeated scopes', async () => {
      const game = await createGame(h.ctx);
      const created = await createDeveloperKey(h.ctx, {
        game: game.slug,
        scopes: 'stats:read, stats:read players:read',
      });
      expect(created).toMatchObject({ name: `${game.slug} key`, scopes: ['stats:read', 'players:read'] });
    });

    it('refuses unknown or missing scopes and unknown games', async () => {
      const game = await createGame(h.ctx);
      const unknown = await refusal(createDeveloperKey(h.ctx, { game: game.slug, scopes: 'states:read,admin' }));
      expect(unknown.extra.fields).toEqual({ scopes: expect.stringMatching(/unknown scope admin/) });
      const none = await refusal(createDeveloperKey(h.ctx, { game: game.slug, scopes: ' , ' }));
      expect(none.extra.fields).toEqual({ scopes: expect.stringMatching(/at least one/) });
      expect((await refusal(createDeveloperKey(h.ctx, { game: 'no-such-game', scopes: 'stats:read' }))).code).toBe(
        'not_found',
      );
    });

    it('works as a credential for its game, with its scopes', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createDeveloperKey(h.ctx, { game: game.slug, scopes: 'stats:read' });
      const res = await h.http.get('/v1/test/stats', { token: key });
      expect(res.status).toBe(200);
      expect(res.body.data.credential).toMatchObject({ kind: 'key', gameId: game.id });
      const other = await createDeveloperKey(h.ctx, { game: game.slug, scopes: 'states:read' });
      expect((await h.http.get('/v1/test/stats', { token: other.key })).body.error).toMatchObject({
        code: 'insufficient_scope',
        required_scope: 'stats:read',
      });
    });

    it('is refused with 403 forbidden on player routes (a /me-like route and POST favorite)', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createDeveloperKey(h.ctx, {
        game: game.slug,
        scopes: 'states:read,states:write,scores:write,players:read,stats:read',
      });
      for (const res of [
        await h.http.get('/v1/test/me-like', { token: key }),
        await h.http.post(`/v1/games/${game.slug}/favorite`, { token: key }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
        expect(res.text).not.toMatch(/@/);
      }
    });

    it('is refused with 403 forbidden on /me… and /auth/logout (checked once the accounts routes are merged)', async (context) => {
      const routes = (
        [
          ['GET', '/v1/me'],
          ['GET', '/v1/me/entitlement'],
          ['GET', '/v1/me/tokens'],
          ['PATCH', '/v1/me'],
          ['POST', '/v1/auth/logout'],
        ] as const
      ).filter(([method, url]) => h.app.hasRoute({ method, url }));
      if (routes.length === 0) context.skip();
      const game = await createGame(h.ctx);
      const { key } = await createDeveloperKey(h.ctx, {
        game: game.slug,
        scopes: 'states:read,states:write,scores:write,players:read,stats:read',
      });
      for (const [method, url] of routes) {
        const res = await (method === 'GET' ? h.http.get : method === 'PATCH' ? h.http.patch : h.http.post)(url, {
          token: key,
          body: method === 'GET' ? undefined : {},
        });
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
        expect(res.text).not.toMatch(/@/);
      }
      // the key still works after those refusals: logout did not revoke it
      expect((await h.http.get('/v1/test/stats', { token: key })).status).toBe(200);
    });

    it('is dead once revoked: 401 everywhere, and a second revoke changes nothing', async () => {
      const game = await createGame(h.ctx);
      const { key, id } = await createDeveloperKey(h.ctx, { game: game.slug, scopes: 'stats:read' });
      expect((await h.http.get('/v1/test/stats', { token: key })).status).toBe(200);
      expect(await revokeDeveloperKey(h.ctx, id)).toEqual({ revoked: true });
      for (const res of [
        await h.http.get('/v1/test/stats', { token: key }),
        await h.http.get(`/v1/games/${game.slug}`, { token: key }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('unauthenticated');
      }
      expect(await revokeDeveloperKey(h.ctx, id)).toEqual({ revoked: false });
      expect((await refusal(revokeDeveloperKey(h.ctx, 999_999))).code).toBe('not_found');
    });

    it('lists keys by prefix only, for one game or all', async () => {
      const [one, two] = [await createGame(h.ctx), await createGame(h.ctx)];
      const a = await createDeveloperKey(h.ctx, { game: one.slug, scopes: 'stats:read' });
      const b = await createDeveloperKey(h.ctx, { game: two.slug, scopes: 'players:read' });
      await revokeDeveloperKey(h.ctx, b.id);
      const mine = await listDeveloperKeys(h.ctx, one.slug);
      expect(mine).toEqual([
        {
          id: a.id,
          game: one.slug,
          name: a.name,
          prefix: a.prefix,
          scopes: ['stats:read'],
          created_at: '2026-06-01 10:00:00',
          last_used_at: null,
          revoked_at: null,
        },
      ]);
      const all = await listDeveloperKeys(h.ctx);
      expect(all.find((k) => k.id === b.id)?.revoked_at).toBe('2026-06-01 10:00:00');
      expect(JSON.stringify(all)).not.toContain(a.key.slice(12));
      expect((await refusal(listDeveloperKeys(h.ctx, 'no-such-game'))).code).toBe('not_found');
    });
  },
  { beforeReady: probes },
);
