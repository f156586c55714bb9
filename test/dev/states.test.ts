// The save-state routes under /dev: the general state routes with the player in the path, same rules and answers.
import { describe, expect, it } from 'vitest';
import { createPlaySession } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { slotUrl } from '../states/fixtures.js';
import { devUrl, expectError, gameWithPlayer } from './fixtures.js';

eachDialect('dev: save states', (h) => {
  describe('dev: GET /dev/games/{slug}/players/{id}/states', () => {
    it('lists the stored states without payloads, as the general route does for the key', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const w = await gameWithPlayer(h);
      await h.http.put(slotUrl(w.game.slug, 2), { token: w.token, body: { state: { hp: 3 }, label: 'Boss' } });
      h.clock.advance(60);
      await h.http.put(slotUrl(w.game.slug, 0), { token: w.token, body: { state: [1, 2] } });
      const res = await h.http.get(devUrl.states(w.game.slug, w.player.id), { token: w.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: true,
        data: {
          states: [
            {
              slot: 0,
              label: null,
              version: 1,
              size_bytes: 5,
              created_at: '2026-11-21 10:01:00',
              updated_at: '2026-11-21 10:01:00',
            },
            {
              slot: 2,
              label: 'Boss',
              version: 1,
              size_bytes: 8,
              created_at: '2026-11-21 10:00:00',
              updated_at: '2026-11-21 10:00:00',
            },
          ],
        },
        meta: { save_slots: 3 },
      });
      const general = await h.http.get(`/v1/games/${w.game.slug}/states`, {
        token: w.key,
        query: { player_id: w.player.id },
      });
      expect(res.body).toEqual(general.body);
      const explicit = await h.http.get(devUrl.states(w.game.slug, w.player.id), {
        token: w.key,
        query: { include_state: false },
      });
      expect(explicit.body).toEqual(res.body);
    });

    it('adds each payload with include_state=true, exactly as saved, null included', async () => {
      const w = await gameWithPlayer(h);
      const bodies = [
        '{"state":{"nested":{"list":[1,"two",{"three":true}]},"__proto__":{"kept":1}}}',
        '{"state":null}',
        '{"state":"text"}',
      ];
      for (const [slot, body] of bodies.entries()) {
        expect(
          (await h.http.put(slotUrl(w.game.slug, slot), { token: w.token, body, contentType: 'application/json' }))
            .status,
        ).toBe(201);
      }
      const res = await h.http.get(devUrl.states(w.game.slug, w.player.id), {
        token: w.key,
        query: { include_state: true },
      });
      expect(res.status).toBe(200);
      expect(res.text).toContain('"state":{"nested":{"list":[1,"two",{"three":true}]},"__proto__":{"kept":1}}');
      expect(res.body.data.states.map((s: { slot: number; state: unknown }) => [s.slot, s.state])).toEqual([
        [0, expect.objectContaining({ nested: { list: [1, 'two', { three: true }] } })],
        [1, null],
        [2, 'text'],
      ]);
      expect(Object.keys(res.body.data.states[0])).toEqual([
        'slot',
        'label',
        'version',
        'size_bytes',
        'state',
        'created_at',
        'updated_at',
      ]);
      for (const slot of [0, 1, 2]) {
        const one = await h.http.get(slotUrl(w.game.slug, slot), { token: w.token });
        expect(res.body.data.states[slot]).toEqual(one.body.data.state);
      }
    });

    it('writes a deeply nested state back whole (past the depth JSON.stringify can handle)', async () => {
      const w = await gameWithPlayer(h);
      const depth = 20_000;
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const saved = await h.http.put(slotUrl(w.game.slug, 1), {
        token: w.token,
        body: `{"state":${deep}}`,
        contentType: 'application/json',
      });
      expect(saved.status).toBe(201);
      const res = await h.http.get(devUrl.states(w.game.slug, w.player.id), {
        token: w.key,
        query: { include_state: 'true' },
      });
      expect(res.status).toBe(200);
      expect(res.text).toContain(`"state":${deep}`);
    });

    it('lists nothing for a player of the game without states, and refuses include_state that is not a boolean', async () => {
      const w = await gameWithPlayer(h);
      const res = await h.http.get(devUrl.states(w.game.slug, w.player.id), { token: w.key });
      expect(res.body).toEqual({ ok: true, data: { states: [] }, meta: { save_slots: 3 } });
      const bad = await h.http.get(devUrl.states(w.game.slug, w.player.id), {
        token: w.key,
        query: { include_state: 'maybe' },
      });
      expectError(bad, 422, 'validation_failed');
      expect(bad.body.error.fields).toHaveProperty('include_state');
    });

    it('answers 404 for draft and retired games, as the general routes do', async () => {
      for (const status of ['draft', 'retired']) {
        const w = await gameWithPlayer(h, { status });
        expectError(await h.http.get(devUrl.states(w.game.slug, w.player.id), { token: w.key }), 404, 'not_found');
        expectError(
          await h.http.put(devUrl.state(w.game.slug, w.player.id, 0), { token: w.key, body: { state: 1 } }),
          404,
          'not_found',
        );
      }
    });
  });

  describe('dev: PUT /dev/games/{slug}/players/{id}/states/{slot}', () => {
    it("saves into the player's slot: 201 first, then 200 with the next version; the player reads it", async () => {
      const w = await gameWithPlayer(h);
      const url = devUrl.state(w.game.slug, w.player.id, 1);
      const first = await h.http.put(url, { token: w.key, body: { state: { level: 4 }, label: 'Forest' } });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ ok: true, data: { slot: 1, version: 1, size_bytes: 11, created: true } });
      const second = await h.http.put(url, { token: w.key, body: { state: { level: 5 }, expected_version: 1 } });
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ slot: 1, version: 2, size_bytes: 11, created: false });
      const mine = await h.http.get(slotUrl(w.game.slug, 1), { token: w.token });
      expect(mine.body.data.state).toMatchObject({ version: 2, label: 'Forest', state: { level: 5 } });
    });

    it('answers a stale expected_version with 409 version_conflict and current_version, writing nothing', async () => {
      const w = await gameWithPlayer(h);
      const url = devUrl.state(w.game.slug, w.player.id, 0);
      await h.http.put(url, { token: w.key, body: { state: 'a' } });
      for (const [expected, current] of [
        [0, 1],
        [2, 1],
      ]) {
        const res = await h.http.put(url, { token: w.key, body: { state: 'b', expected_version: expected } });
        expectError(res, 409, 'version_conflict');
        expect(res.body.error.current_version).toBe(current);
      }
      expect((await h.http.get(slotUrl(w.game.slug, 0), { token: w.token })).body.data.state.state).toBe('a');
    });

    it('answers a state over 262,144 bytes with 413 state_too_large, and exactly 262,144 with 201', async () => {
      const w = await gameWithPlayer(h);
      const fits = 'x'.repeat(262_144 - 2);
      expect(
        (await h.http.put(devUrl.state(w.game.slug, w.player.id, 0), { token: w.key, body: { state: fits } })).status,
      ).toBe(201);
      const res = await h.http.put(devUrl.state(w.game.slug, w.player.id, 1), {
        token: w.key,
        body: { state: `${fits}x` },
      });
      expectError(res, 413, 'state_too_large');
      expect(res.body.error).toMatchObject({ size_bytes: 262_145, max_bytes: 262_144 });
    });

    it('refuses player_id in the body, a missing state, unknown fields and a slot out of range with 422', async () => {
      const w = await gameWithPlayer(h);
      const put = (slot: number | string, body: unknown) =>
        h.http.put(devUrl.state(w.game.slug, w.player.id, slot), { token: w.key, body });
      const cases: Array<[number | string, unknown, string]> = [
        [0, { state: 1, player_id: w.player.id }, 'player_id'],
        [0, { label: 'no state' }, 'state'],
        [0, { state: 1, colour: 'red' }, 'colour'],
        [0, { state: 1, label: 'x'.repeat(81) }, 'label'],
        [3, { state: 1 }, 'slot'],
        ['x', { state: 1 }, 'slot'],
      ];
      for (const [slot, body, field] of cases) {
        const res = await put(slot, body);
        expectError(res, 422, 'validation_failed');
        expect(res.body.error.fields, JSON.stringify(body)).toHaveProperty(field);
      }
      expect(await h.ctx.db.selectFrom('save_states').selectAll().where('game_id', '=', w.game.id).execute()).toEqual(
        [],
      );
    });

    it("keeps each player's slots apart: a save for one player is not another's", async () => {
      const w = await gameWithPlayer(h);
      const other = await gameWithPlayer(h);
      await createPlaySession(h.ctx, other.player.id, w.game.id);
      await h.http.put(devUrl.state(w.game.slug, w.player.id, 0), { token: w.key, body: { state: 'mine' } });
      await h.http.put(devUrl.state(w.game.slug, other.player.id, 0), { token: w.key, body: { state: 'theirs' } });
      const mine = await h.http.get(devUrl.states(w.game.slug, w.player.id), {
        token: w.key,
        query: { include_state: true },
      });
      expect(mine.body.data.states.map((s: { state: unknown }) => s.state)).toEqual(['mine']);
      expect((await h.http.get(slotUrl(w.game.slug, 0), { token: other.token })).body.data.state.state).toBe('theirs');
    });

    it('answers a game without save slots with 422 for every slot', async () => {
      const w = await gameWithPlayer(h, { save_slots: 0 });
      const res = await h.http.put(devUrl.state(w.game.slug, w.player.id, 0), { token: w.key, body: { state: 1 } });
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.fields.slot).toBe('this game has no save slots');
      expect((await h.http.get(devUrl.states(w.game.slug, w.player.id), { token: w.key })).body.meta).toEqual({
        save_slots: 0,
      });
    });
  });
});
