// Who may act for whom on save states (docs/api.md, "Save states"): player credentials, cookies, developer keys.
import { describe, expect, it } from 'vitest';
import {
  createGame,
  createKey,
  createPlayer,
  createPlayerWithToken,
  createPlaySession,
  createToken,
} from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import type { Response } from '../helpers/request.js';
import { gameAndPlayer, keyAndPlayerOf } from './fixtures.js';

eachDialect('states: access', (h) => {
  /** One call of each route for a credential, with player_id where the caller names one. */
  function everyRoute(w: { list: string; slot: (n: number) => string }, token: string, playerId?: number) {
    const query = playerId === undefined ? undefined : { player_id: playerId };
    const body = playerId === undefined ? { state: 1 } : { state: 1, player_id: playerId };
    return {
      list: () => h.http.get(w.list, { token, query }),
      get: () => h.http.get(w.slot(0), { token, query }),
      put: () => h.http.put(w.slot(0), { token, body }),
      delete: () => h.http.delete(w.slot(0), { token, query }),
    };
  }

  async function callAll(calls: ReturnType<typeof everyRoute>): Promise<Response[]> {
    return [await calls.list(), await calls.get(), await calls.put(), await calls.delete()];
  }

  function expectError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  }

  describe('states: player credentials', () => {
    it('answers a call without a credential with 401', async () => {
      const w = await gameAndPlayer(h);
      for (const res of [
        await h.http.get(w.list),
        await h.http.get(w.slot(0)),
        await h.http.put(w.slot(0), { body: { state: 1 } }),
        await h.http.delete(w.slot(0)),
      ]) {
        expectError(res, 401, 'unauthenticated');
      }
    });

    it('answers a player token naming another player with 403 forbidden on every route, writing nothing', async () => {
      const w = await gameAndPlayer(h);
      const other = await createPlayerWithToken(h.ctx);
      await h.http.put(w.slot(0), { token: other.token, body: { state: 'theirs' } });
      for (const res of await callAll(everyRoute(w, w.token, other.player.id))) expectError(res, 403, 'forbidden');
      for (const res of await callAll(everyRoute(w, w.token, 2_000_000_000))) expectError(res, 403, 'forbidden');
      expect((await h.http.get(w.slot(0), { token: other.token })).body.data.state).toMatchObject({
        version: 1,
        state: 'theirs',
      });
    });

    it('accepts a player token naming its own player', async () => {
      const w = await gameAndPlayer(h);
      const [list, , put, del] = await callAll(everyRoute(w, w.token, w.player.id));
      expect(list!.status).toBe(200);
      expect(put!.status).toBe(201);
      expect(del!.body.data.deleted).toBe(true);
    });

    it('refuses an expired or revoked player token with 401', async () => {
      const w = await gameAndPlayer(h);
      const revoked = await createToken(h.ctx, w.player.id, { revoked: true });
      expectError(await h.http.get(w.list, { token: revoked.token }), 401, 'unauthenticated');
      const short = await createToken(h.ctx, w.player.id, { ttlSeconds: 60 });
      h.clock.advance(61);
      expectError(await h.http.put(w.slot(0), { token: short.token, body: { state: 1 } }), 401, 'unauthenticated');
    });

    it('takes the portal session with X-Requested-With and refuses it without (403 csrf_rejected)', async () => {
      const w = await gameAndPlayer(h);
      const cookies = { gp_session: h.app.signCookie(w.token) };
      const sdk = { 'x-requested-with': 'ServiceSDK' };
      const saved = await h.http.put(w.slot(0), { cookies, headers: sdk, body: { state: 'shell' } });
      expect(saved.status).toBe(201);
      expect((await h.http.get(w.slot(0), { cookies, headers: sdk })).body.data.state.state).toBe('shell');
      for (const res of [
        await h.http.get(w.list, { cookies }),
        await h.http.get(w.slot(0), { cookies }),
        await h.http.put(w.slot(0), { cookies, body: { state: 'forged' } }),
        await h.http.delete(w.slot(0), { cookies }),
      ]) {
        expectError(res, 403, 'csrf_rejected');
      }
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state).toMatchObject({
        version: 1,
        state: 'shell',
      });
    });
  });

  describe('states: developer keys', () => {
    it("acts for a player of its game with player_id, on the player's own states", async () => {
      const w = await gameAndPlayer(h);
      const { player, token, key } = await keyAndPlayerOf(h, w.game.id);
      const calls = everyRoute(w, key, player.id);
      expect((await calls.put()).status).toBe(201);
      expect((await h.http.get(w.slot(0), { token })).body.data.state).toMatchObject({ version: 1, state: 1 });
      await h.http.put(w.slot(1), { token, body: { state: 'from the player', label: 'p' } });
      const list = await calls.list();
      expect(list.status).toBe(200);
      expect(list.body.data.states.map((s: { slot: number }) => s.slot)).toEqual([0, 1]);
      expect(list.body.meta).toEqual({ save_slots: 3 });
      expect((await h.http.get(w.slot(1), { token: key, query: { player_id: player.id } })).body.data.state.state).toBe(
        'from the player',
      );
      const again = await h.http.put(w.slot(0), {
        token: key,
        body: { state: 2, player_id: player.id, expected_version: 1 },
      });
      expect(again.body.data).toMatchObject({ version: 2, created: false });
      expect((await calls.delete()).body.data).toEqual({ deleted: true });
      expect((await calls.get()).status).toBe(404);
    });

    it('requires player_id (422) on every route', async () => {
      const w = await gameAndPlayer(h);
      const { key } = await keyAndPlayerOf(h, w.game.id);
      for (const res of await callAll(everyRoute(w, key))) {
        expectError(res, 422, 'validation_failed');
        expect(res.body.error.fields).toEqual({ player_id: 'is required with a developer key' });
      }
    });

    it('reads player_id of PUT from the body, not the query string', async () => {
      const w = await gameAndPlayer(h);
      const { player, key } = await keyAndPlayerOf(h, w.game.id);
      const res = await h.http.put(w.slot(0), { token: key, query: { player_id: player.id }, body: { state: 1 } });
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.fields).toHaveProperty('player_id');
    });

    it.each([['0'], ['-3'], ['abc'], ['1.5'], ['3000000000']])('refuses player_id %s with 422', async (id) => {
      const w = await gameAndPlayer(h);
      const { key } = await keyAndPlayerOf(h, w.game.id);
      const res = await h.http.get(w.list, { token: key, query: { player_id: id } });
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.fields).toHaveProperty('player_id');
    });

    it('needs states:read to read and states:write to write (403 insufficient_scope)', async () => {
      const w = await gameAndPlayer(h);
      const { player, key: both } = await keyAndPlayerOf(h, w.game.id);
      await h.http.put(w.slot(0), { token: both, body: { state: 'kept', player_id: player.id } });
      const reader = (await createKey(h.ctx, w.game.id, ['states:read'])).key;
      const writer = (await createKey(h.ctx, w.game.id, ['states:write'])).key;
      const neither = (await createKey(h.ctx, w.game.id, ['scores:write', 'players:read', 'stats:read'])).key;

      const read = everyRoute(w, reader, player.id);
      expect((await read.list()).status).toBe(200);
      expect((await read.get()).status).toBe(200);
      for (const res of [await read.put(), await read.delete()]) {
        expectError(res, 403, 'insufficient_scope');
        expect(res.body.error.required_scope).toBe('states:write');
      }

      const write = everyRoute(w, writer, player.id);
      for (const res of [await write.list(), await write.get()]) {
        expectError(res, 403, 'insufficient_scope');
        expect(res.body.error.required_scope).toBe('states:read');
      }

      for (const res of await callAll(everyRoute(w, neither, player.id))) expectError(res, 403, 'insufficient_scope');
      expect((await read.get()).body.data.state).toMatchObject({ version: 1, state: 'kept' });

      expect((await write.put()).status).toBe(200);
      expect((await write.delete()).body.data.deleted).toBe(true);
    });

    it("answers another game's key with 403 forbidden, even for a player of both games", async () => {
      const w = await gameAndPlayer(h);
      const otherGame = await createGame(h.ctx);
      const { player, key } = await keyAndPlayerOf(h, otherGame.id);
      await createPlaySession(h.ctx, player.id, w.game.id);
      for (const res of await callAll(everyRoute(w, key, player.id))) expectError(res, 403, 'forbidden');
    });

    it('answers 404 not_found for a player who has not played the game, an unknown player, and a suspended one', async () => {
      const w = await gameAndPlayer(h);
      const { key } = await keyAndPlayerOf(h, w.game.id);
      const stranger = await createPlayer(h.ctx);
      const elsewhere = await createPlayer(h.ctx);
      await createPlaySession(h.ctx, elsewhere.id, (await createGame(h.ctx)).id);
      const suspended = await createPlayer(h.ctx, { status: 'suspended' });
      await createPlaySession(h.ctx, suspended.id, w.game.id);
      for (const id of [stranger.id, elsewhere.id, suspended.id, 2_000_000_000]) {
        for (const res of await callAll(everyRoute(w, key, id))) expectError(res, 404, 'not_found');
      }
      expect(await h.ctx.db.selectFrom('save_states').selectAll().where('game_id', '=', w.game.id).execute()).toEqual(
        [],
      );
    });

    it('counts a player with an active play session as a player of the game', async () => {
      const w = await gameAndPlayer(h);
      const { key } = await createKey(h.ctx, w.game.id, ['states:write']);
      const player = await createPlayer(h.ctx);
      await createPlaySession(h.ctx, player.id, w.game.id, { status: 'active' });
      expect((await h.http.put(w.slot(0), { token: key, body: { state: 1, player_id: player.id } })).status).toBe(201);
    });

    it('refuses a revoked key with 401', async () => {
      const w = await gameAndPlayer(h);
      const { player } = await keyAndPlayerOf(h, w.game.id);
      const { key } = await createKey(h.ctx, w.game.id, ['states:read', 'states:write'], { revoked: true });
      for (const res of await callAll(everyRoute(w, key, player.id))) expectError(res, 401, 'unauthenticated');
    });

    it('answers a key on an unknown or draft game with 404 not_found', async () => {
      const draft = await createGame(h.ctx, { status: 'draft' });
      const { player, key } = await keyAndPlayerOf(h, draft.id);
      for (const slug of [draft.slug, 'no-such-game']) {
        const res = await h.http.get(`/v1/games/${slug}/states`, { token: key, query: { player_id: player.id } });
        expectError(res, 404, 'not_found');
      }
    });
  });
});
