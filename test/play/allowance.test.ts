// The daily free allowance: the cap, reaching the limit, several games at once, the midnight reset, and both daylight-saving days.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { gameStats, playApi, playing, sessionRow, setUsage, usage } from './play-helpers.js';

eachDialect(
  'play: the daily allowance',
  (h) => {
    const api = playApi(h);

    it('credits a free player up to the allowance, then closes the session with limit_reached: true', async () => {
      h.clock.set('2026-06-01T10:00:00Z');
      const p = await playing(h);
      for (const total of [30, 60, 90]) {
        h.clock.advance(30);
        expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
          credited_seconds: total,
          limit_reached: false,
        });
      }
      h.clock.advance(30);
      const last = await api.heartbeat(p.token, p.session);
      expect(last.status).toBe(200);
      expect(last.body.data).toMatchObject({
        credited_seconds: 100,
        session_seconds: 120,
        limit_reached: true,
        entitlement: { used_seconds: 100, remaining_seconds: 0, limit_reached: true },
      });
      expect(await sessionRow(h, p.session)).toMatchObject({
        status: 'closed',
        end_reason: 'limit',
        credited_seconds: 100,
        ended_at: h.clock.now(),
      });
      expect(await usage(h, p.player.id, '2026-06-01')).toEqual({ seconds: 100, sessions: 1 });
      expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(100);

      h.clock.advance(30);
      expect((await api.heartbeat(p.token, p.session)).body.error.code).toBe('session_ended');
      const again = await api.start(p.token, p.game.slug);
      expect(again.status).toBe(402);
      expect(again.body.error.code).toBe('limit_reached');
      expect((await api.entitlement(p.token)).body.data).toMatchObject({
        used_seconds: 100,
        remaining_seconds: 0,
        limit_reached: true,
      });
    });

    it('closes a session whose heartbeat lands exactly on the allowance', async () => {
      h.clock.set('2026-06-02T10:00:00Z');
      const p = await playing(h);
      await setUsage(h, p.player.id, '2026-06-02', 70);
      h.clock.advance(30);
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 30,
        limit_reached: true,
      });
    });

    it('closes a session of a player whose day another game used up, crediting nothing', async () => {
      h.clock.set('2026-06-03T10:00:00Z');
      const p = await playing(h);
      await setUsage(h, p.player.id, '2026-06-03', 100);
      h.clock.advance(30);
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 0,
        limit_reached: true,
      });
      expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(0);
    });

    it('closes the session on a heartbeat that credits nothing once another game used up the day', async () => {
      h.clock.set('2026-06-04T10:00:00Z');
      const p = await playing(h);
      h.clock.advance(30);
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 30,
        limit_reached: false,
      });
      await setUsage(h, p.player.id, '2026-06-04', 100);
      h.clock.advance(0.4);
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 30,
        limit_reached: true,
        entitlement: { used_seconds: 100, limit_reached: true },
      });
      expect(await sessionRow(h, p.session)).toMatchObject({
        status: 'closed',
        end_reason: 'limit',
        credited_seconds: 30,
        ended_at: h.clock.now(),
      });
      expect((await usage(h, p.player.id, '2026-06-04')).seconds).toBe(100);
      expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(30);
      expect((await api.heartbeat(p.token, p.session)).body.error).toMatchObject({
        code: 'session_ended',
        reason: 'limit',
      });
    });

    it('credits a race of heartbeats across the allowance once: one closes the session for the limit, the rest find it closed', async () => {
      h.clock.set('2026-06-05T10:00:00Z');
      const p = await playing(h);
      await setUsage(h, p.player.id, '2026-06-05', 80);
      h.clock.advance(30);
      const results = await Promise.all(Array.from({ length: 10 }, () => api.heartbeat(p.token, p.session)));
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(ok.every((r) => r.body.data.credited_seconds === 20 && r.body.data.limit_reached)).toBe(true);
      expect(
        results.filter((r) => r.status !== 200).every((r) => r.status === 410 && r.body.error.code === 'session_ended'),
      ).toBe(true);
      expect(await sessionRow(h, p.session)).toMatchObject({
        status: 'closed',
        end_reason: 'limit',
        credited_seconds: 20,
      });
      expect((await usage(h, p.player.id, '2026-06-05')).seconds).toBe(100);
      expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(20);
    });

    it('caps sessions in several games at once exactly at the allowance, each charged what the day took', async () => {
      h.clock.set('2026-06-04T10:00:00Z');
      const { player, token } = await createPlayerWithToken(h.ctx);
      const games = await Promise.all([1, 2, 3, 4].map(() => createGame(h.ctx)));
      const sessions: string[] = [];
      for (const g of games) sessions.push((await api.start(token, g.slug)).body.data.session);
      for (let round = 0; round < 2; round++) {
        h.clock.advance(17);
        const results = await Promise.all(sessions.map((s) => api.heartbeat(token, s)));
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      }
      // 4 sessions x 2 rounds x 17 s = 136 s played, 100 allowed
      expect((await usage(h, player.id, '2026-06-04')).seconds).toBe(100);
      const rows = await Promise.all(sessions.map((s) => sessionRow(h, s)));
      expect(rows.reduce((n, r) => n + r.credited_seconds, 0)).toBe(100);
      // whichever session credited after the counter was full closed at once; one that credited before may still run
      const open = rows.filter((r) => r.status === 'active');
      expect(open.length).toBeLessThan(4);
      expect(rows.filter((r) => r.status === 'closed').every((r) => r.end_reason === 'limit')).toBe(true);
      h.clock.advance(17);
      const third = await Promise.all(sessions.map((s) => api.heartbeat(token, s)));
      expect(third.filter((r) => r.status === 200).length).toBe(open.length);
      expect(third.filter((r) => r.status === 200).every((r) => r.body.data.limit_reached === true)).toBe(true);
      expect((await usage(h, player.id, '2026-06-04')).seconds).toBe(100);
      const closed = await Promise.all(sessions.map((s) => sessionRow(h, s)));
      expect(closed.every((r) => r.status === 'closed' && r.end_reason === 'limit')).toBe(true);
      const stats = await Promise.all(games.map((g) => gameStats(h, g.id)));
      expect(stats.reduce((n, s) => n + s.playtime_seconds, 0)).toBe(100);
      for (const [i, r] of closed.entries()) expect(stats[i]!.playtime_seconds).toBe(r.credited_seconds);
      expect(closed.reduce((n, r) => n + r.credited_seconds, 0)).toBe(100);
    });

    it('resets at midnight in reset_timezone: a player at the limit plays again the next day', async () => {
      h.clock.set('2026-11-21T22:00:00Z'); // 23:00 in Berlin
      const { player, token } = await createPlayerWithToken(h.ctx);
      await setUsage(h, player.id, '2026-11-21', 100);
      const game = await createGame(h.ctx);
      expect((await api.start(token, game.slug)).status).toBe(402);
      expect((await api.entitlement(token)).body.data).toMatchObject({
        day: '2026-11-21',
        limit_reached: true,
        resets_in_seconds: 3600,
      });
      h.clock.set('2026-11-21T23:00:00Z'); // midnight in Berlin, still the 21st in UTC
      expect((await api.entitlement(token)).body.data).toMatchObject({
        day: '2026-11-22',
        used_seconds: 0,
        remaining_seconds: 100,
        limit_reached: false,
        resets_in_seconds: 86400,
      });
      const res = await api.start(token, game.slug);
      expect(res.status).toBe(200);
      expect(res.body.data.entitlement).toMatchObject({ day: '2026-11-22', used_seconds: 0 });
    });

    it('splits a credit that spans midnight between the two days', async () => {
      h.clock.set('2026-11-22T22:59:40Z'); // 23:59:40 in Berlin
      const p = await playing(h);
      h.clock.advance(30);
      const res = await api.heartbeat(p.token, p.session);
      expect(res.body.data).toMatchObject({
        credited_seconds: 30,
        entitlement: { day: '2026-11-23', used_seconds: 10, remaining_seconds: 90 },
      });
      expect(await usage(h, p.player.id, '2026-11-22')).toEqual({ seconds: 20, sessions: 1 });
      expect(await usage(h, p.player.id, '2026-11-23')).toEqual({ seconds: 10, sessions: 0 });
      const history = (await api.playtime(p.token, 2)).body.data.history;
      expect(history).toEqual([
        { day: '2026-11-23', seconds: 10, sessions: 0 },
        { day: '2026-11-22', seconds: 20, sessions: 1 },
      ]);
    });

    it("credits a heartbeat just after midnight whose whole second lies before it to the day before, and reports today's use", async () => {
      h.clock.set('2026-11-24T22:59:58.500Z'); // 23:59:58.5 in Berlin
      const p = await playing(h);
      h.clock.advance(1.7); // 00:00:00.2: one whole second, 23:59:58.5 to 23:59:59.5
      const res = await api.heartbeat(p.token, p.session);
      expect(res.body.data).toMatchObject({
        credited_seconds: 1,
        limit_reached: false,
        entitlement: { day: '2026-11-25', used_seconds: 0 },
      });
      expect(await usage(h, p.player.id, '2026-11-24')).toEqual({ seconds: 1, sessions: 1 });
      expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(1);
    });

    it("caps each side of midnight by that day's allowance and keeps the session running into the new day", async () => {
      h.clock.set('2026-11-23T22:59:40Z');
      const p = await playing(h);
      await setUsage(h, p.player.id, '2026-11-23', 95);
      h.clock.advance(30);
      const res = await api.heartbeat(p.token, p.session);
      expect(res.body.data).toMatchObject({
        credited_seconds: 15,
        limit_reached: false,
        entitlement: { day: '2026-11-24', used_seconds: 10 },
      });
      expect((await usage(h, p.player.id, '2026-11-23')).seconds).toBe(100);
      expect((await sessionRow(h, p.session)).status).toBe('active');
    });

    it('counts 23 hours to the reset on 2026-03-29 in Berlin and credits across the clock change', async () => {
      h.clock.set('2026-03-28T23:00:00Z'); // 00:00 CET on the 29th
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await api.entitlement(token)).body.data).toMatchObject({
        day: '2026-03-29',
        resets_in_seconds: 23 * 3600,
      });
      h.clock.set('2026-03-29T00:59:45Z'); // 01:59:45 CET, fifteen seconds before the clocks jump to 03:00
      const p = await playing(h);
      expect(p.started.entitlement.resets_in_seconds).toBe(21 * 3600 + 15);
      h.clock.advance(30); // 03:00:15 CEST
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 30,
        entitlement: { day: '2026-03-29', used_seconds: 30, resets_in_seconds: 21 * 3600 - 15 },
      });
      h.clock.set('2026-03-29T21:59:50Z'); // 23:59:50 CEST
      const late = await playing(h);
      h.clock.advance(20);
      expect((await api.heartbeat(late.token, late.session)).body.data.entitlement).toMatchObject({
        day: '2026-03-30',
        used_seconds: 10,
        resets_in_seconds: 86400 - 10,
      });
      expect(await usage(h, late.player.id, '2026-03-29')).toMatchObject({ seconds: 10 });
    });

    it('counts 25 hours to the reset on 2026-10-25 in Berlin and credits across the clock change', async () => {
      h.clock.set('2026-10-24T22:00:00Z'); // 00:00 CEST on the 25th
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await api.entitlement(token)).body.data).toMatchObject({
        day: '2026-10-25',
        resets_in_seconds: 25 * 3600,
      });
      h.clock.set('2026-10-25T00:59:45Z'); // 02:59:45 CEST; clocks go back to 02:00 CET
      const p = await playing(h);
      h.clock.advance(30); // 02:00:15 CET
      expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
        credited_seconds: 30,
        entitlement: { day: '2026-10-25', used_seconds: 30, resets_in_seconds: 22 * 3600 - 15 },
      });
      h.clock.set('2026-10-24T21:59:40Z'); // 23:59:40 CEST on the 24th
      const late = await playing(h);
      h.clock.advance(30);
      expect((await api.heartbeat(late.token, late.session)).body.data.entitlement).toMatchObject({
        day: '2026-10-25',
        used_seconds: 10,
        resets_in_seconds: 25 * 3600 - 10,
      });
      expect(await usage(h, late.player.id, '2026-10-24')).toMatchObject({ seconds: 20 });
    });
  },
  { settings: { free_seconds_per_day: 100 } },
);
