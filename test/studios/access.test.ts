// The authorization matrix of the studio routes: for every route of a game of studio A, a member of studio B and a player
// in no studio get 404 (as for a game that does not exist), no credential 401, another game's developer key 403; A's
// members and the operators get through; and none of the refused calls changed anything of A's.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import type { CallOptions, Response } from '../helpers/request.js';
import { buildZip, createStudio, createStudioGame, deploy, memberOf } from '../helpers/studios.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Route {
  method: Method;
  path: string;
  body?: unknown;
  contentType?: string;
  /** the scope a developer key of the game needs here; undefined: keys are refused */
  scope?: 'builds:write' | 'builds:release';
}

eachDialect('studios: who reaches what', (h) => {
  const a = {} as { slug: string; id: number; keyId: number; upload: string; png: Buffer };
  const tokens = {} as Record<
    'memberA' | 'ownerA' | 'memberB' | 'player' | 'staff' | 'admin' | 'keyA' | 'keyAStates' | 'keyB',
    string
  >;
  let studioA = '';
  let gameB = '';

  beforeAll(async () => {
    const sa = await createStudio(h.ctx);
    const sb = await createStudio(h.ctx);
    studioA = sa.slug;
    const memberA = await memberOf(h.ctx, sa.id, 'developer');
    tokens.memberA = memberA.token;
    tokens.ownerA = (await memberOf(h.ctx, sa.id, 'owner')).token;
    tokens.memberB = (await memberOf(h.ctx, sb.id, 'owner')).token;
    tokens.player = (await createPlayerWithToken(h.ctx)).token;
    tokens.staff = (await createPlayerWithToken(h.ctx, { role: 'staff' })).token;
    tokens.admin = (await createPlayerWithToken(h.ctx, { role: 'admin' })).token;
    const game = await createStudioGame(h.ctx, sa.id);
    const other = await createStudioGame(h.ctx, sb.id);
    gameB = other.slug;
    Object.assign(a, { slug: game.slug, id: game.id });
    expect((await deploy(h.http, tokens.memberA, game.slug, await buildZip(game.slug))).status).toBe(201);
    expect((await deploy(h.http, tokens.memberB, other.slug, await buildZip(other.slug))).status).toBe(201);
    const key = await createKey(h.ctx, game.id, ['builds:write', 'builds:release']);
    tokens.keyA = key.key;
    a.keyId = key.id;
    tokens.keyAStates = (await createKey(h.ctx, game.id, ['states:read'])).key;
    tokens.keyB = (await createKey(h.ctx, other.id, ['builds:write', 'builds:release'])).key;
    a.upload = (
      await h.http.post(`/v1/studio/games/${game.slug}/uploads`, { token: tokens.memberA, body: { size: 4 } })
    ).body.data.id;
    a.png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await h.http.put(`/v1/studio/games/${game.slug}/preview/states/0?build=1`, {
      token: tokens.memberA,
      body: { state: { secret: true } },
    });
  });

  const gameRoutes = (): Route[] => {
    const g = `/v1/studio/games/${a.slug}`;
    const bytes = { contentType: 'application/octet-stream', body: Buffer.from('abcd') };
    const picture = { contentType: 'image/png', body: a.png };
    return [
      { method: 'get', path: g },
      { method: 'patch', path: g, body: { tagline: 'changed' } },
      { method: 'put', path: `${g}/status`, body: { status: 'draft' } },
      { method: 'put', path: `${g}/cover`, ...picture },
      { method: 'delete', path: `${g}/cover` },
      { method: 'post', path: `${g}/screenshots`, ...picture },
      { method: 'delete', path: `${g}/screenshots/1` },
      { method: 'post', path: `${g}/uploads`, body: { size: 10 }, scope: 'builds:write' },
      { method: 'get', path: `${g}/uploads/${a.upload}`, scope: 'builds:write' },
      { method: 'put', path: `${g}/uploads/${a.upload}/parts/1`, ...bytes, scope: 'builds:write' },
      { method: 'post', path: `${g}/uploads/${a.upload}/complete`, scope: 'builds:write' },
      { method: 'delete', path: `${g}/uploads/${a.upload}`, scope: 'builds:write' },
      { method: 'get', path: `${g}/builds`, scope: 'builds:write' },
      { method: 'get', path: `${g}/builds/1`, scope: 'builds:write' },
      { method: 'post', path: `${g}/builds/1/release`, scope: 'builds:release' },
      { method: 'post', path: `${g}/rollback`, scope: 'builds:release' },
      { method: 'post', path: `${g}/builds/1/preview` },
      { method: 'get', path: `${g}/keys` },
      { method: 'post', path: `${g}/keys`, body: { scopes: ['stats:read'] } },
      { method: 'delete', path: `${g}/keys/${a.keyId}` },
      { method: 'get', path: `${g}/preview/states?build=1` },
      { method: 'get', path: `${g}/preview/states/0?build=1` },
      { method: 'put', path: `${g}/preview/states/0?build=1`, body: { state: 1 } },
      { method: 'delete', path: `${g}/preview/states/0?build=1` },
      { method: 'post', path: `${g}/preview/scores?build=1`, body: { score: 5 } },
      { method: 'get', path: `${g}/preview/leaderboard?build=1` },
      { method: 'delete', path: `${g}/preview/data` },
    ];
  };

  const studioRoutes = (): Route[] => {
    const s = `/v1/studio/studios/${studioA}`;
    return [
      { method: 'get', path: s },
      { method: 'post', path: `${s}/members`, body: { login: 'nobody-at-all' } },
      { method: 'patch', path: `${s}/members/1`, body: { role: 'owner' } },
      { method: 'delete', path: `${s}/members/1` },
      { method: 'post', path: `${s}/games`, body: { slug: 'never-made', name: 'Never', category: 'arcade' } },
    ];
  };

  const adminRoutes = (): Route[] => [
    { method: 'get', path: '/v1/admin/studios' },
    { method: 'post', path: '/v1/admin/studios', body: { name: 'Made by a player' } },
    { method: 'post', path: `/v1/admin/studios/${studioA}/approve` },
    { method: 'delete', path: `/v1/admin/studios/${studioA}` },
    { method: 'put', path: `/v1/admin/games/${a.slug}/studio`, body: { studio: null } },
    { method: 'get', path: '/v1/admin/reviews' },
    { method: 'post', path: `/v1/admin/reviews/${a.slug}`, body: { decision: 'approve' } },
  ];

  const call = (route: Route, token?: string): Promise<Response> => {
    const options: CallOptions = { ...(token ? { token } : {}) };
    if (route.body !== undefined) options.body = route.body;
    if (route.contentType) options.contentType = route.contentType;
    return h.http[route.method](route.path, options);
  };

  /** What A's member sees of A: compared before and after the refused calls. */
  const snapshot = async () => {
    const t = { token: tokens.memberA };
    const g = `/v1/studio/games/${a.slug}`;
    return {
      game: (await h.http.get(g, t)).body.data,
      builds: (await h.http.get(`${g}/builds`, t)).body.data,
      // a key's last use is written by the refused calls made with it: everything else of a key stays
      keys: (await h.http.get(`${g}/keys`, t)).body.data.keys.map((k: Record<string, unknown>) => ({
        ...k,
        last_used_at: undefined,
      })),
      upload: (await h.http.get(`${g}/uploads/${a.upload}`, t)).body.data,
      save: (await h.http.get(`${g}/preview/states/0?build=1`, t)).body.data,
      studio: (await h.http.get(`/v1/studio/studios/${studioA}`, t)).body.data,
    };
  };

  describe('refusals', () => {
    it("answers 404 to a member of another studio and to a player in none, on every route of studio A's game and of studio A", async () => {
      const before = await snapshot();
      for (const who of ['memberB', 'player'] as const) {
        for (const route of [...gameRoutes(), ...studioRoutes()]) {
          const res = await call(route, tokens[who]);
          expect(res.status, `${who} ${route.method} ${route.path}: ${res.text}`).toBe(404);
          expect(res.body.error.code).toBe('not_found');
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('answers 401 without a credential, and 403 to the admin routes for anyone but an operator', async () => {
      for (const route of [...gameRoutes(), ...studioRoutes(), ...adminRoutes()]) {
        const res = await call(route);
        expect(res.status, `${route.method} ${route.path}`).toBe(401);
      }
      const before = await snapshot();
      for (const who of ['memberA', 'ownerA', 'memberB', 'player'] as const) {
        for (const route of adminRoutes()) {
          const res = await call(route, tokens[who]);
          expect(res.status, `${who} ${route.method} ${route.path}`).toBe(403);
          expect(res.body.error.code).toBe('forbidden');
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it("refuses another game's developer key (403 forbidden), a key without the scope (403 insufficient_scope), and a key on a member's route", async () => {
      const before = await snapshot();
      for (const route of gameRoutes()) {
        const other = await call(route, tokens.keyB);
        expect(other.status, `keyB ${route.method} ${route.path}`).toBe(403);
        expect(other.body.error.code).toBe('forbidden');
        const unscoped = await call(route, tokens.keyAStates);
        expect(unscoped.status, `keyAStates ${route.method} ${route.path}`).toBe(403);
        expect(unscoped.body.error.code).toBe(route.scope ? 'insufficient_scope' : 'forbidden');
        if (!route.scope) {
          const own = await call(route, tokens.keyA);
          expect(own.status, `keyA ${route.method} ${route.path}`).toBe(403);
        }
      }
      for (const route of studioRoutes()) expect((await call(route, tokens.keyA)).status).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it("never reaches another studio's rows by a guessed id through its own game", async () => {
      const b = `/v1/studio/games/${gameB}`;
      const t = { token: tokens.memberB };
      expect((await h.http.delete(`${b}/keys/${a.keyId}`, t)).status).toBe(404);
      expect((await h.http.get(`${b}/uploads/${a.upload}`, t)).status).toBe(404);
      expect((await h.http.delete(`${b}/uploads/${a.upload}`, t)).status).toBe(404);
      const parts = await h.http.put(`${b}/uploads/${a.upload}/parts/1`, {
        ...t,
        body: Buffer.from('x'),
        contentType: 'application/octet-stream',
      });
      expect(parts.status).toBe(404);
      // B's own preview save of slot 0 is empty: A's member's save is not B's to read
      expect((await h.http.get(`${b}/preview/states/0?build=1`, t)).status).toBe(404);
      const keys = (await h.http.get(`/v1/studio/games/${a.slug}/keys`, { token: tokens.memberA })).body.data.keys;
      expect(keys.find((k: { id: number }) => k.id === a.keyId).revoked_at).toBeNull();
    });

    it("lists only the caller's own studios and games", async () => {
      const mine = await h.http.get('/v1/studio/games', { token: tokens.memberB });
      expect(mine.body.data.games.map((g: { slug: string }) => g.slug)).toEqual([gameB]);
      expect((await h.http.get('/v1/studio/games', { token: tokens.player })).body.data.games).toEqual([]);
      expect((await h.http.get('/v1/studio/studios', { token: tokens.player })).body.data.studios).toEqual([]);
    });
  });

  describe('who gets through', () => {
    it("lets A's members, its developer key (with the scope) and the operators read A's game and builds", async () => {
      for (const who of ['memberA', 'ownerA', 'staff', 'admin'] as const) {
        // a preview save is its member's own: the others' slot 0 is empty
        const reads = gameRoutes().filter(
          (r) => r.method === 'get' && (who === 'memberA' || !r.path.includes('/states/0')),
        );
        for (const route of reads) {
          const res = await call(route, tokens[who]);
          expect(res.status, `${who} ${route.method} ${route.path}: ${res.text}`).toBe(200);
        }
      }
      for (const route of gameRoutes().filter((r) => r.method === 'get' && r.scope))
        expect((await call(route, tokens.keyA)).status, route.path).toBe(200);
    });

    it("lets A's developer change A's game, and the developer key release and roll back", async () => {
      const g = `/v1/studio/games/${a.slug}`;
      const t = { token: tokens.memberA };
      expect((await h.http.patch(g, { ...t, body: { tagline: 'New line' } })).status).toBe(200);
      expect((await h.http.put(`${g}/cover`, { ...t, body: a.png, contentType: 'image/png' })).status).toBe(200);
      expect((await h.http.post(`${g}/keys`, { ...t, body: { scopes: ['stats:read'] } })).status).toBe(201);
      expect((await h.http.post(`${g}/builds/1/preview`, t)).status).toBe(201);
      expect((await h.http.post(`${g}/builds/1/release`, { token: tokens.keyA })).status).toBe(200);
      expect((await h.http.post(`${g}/rollback`, { token: tokens.keyA })).body.error?.code).toBe('no_previous_build');
    });

    it('lets an operator act on any studio and game', async () => {
      const t = { token: tokens.staff };
      expect((await h.http.get(`/v1/studio/studios/${studioA}`, t)).body.data.role).toBe('operator');
      expect((await h.http.patch(`/v1/studio/games/${gameB}`, { ...t, body: { tagline: 'By staff' } })).status).toBe(
        200,
      );
      expect((await h.http.get('/v1/admin/studios', { token: tokens.admin })).status).toBe(200);
    });
  });
});
