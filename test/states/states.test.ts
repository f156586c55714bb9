// Save-state rules (docs/api.md, "Save states") with a player token: versions, labels, slots, games, bad input.
import { describe, expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { gameAndPlayer, slotUrl, statesUrl, storedRow } from './fixtures.js';
import { dereferenced } from '../helpers/openapi.js';

eachDialect('states: rules', (h) => {
  describe('states: PUT', () => {
    it('saves into an empty slot with 201, version 1 and created true', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: { level: 3 } } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ok: true, data: { slot: 0, version: 1, size_bytes: 11, created: true } });
    });

    it('answers 200 with the next version and created false on later saves', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(1), { token: w.token, body: { state: 1 } });
      const second = await h.http.put(w.slot(1), { token: w.token, body: { state: 'two' } });
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ slot: 1, version: 2, size_bytes: 5, created: false });
      const third = await h.http.put(w.slot(1), { token: w.token, body: { state: [3] } });
      expect(third.body.data).toMatchObject({ version: 3, created: false });
      expect((await h.http.get(w.slot(1), { token: w.token })).body.data.state).toMatchObject({
        version: 3,
        state: [3],
      });
    });

    it('saves over the stored version when expected_version matches', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'a' } });
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 'b', expected_version: 1 } });
      expect(res.status).toBe(200);
      expect(res.body.data.version).toBe(2);
    });

    it('rejects a stale expected_version with 409 and current_version, writing nothing', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'a', label: 'first' } });
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'b' } });
      const before = await storedRow(h, w.player.id, w.game.id, 0);
      h.clock.advance(10);
      for (const stale of [1, 3, 99]) {
        const res = await h.http.put(w.slot(0), {
          token: w.token,
          body: { state: 'c', label: 'other', expected_version: stale },
        });
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'version_conflict', current_version: 2 });
      }
      expect(await storedRow(h, w.player.id, w.game.id, 0)).toEqual(before);
    });

    it('takes expected_version 0 as "only if empty"', async () => {
      const w = await gameAndPlayer(h);
      const first = await h.http.put(w.slot(2), { token: w.token, body: { state: 'x', expected_version: 0 } });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ version: 1, created: true });
      const again = await h.http.put(w.slot(2), { token: w.token, body: { state: 'y', expected_version: 0 } });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'version_conflict', current_version: 1 });
      expect((await h.http.get(w.slot(2), { token: w.token })).body.data.state.state).toBe('x');
    });

    it('answers 409 with current_version 0 when a version is expected of an empty slot', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 'x', expected_version: 1 } });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'version_conflict', current_version: 0 });
      expect(await storedRow(h, w.player.id, w.game.id, 0)).toBeUndefined();
    });

    it('keeps created_at from the first save and moves updated_at with each save', async () => {
      h.clock.set('2026-11-21T09:30:00Z');
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 1 } });
      h.clock.set('2026-11-21T10:45:30Z');
      await h.http.put(w.slot(0), { token: w.token, body: { state: 2 } });
      const state = (await h.http.get(w.slot(0), { token: w.token })).body.data.state;
      expect(state).toMatchObject({ created_at: '2026-11-21 09:30:00', updated_at: '2026-11-21 10:45:30' });
    });
  });

  describe('states: labels', () => {
    it('has no label unless one is sent, keeps it when absent, clears it with null', async () => {
      const w = await gameAndPlayer(h);
      const label = async () => (await h.http.get(w.slot(0), { token: w.token })).body.data.state.label;
      await h.http.put(w.slot(0), { token: w.token, body: { state: 1 } });
      expect(await label()).toBeNull();
      await h.http.put(w.slot(0), { token: w.token, body: { state: 2, label: 'Castle, room 4' } });
      expect(await label()).toBe('Castle, room 4');
      await h.http.put(w.slot(0), { token: w.token, body: { state: 3 } });
      expect(await label()).toBe('Castle, room 4');
      await h.http.put(w.slot(0), { token: w.token, body: { state: 4, label: null } });
      expect(await label()).toBeNull();
      await h.http.put(w.slot(0), { token: w.token, body: { state: 5, label: '' } });
      expect(await label()).toBe('');
    });

    it('accepts 80 characters (counted as characters, not UTF-16 units) and refuses 81 with 422', async () => {
      const w = await gameAndPlayer(h);
      for (const ok of ['x'.repeat(80), '🎮'.repeat(80)]) {
        const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 1, label: ok } });
        expect(res.status).toBeLessThan(300);
        expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state.label).toBe(ok);
      }
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 2, label: 'x'.repeat(81) } });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields).toHaveProperty('label');
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state).toMatchObject({ version: 2, state: 1 });
    });

    it('refuses a label that is not a string', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 1, label: 5 } });
      expect(res.status).toBe(422);
      expect(res.body.error.fields).toHaveProperty('label');
    });
  });

  describe('states: bad input', () => {
    it('refuses a body without state (null is a value, absence is not)', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body: { label: 'no state' } });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', fields: { state: 'is required' } });
      const empty = await h.http.put(w.slot(0), { token: w.token, body: '', contentType: 'application/json' });
      expect(empty.status).toBe(422);
      expect(await storedRow(h, w.player.id, w.game.id, 0)).toBeUndefined();
    });

    it.each([
      ['a negative expected_version', { state: 1, expected_version: -1 }, 'expected_version'],
      ['a fractional expected_version', { state: 1, expected_version: 1.5 }, 'expected_version'],
      ['a string expected_version', { state: 1, expected_version: '1' }, 'expected_version'],
      ['a null expected_version', { state: 1, expected_version: null }, 'expected_version'],
      ['a string player_id', { state: 1, player_id: '7' }, 'player_id'],
      ['an unknown field', { state: 1, slot: 2 }, 'slot'],
      ['a body that is an array', [1], 'body'],
    ])('refuses %s with 422', async (_what, body, field) => {
      const w = await gameAndPlayer(h);
      const res = await h.http.put(w.slot(0), { token: w.token, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields).toHaveProperty(field);
    });

    it('refuses unparseable JSON with 400 and a non-JSON body with 415', async () => {
      const w = await gameAndPlayer(h);
      const broken = await h.http.put(w.slot(0), {
        token: w.token,
        body: '{"state": ',
        contentType: 'application/json',
      });
      expect(broken.status).toBe(400);
      expect(broken.body.error.code).toBe('invalid_json');
      const text = await h.http.put(w.slot(0), { token: w.token, body: 'state=1', contentType: 'text/plain' });
      expect(text.status).toBe(415);
      expect(text.body.error.code).toBe('unsupported_media_type');
    });

    it('refuses a __proto__ field next to state, while keeping such keys inside the state', async () => {
      const w = await gameAndPlayer(h);
      const outside = await h.http.put(w.slot(0), {
        token: w.token,
        body: '{"state":1,"__proto__":{"admin":true}}',
        contentType: 'application/json',
      });
      expect(outside.status).toBe(422);
      expect(outside.body.error.fields).toHaveProperty('__proto__');
      const inside = '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}';
      const saved = await h.http.put(w.slot(0), {
        token: w.token,
        body: `{"state":${inside}}`,
        contentType: 'application/json',
      });
      expect(saved.status).toBe(201);
      const read = await h.http.get(w.slot(0), { token: w.token });
      expect(read.text).toContain(`"state":${inside}`);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  });

  describe('states: slots and games', () => {
    it.each(['abc', '1.5', '-1', '3', '99999999999999999999', '1e400'])(
      'refuses slot %s of a 3-slot game with 422 on every route',
      async (slot) => {
        const w = await gameAndPlayer(h);
        for (const res of [
          await h.http.get(w.slot(slot), { token: w.token }),
          await h.http.put(w.slot(slot), { token: w.token, body: { state: 1 } }),
          await h.http.delete(w.slot(slot), { token: w.token }),
        ]) {
          expect(res.status).toBe(422);
          expect(res.body.error.code).toBe('validation_failed');
          expect(res.body.error.fields).toHaveProperty('slot');
        }
      },
    );

    it('accepts the last slot, save_slots - 1', async () => {
      const w = await gameAndPlayer(h, { save_slots: 5 });
      expect((await h.http.put(w.slot(4), { token: w.token, body: { state: 1 } })).status).toBe(201);
    });

    it('has no valid slot in a game with save_slots 0, and lists nothing', async () => {
      const w = await gameAndPlayer(h, { save_slots: 0 });
      const res = await h.http.put(w.slot(0), { token: w.token, body: { state: 1 } });
      expect(res.status).toBe(422);
      expect(res.body.error.fields.slot).toBe('this game has no save slots');
      expect((await h.http.get(w.slot(0), { token: w.token })).status).toBe(422);
      expect((await h.http.delete(w.slot(0), { token: w.token })).status).toBe(422);
      const list = await h.http.get(w.list, { token: w.token });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ ok: true, data: { states: [] }, meta: { save_slots: 0 } });
    });

    it('answers unknown, draft and retired games with 404 not_found on every route', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      const draft = await createGame(h.ctx, { status: 'draft' });
      const retired = await createGame(h.ctx, { status: 'retired' });
      for (const slug of ['no-such-game', draft.slug, retired.slug]) {
        for (const res of [
          await h.http.get(statesUrl(slug), { token }),
          await h.http.get(slotUrl(slug, 0), { token }),
          await h.http.put(slotUrl(slug, 0), { token, body: { state: 1 } }),
          await h.http.delete(slotUrl(slug, 0), { token }),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body.error.code).toBe('not_found');
        }
      }
    });

    it('serves beta games like published ones', async () => {
      const w = await gameAndPlayer(h, { status: 'beta' });
      expect((await h.http.put(w.slot(0), { token: w.token, body: { state: 1 } })).status).toBe(201);
    });

    it('keeps states of slots a game no longer has out of sight, and shows them again when the slots return', async () => {
      const w = await gameAndPlayer(h, { save_slots: 3 });
      await h.http.put(w.slot(2), { token: w.token, body: { state: 'kept' } });
      await h.ctx.db.updateTable('games').set({ save_slots: 2 }).where('id', '=', w.game.id).execute();
      expect((await h.http.get(w.list, { token: w.token })).body.data.states).toEqual([]);
      expect((await h.http.get(w.slot(2), { token: w.token })).status).toBe(422);
      await h.ctx.db.updateTable('games').set({ save_slots: 3 }).where('id', '=', w.game.id).execute();
      expect((await h.http.get(w.slot(2), { token: w.token })).body.data.state.state).toBe('kept');
    });

    it('writes nothing over a filled slot of a slot the game no longer has, or of a game no longer listed', async () => {
      const w = await gameAndPlayer(h, { save_slots: 3 });
      await h.http.put(w.slot(2), { token: w.token, body: { state: 'kept' } });
      const before = await storedRow(h, w.player.id, w.game.id, 2);
      await h.ctx.db.updateTable('games').set({ save_slots: 2 }).where('id', '=', w.game.id).execute();
      const shrunk = await h.http.put(w.slot(2), { token: w.token, body: { state: 'over' } });
      expect([shrunk.status, shrunk.body.error.code]).toEqual([422, 'validation_failed']);
      expect(shrunk.body.error.fields).toHaveProperty('slot');
      await h.ctx.db
        .updateTable('games')
        .set({ save_slots: 3, status: 'retired' })
        .where('id', '=', w.game.id)
        .execute();
      const retired = await h.http.put(w.slot(2), { token: w.token, body: { state: 'over', expected_version: 1 } });
      expect([retired.status, retired.body.error.code]).toEqual([404, 'not_found']);
      expect(await storedRow(h, w.player.id, w.game.id, 2)).toEqual(before);
    });

    it('checks the game and the slot before the state: 404, then 422 for the slot, then 413', async () => {
      const w = await gameAndPlayer(h, { save_slots: 3 });
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'small' } });
      const huge = 'x'.repeat(300_000);
      const unknown = await h.http.put(slotUrl('no-such-game', 0), { token: w.token, body: { state: huge } });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
      const badSlot = await h.http.put(w.slot(3), { token: w.token, body: { state: huge } });
      expect([badSlot.status, badSlot.body.error.code]).toEqual([422, 'validation_failed']);
      const tooLarge = await h.http.put(w.slot(0), { token: w.token, body: { state: huge } });
      expect([tooLarge.status, tooLarge.body.error.code]).toEqual([413, 'state_too_large']);
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state).toMatchObject({
        version: 1,
        state: 'small',
      });
    });
  });

  describe('states: GET', () => {
    it('lists stored states by slot without payloads, with meta.save_slots', async () => {
      h.clock.set('2026-11-21T08:00:00Z');
      const w = await gameAndPlayer(h, { save_slots: 4 });
      const empty = await h.http.get(w.list, { token: w.token });
      expect(empty.body).toEqual({ ok: true, data: { states: [] }, meta: { save_slots: 4 } });
      await h.http.put(w.slot(3), { token: w.token, body: { state: { big: 'x'.repeat(100) }, label: 'three' } });
      h.clock.set('2026-11-21T08:00:05Z');
      await h.http.put(w.slot(1), { token: w.token, body: { state: null } });
      await h.http.put(w.slot(1), { token: w.token, body: { state: [1, 2] } });
      const res = await h.http.get(w.list, { token: w.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: true,
        data: {
          states: [
            {
              slot: 1,
              label: null,
              version: 2,
              size_bytes: 5,
              created_at: '2026-11-21 08:00:05',
              updated_at: '2026-11-21 08:00:05',
            },
            {
              slot: 3,
              label: 'three',
              version: 1,
              size_bytes: 110,
              created_at: '2026-11-21 08:00:00',
              updated_at: '2026-11-21 08:00:00',
            },
          ],
        },
        meta: { save_slots: 4 },
      });
    });

    it('reads one state with every field of the State resource', async () => {
      h.clock.set('2026-11-21T12:00:00Z');
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: { hp: 7, items: ['sword'] }, label: 'Boss' } });
      const res = await h.http.get(w.slot(0), { token: w.token });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        ok: true,
        data: {
          state: {
            slot: 0,
            label: 'Boss',
            version: 1,
            size_bytes: 26,
            state: { hp: 7, items: ['sword'] },
            created_at: '2026-11-21 12:00:00',
            updated_at: '2026-11-21 12:00:00',
          },
        },
      });
    });

    it('answers an empty slot with 404 not_found', async () => {
      const w = await gameAndPlayer(h);
      const res = await h.http.get(w.slot(1), { token: w.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    });

    it("keeps each player's and each game's slots apart", async () => {
      const w = await gameAndPlayer(h);
      const other = await createPlayerWithToken(h.ctx);
      const otherGame = await createGame(h.ctx);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'mine' } });
      await h.http.put(w.slot(0), { token: other.token, body: { state: 'theirs' } });
      await h.http.put(slotUrl(otherGame.slug, 0), { token: w.token, body: { state: 'other game' } });
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state).toMatchObject({
        version: 1,
        state: 'mine',
      });
      expect((await h.http.get(w.slot(0), { token: other.token })).body.data.state).toMatchObject({
        version: 1,
        state: 'theirs',
      });
      expect((await h.http.get(slotUrl(otherGame.slug, 0), { token: w.token })).body.data.state.state).toBe(
        'other game',
      );
      expect((await h.http.get(w.list, { token: w.token })).body.data.states).toHaveLength(1);
    });
  });

  describe('states: DELETE', () => {
    it('empties a slot with {deleted: true}, then answers {deleted: false}', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 1 } });
      const res = await h.http.delete(w.slot(0), { token: w.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, data: { deleted: true } });
      expect((await h.http.get(w.slot(0), { token: w.token })).status).toBe(404);
      expect((await h.http.get(w.list, { token: w.token })).body.data.states).toEqual([]);
      expect((await h.http.delete(w.slot(0), { token: w.token })).body).toEqual({ ok: true, data: { deleted: false } });
    });

    it('answers {deleted: false} for a slot never used', async () => {
      const w = await gameAndPlayer(h);
      expect((await h.http.delete(w.slot(2), { token: w.token })).body.data).toEqual({ deleted: false });
    });

    it('continues the version after a delete, so an old version never matches new content', async () => {
      const w = await gameAndPlayer(h);
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'a', label: 'old' } });
      await h.http.put(w.slot(0), { token: w.token, body: { state: 'b' } });
      await h.http.delete(w.slot(0), { token: w.token });
      const stale = await h.http.put(w.slot(0), { token: w.token, body: { state: 'c', expected_version: 2 } });
      expect(stale.status).toBe(409);
      expect(stale.body.error.current_version).toBe(0);
      h.clock.advance(60);
      const refill = await h.http.put(w.slot(0), { token: w.token, body: { state: 'c', expected_version: 0 } });
      expect(refill.status).toBe(201);
      expect(refill.body.data).toEqual({ slot: 0, version: 3, size_bytes: 3, created: true });
      const state = (await h.http.get(w.slot(0), { token: w.token })).body.data.state;
      expect(state).toMatchObject({ label: null, version: 3, state: 'c' });
      expect(state.created_at).toBe(state.updated_at);
    });
  });

  describe('states: OpenAPI', () => {
    it('documents the four routes with their own errors', async () => {
      const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
      const list = doc.paths['/v1/games/{slug}/states'];
      const slot = doc.paths['/v1/games/{slug}/states/{slot}'];
      expect(Object.keys(list.get.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '422']));
      expect(Object.keys(slot.get.responses)).toEqual(expect.arrayContaining(['200', '404', '422']));
      expect(Object.keys(slot.put.responses)).toEqual(
        expect.arrayContaining(['200', '201', '404', '409', '413', '422']),
      );
      expect(slot.put.responses['413'].description).toContain('state_too_large');
      expect(slot.put.responses['403'].description).toContain('insufficient_scope');
      expect(slot.put.requestBody.content['application/json'].schema.required).toEqual(['state']);
      expect(Object.keys(slot.delete.responses)).toEqual(expect.arrayContaining(['200', '404', '422']));
      expect(slot.put.description).toContain('expected_version');
    });
  });
});
