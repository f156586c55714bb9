// The authorization matrix of every /dev route (docs/backend-developers.md, "Rules"): only a developer key of the game, with
// the route's scope, acting for a player of the game.
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/http/auth.js';
import { createGame, createKey, createPlayer, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import type { CallOptions, Response } from '../helpers/request.js';
import { devUrl, expectError, gameWithPlayer, keyWith } from './fixtures.js';

interface RouteCase {
  route: string;
  scope: Scope;
  status: number;
  /** false for /dev/players/{id}…, whose game is the key's own */
  namesGame: boolean;
  /** false for the stats, which name no player */
  namesPlayer: boolean;
  call: (h: Harness, auth: CallOptions, slug: string, id: number | string) => Promise<Response>;
}

const ROUTES: RouteCase[] = [
  {
    route: 'GET /dev/players/{id}',
    scope: 'players:read',
    status: 200,
    namesGame: false,
    namesPlayer: true,
    call: (h, a, _s, id) => h.http.get(devUrl.player(id), a),
  },
  {
    route: 'GET /dev/players/{id}/entitlement',
    scope: 'players:read',
    status: 200,
    namesGame: false,
    namesPlayer: true,
    call: (h, a, _s, id) => h.http.get(devUrl.entitlement(id), a),
  },
  {
    route: 'GET /dev/games/{slug}/players/{id}/states',
    scope: 'states:read',
    status: 200,
    namesGame: true,
    namesPlayer: true,
    call: (h, a, s, id) => h.http.get(devUrl.states(s, id), { ...a, query: { include_state: true } }),
  },
  {
    route: 'PUT /dev/games/{slug}/players/{id}/states/{slot}',
    scope: 'states:write',
    status: 201,
    namesGame: true,
    namesPlayer: true,
    call: (h, a, s, id) => h.http.put(devUrl.state(s, id, 0), { ...a, body: { state: { level: 1 } } }),
  },
  {
    route: 'POST /dev/games/{slug}/players/{id}/scores',
    scope: 'scores:write',
    status: 201,
    namesGame: true,
    namesPlayer: true,
    call: (h, a, s, id) => h.http.post(devUrl.scores(s, id), { ...a, body: { score: 10 } }),
  },
  {
    route: 'GET /dev/games/{slug}/stats',
    scope: 'stats:read',
    status: 200,
    namesGame: true,
    namesPlayer: false,
    call: (h, a, s) => h.http.get(devUrl.stats(s), a),
  },
];

eachDialect('dev: authorization', (h) => {
  const sdk = { 'x-requested-with': 'ServiceSDK' };

  describe.each(ROUTES)('$route', (r) => {
    let w: Awaited<ReturnType<typeof gameWithPlayer>>;
    const call = (auth: CallOptions, id: number | string = w.player.id, slug = w.game.slug) =>
      r.call(h, auth, slug, id);
    /** What a refused call must leave as it was: the game's save states and scores. */
    const stored = async () => ({
      states: await h.ctx.db.selectFrom('save_states').selectAll().where('game_id', '=', w.game.id).execute(),
      scores: await h.ctx.db.selectFrom('scores').selectAll().where('game_id', '=', w.game.id).execute(),
    });

    beforeAll(async () => {
      w = await gameWithPlayer(h);
    });

    it('answers a call without a credential with 401 unauthenticated', async () => {
      expectError(await call({}), 401, 'unauthenticated');
    });

    it("answers the player's own token with 403 forbidden", async () => {
      expectError(await call({ token: w.token }), 403, 'forbidden');
    });

    it('answers a portal session with 403 forbidden, and with 403 csrf_rejected without X-Requested-With', async () => {
      const cookies = { gp_session: h.app.signCookie(w.token) };
      expectError(await call({ cookies, headers: sdk }), 403, 'forbidden');
      expectError(await call({ cookies }), 403, 'csrf_rejected');
    });

    it('answers a revoked key with 401 unauthenticated', async () => {
      const { key } = await createKey(h.ctx, w.game.id, [...SCOPES], { revoked: true });
      expectError(await call({ token: key }), 401, 'unauthenticated');
    });

    it(`answers a key without ${r.scope} with 403 insufficient_scope naming it`, async () => {
      const key = await keyWith(
        h,
        w.game.id,
        SCOPES.filter((s) => s !== r.scope),
      );
      const res = await call({ token: key });
      expectError(res, 403, 'insufficient_scope');
      expect(res.body.error.required_scope).toBe(r.scope);
    });

    it(`admits a key of the game with only ${r.scope}`, async () => {
      const key = await keyWith(h, w.game.id, [r.scope]);
      const res = await call({ token: key });
      expect(res.status, res.text).toBe(r.status);
      expect(res.body.ok).toBe(true);
    });

    if (r.namesGame) {
      it('answers a key of another game with 403 forbidden, even for a player of both games', async () => {
        const other = await createGame(h.ctx);
        await createPlaySession(h.ctx, w.player.id, other.id);
        const key = await keyWith(h, other.id, [...SCOPES]);
        expectError(await call({ token: key }), 403, 'forbidden');
      });

      it('answers an unknown game with 404 not_found', async () => {
        expectError(await call({ token: w.key }, w.player.id, 'no-such-game'), 404, 'not_found');
      });
    } else {
      it("answers another game's key with 404 not_found for a player who has not played that game", async () => {
        const other = await createGame(h.ctx);
        const key = await keyWith(h, other.id, [...SCOPES]);
        expectError(await call({ token: key }), 404, 'not_found');
        await createPlaySession(h.ctx, w.player.id, other.id);
        expect((await call({ token: key })).status).toBe(200);
      });
    }

    if (r.namesPlayer) {
      it('answers 404 not_found for a player who has not played the game, a player of another game, a suspended player and an unknown id', async () => {
        const stranger = await createPlayerWithToken(h.ctx);
        const elsewhere = await createPlayer(h.ctx);
        await createPlaySession(h.ctx, elsewhere.id, (await createGame(h.ctx)).id);
        const suspended = await createPlayer(h.ctx, { status: 'suspended' });
        await createPlaySession(h.ctx, suspended.id, w.game.id);
        for (const id of [stranger.player.id, elsewhere.id, suspended.id, 2_000_000_000]) {
          const res = await call({ token: w.key }, id);
          expectError(res, 404, 'not_found');
          expect(res.body.error.message).toBe('No such player of this game');
        }
      });

      it.each(['abc', '1.5', '0', '-4', '2147483648', '12abc'])(
        'answers the id %s with 422 validation_failed',
        async (id) => {
          const res = await call({ token: w.key }, id);
          expectError(res, 422, 'validation_failed');
          expect(Object.keys(res.body.error.fields)).toEqual(['id']);
        },
      );
    }

    it('stores nothing when it refuses', async () => {
      const before = await stored();
      const other = await createGame(h.ctx);
      const refused = [
        {},
        { token: w.token },
        {
          token: await keyWith(
            h,
            w.game.id,
            SCOPES.filter((s) => s !== r.scope),
          ),
        },
        { token: await keyWith(h, other.id, [...SCOPES]) },
      ];
      for (const auth of refused) expect((await call(auth)).status).toBeGreaterThanOrEqual(400);
      expect(await stored()).toEqual(before);
    });
  });
});
