// Version checks are atomic: many saves racing on one slot give exactly one winner per expected version, on both databases.
import { describe, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import type { Response } from '../helpers/request.js';
import { gameAndPlayer, keyAndPlayerOf, storedRow } from './fixtures.js';

const RACERS = 50;

const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

eachDialect('states: concurrency', (h) => {
  describe('states: racing saves', () => {
    it(`lets exactly one of ${RACERS} saves with expected_version 0 fill an empty slot`, async () => {
      const w = await gameAndPlayer(h);
      const responses = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          h.http.put(w.slot(0), { token: w.token, body: { state: { racer: i }, expected_version: 0 } }),
        ),
      );
      expect(statuses(responses)).toEqual([201, ...Array(RACERS - 1).fill(409)]);
      for (const loser of responses.filter((r) => r.status === 409)) {
        expect(loser.body.error).toMatchObject({ code: 'version_conflict', current_version: 1 });
      }
      const winner = responses.findIndex((r) => r.status === 201);
      expect((await h.http.get(w.slot(0), { token: w.token })).body.data.state).toMatchObject({
        version: 1,
        state: { racer: winner },
      });
    });

    it(`lets exactly one of ${RACERS} saves with the same expected_version through, raising the version by one`, async () => {
      const w = await gameAndPlayer(h);
      for (let i = 0; i < 3; i++) await h.http.put(w.slot(1), { token: w.token, body: { state: 'warm-up' } });
      const responses = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          h.http.put(w.slot(1), { token: w.token, body: { state: { racer: i }, expected_version: 3 } }),
        ),
      );
      expect(statuses(responses)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      const winner = responses.findIndex((r) => r.status === 200);
      expect(responses[winner]!.body.data).toMatchObject({ version: 4, created: false });
      for (const loser of responses.filter((r) => r.status === 409)) expect(loser.body.error.current_version).toBe(4);
      const row = await storedRow(h, w.player.id, w.game.id, 1);
      expect(Number(row?.version)).toBe(4);
      expect(JSON.parse(row!.state!)).toEqual({ racer: winner });
    });

    it(`does the same for ${RACERS} saves through a developer key`, async () => {
      const w = await gameAndPlayer(h);
      const { player, key } = await keyAndPlayerOf(h, w.game.id);
      await h.http.put(w.slot(2), { token: key, body: { state: 0, player_id: player.id } });
      const responses = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          h.http.put(w.slot(2), { token: key, body: { state: i, player_id: player.id, expected_version: 1 } }),
        ),
      );
      expect(statuses(responses)).toEqual([200, ...Array(RACERS - 1).fill(409)]);
      expect(Number((await storedRow(h, player.id, w.game.id, 2))?.version)).toBe(2);
    });

    it(`loses no save among ${RACERS} unconditional ones: versions 1 to ${RACERS}, each once`, async () => {
      const w = await gameAndPlayer(h);
      const responses = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => h.http.put(w.slot(0), { token: w.token, body: { state: i } })),
      );
      expect(statuses(responses)).toEqual([...Array(RACERS - 1).fill(200), 201]);
      expect(responses.filter((r) => r.body.data.created)).toHaveLength(1);
      const versions = responses.map((r) => r.body.data.version).sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: RACERS }, (_, i) => i + 1));
      expect(Number((await storedRow(h, w.player.id, w.game.id, 0))?.version)).toBe(RACERS);
    });

    it('keeps saves and deletes racing on one slot consistent', async () => {
      const w = await gameAndPlayer(h);
      const responses = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          i % 2 === 0
            ? h.http.put(w.slot(0), { token: w.token, body: { state: i } })
            : h.http.delete(w.slot(0), { token: w.token }),
        ),
      );
      expect(responses.every((r) => r.status === 200 || r.status === 201)).toBe(true);
      const saves = responses.filter((r) => 'version' in r.body.data);
      const versions = saves.map((r) => r.body.data.version).sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: RACERS / 2 }, (_, i) => i + 1));
      const created = saves.filter((r) => r.body.data.created).length;
      const deleted = responses.filter((r) => r.body.data.deleted === true).length;
      const row = await storedRow(h, w.player.id, w.game.id, 0);
      expect(Number(row?.version)).toBe(RACERS / 2);
      expect(created - deleted).toBe(row?.state === null ? 0 : 1);
    });
  });
});
