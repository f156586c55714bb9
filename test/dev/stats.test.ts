// GET /dev/games/{slug}/stats against a history played through the real routes with the injected clock:
// calendar days in reset_timezone (midnight, clock changes), live sessions, play time, saves; other games apart.
import { describe, expect, it } from 'vitest';
import { sweepIdleSessions } from '../../src/modules/play/play.service.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { playApi } from '../play/play-helpers.js';
import { slotUrl } from '../states/fixtures.js';
import { devUrl, expectError } from './fixtures.js';

async function statsOf(h: Harness, slug: string, key: string) {
  const res = await h.http.get(devUrl.stats(slug), { token: key });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function gameWithStatsKey(h: Harness, save_slots = 3) {
  const game = await createGame(h.ctx, { save_slots });
  const { key } = await createKey(h.ctx, game.id, ['stats:read']);
  return { game, key };
}

eachDialect('dev: stats', (h) => {
  const api = playApi(h);
  const start = async (token: string, slug: string) => {
    const res = await api.start(token, slug);
    expect(res.status, res.text).toBe(200);
    return res.body.data.session as string;
  };

  describe('dev: GET /dev/games/{slug}/stats', () => {
    it('counts players, plays, play time, live sessions, days and saves of a week of play (Europe/Berlin days)', async () => {
      h.clock.set('2026-11-14T12:00:00Z');
      const { game, key } = await gameWithStatsKey(h);
      const other = await createGame(h.ctx);
      const [a, b, c, d, e] = [
        await createPlayerWithToken(h.ctx),
        await createPlayerWithToken(h.ctx),
        await createPlayerWithToken(h.ctx, { membership_plan: 'unlimited', membership_status: 'active' }),
        await createPlayerWithToken(h.ctx),
        await createPlayerWithToken(h.ctx),
      ];

      // Saturday 14 November, 23:59:59 in Berlin (UTC+1): the day before the seven days.
      h.clock.set('2026-11-14T22:59:59Z');
      const eSession = await start(e.token, game.slug);
      // Midnight: Sunday 15 November, the first of the seven days.
      h.clock.set('2026-11-14T23:00:00Z');
      const aSession = await start(a.token, game.slug);
      h.clock.set('2026-11-14T23:00:29Z');
      await api.end(e.token, eSession); // 30 s
      h.clock.set('2026-11-14T23:00:30Z');
      await api.heartbeat(a.token, aSession); // 30 s
      h.clock.set('2026-11-14T23:01:00Z');
      await api.heartbeat(a.token, aSession); // 30 s
      await api.end(a.token, aSession);

      h.clock.set('2026-11-18T10:00:00Z');
      const bSession = await start(b.token, game.slug);
      const dSession = await start(d.token, other.slug); // another game: counts nowhere here
      h.clock.advance(30);
      await api.heartbeat(b.token, bSession); // 30 s
      await api.heartbeat(d.token, dSession);
      await api.end(b.token, bSession);

      // One second before midnight of Friday 20 November, and midnight itself.
      h.clock.set('2026-11-20T22:59:59Z');
      const aLate = await start(a.token, game.slug);
      h.clock.set('2026-11-20T23:00:00Z');
      await start(b.token, game.slug); // never heard from again: idle, not live
      h.clock.set('2026-11-20T23:00:29Z');
      await api.heartbeat(a.token, aLate); // 30 s, then silence

      h.clock.set('2026-11-21T11:55:00Z');
      const cSession = await start(c.token, game.slug);
      h.clock.set('2026-11-21T11:56:00Z');
      await api.heartbeat(c.token, cSession); // 60 s
      h.clock.set('2026-11-21T11:58:00Z');
      await start(a.token, game.slug); // closes A's idle session of last night (nothing credited)
      h.clock.set('2026-11-21T11:59:00Z');
      expect((await api.heartbeat(c.token, cSession)).body.data.credited_seconds).toBe(150); // 180 s of silence credit at most 90

      // Saves: A two slots (one through /dev), B one then deleted, C one.
      const put = (token: string, slot: number, state: unknown) =>
        h.http.put(slotUrl(game.slug, slot), { token, body: { state } });
      const sizes = [
        (await put(a.token, 0, { level: 3 })).body.data.size_bytes,
        (
          await h.http.put(devUrl.state(game.slug, a.player.id, 1), {
            token: (await createKey(h.ctx, game.id, ['states:write'])).key,
            body: { state: 'checkpoint' },
          })
        ).body.data.size_bytes,
        (await put(c.token, 2, [1, 2, 3])).body.data.size_bytes,
      ];
      await put(b.token, 0, 'gone');
      await h.http.delete(slotUrl(game.slug, 0), { token: b.token });
      await h.http.put(slotUrl(other.slug, 0), { token: d.token, body: { state: 'another game' } });

      // Scores: A twice on main (once through /dev, once replayed), B once on main, C on main and speed; D elsewhere.
      const scoresKey = (await createKey(h.ctx, game.id, ['scores:write'])).key;
      const post = (token: string, body: object, headers?: Record<string, string>) =>
        h.http.post(`/v1/games/${game.slug}/scores`, { token, body, headers });
      expect((await post(a.token, { score: 10 })).status).toBe(201);
      const retry = { 'idempotency-key': 'a-20' };
      expect(
        (
          await h.http.post(devUrl.scores(game.slug, a.player.id), {
            token: scoresKey,
            body: { score: 20 },
            headers: retry,
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await h.http.post(devUrl.scores(game.slug, a.player.id), {
            token: scoresKey,
            body: { score: 20 },
            headers: retry,
          })
        ).headers['idempotent-replayed'],
      ).toBe('true');
      await post(b.token, { score: 5 });
      await post(c.token, { score: 7 });
      await post(c.token, { score: 3, board: 'speed' });
      await h.http.post(`/v1/games/${other.slug}/scores`, { token: d.token, body: { score: 99 } });

      h.clock.set('2026-11-21T12:00:00Z');
      const stats = await statsOf(h, game.slug, key);
      expect(stats).toEqual({
        game: game.slug,
        generated_at: '2026-11-21 12:00:00',
        timezone: 'Europe/Berlin',
        players: 4, // A, B, C, E
        plays: 7,
        playtime_seconds: 30 + 60 + 30 + 30 + 60 + 90,
        playtime_hours: 0.1,
        active_sessions: 2, // A (11:58) and C (11:59); B's session of midnight is idle though not swept
        today: { day: '2026-11-21', plays: 3, players: 3 },
        last_7_days: { from: '2026-11-15', to: '2026-11-21', plays: 6, players: 3 },
        days: [
          { day: '2026-11-21', plays: 3, players: 3 },
          { day: '2026-11-20', plays: 1, players: 1 },
          { day: '2026-11-19', plays: 0, players: 0 },
          { day: '2026-11-18', plays: 1, players: 1 },
          { day: '2026-11-17', plays: 0, players: 0 },
          { day: '2026-11-16', plays: 0, players: 0 },
          { day: '2026-11-15', plays: 1, players: 1 },
        ],
        scores: {
          leaderboard_enabled: true,
          submitted: 5,
          boards: [
            { board: 'main', entries: 4, players: 3 },
            { board: 'speed', entries: 1, players: 1 },
          ],
        },
        saves: { save_slots: 3, slots_in_use: 3, players: 2, size_bytes: sizes[0] + sizes[1] + sizes[2] },
      });
      // The catalogue shows the same plays and hours.
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.stats).toEqual({ plays: 7, playtime_hours: 0.1 });

      // The sweep (which closes B's idle session) changes no number.
      expect(await sweepIdleSessions(h.ctx)).toBeGreaterThanOrEqual(1);
      expect(await statsOf(h, game.slug, key)).toEqual(stats);

      // Silence ends the live sessions (idle after session_idle_timeout = 300 s).
      h.clock.set('2026-11-21T12:03:30Z');
      expect((await statsOf(h, game.slug, key)).active_sessions).toBe(1); // C (heard 4.5 minutes ago); A's start is 5.5 minutes old
      h.clock.set('2026-11-21T12:04:00Z');
      expect((await statsOf(h, game.slug, key)).active_sessions).toBe(0); // C heard exactly 300 s ago: idle, as for the heartbeat
      expect((await api.heartbeat(c.token, cSession)).status).toBe(410);

      // 23:59:59 in Berlin is still the 21st; at midnight the week moves on by one day.
      h.clock.set('2026-11-21T22:59:59Z');
      expect((await statsOf(h, game.slug, key)).today).toEqual({ day: '2026-11-21', plays: 3, players: 3 });
      h.clock.set('2026-11-21T23:00:00Z');
      const next = await statsOf(h, game.slug, key);
      expect(next.today).toEqual({ day: '2026-11-22', plays: 0, players: 0 });
      expect(next.last_7_days).toEqual({ from: '2026-11-16', to: '2026-11-22', plays: 5, players: 3 });
      expect(next.days.map((day: { day: string }) => day.day)).toEqual([
        '2026-11-22',
        '2026-11-21',
        '2026-11-20',
        '2026-11-19',
        '2026-11-18',
        '2026-11-17',
        '2026-11-16',
      ]);
      expect(next.players).toBe(4);

      // The other game's key sees only its own game.
      const { key: otherKey } = await createKey(h.ctx, other.id, ['stats:read']);
      const theirs = await statsOf(h, other.slug, otherKey);
      expect(theirs).toMatchObject({
        players: 1,
        plays: 1,
        saves: { slots_in_use: 1, players: 1 },
        scores: { submitted: 1, boards: [{ board: 'main', entries: 1, players: 1 }] },
      });
      expectError(await h.http.get(devUrl.stats(game.slug), { token: otherKey }), 403, 'forbidden');
    });

    it('bounds days by the local midnight across the end of summer time (a 25-hour day)', async () => {
      h.clock.set('2026-10-24T12:00:00Z');
      const { game, key } = await gameWithStatsKey(h);
      const players = [
        await createPlayerWithToken(h.ctx),
        await createPlayerWithToken(h.ctx),
        await createPlayerWithToken(h.ctx),
      ];
      h.clock.set('2026-10-24T21:59:59Z'); // 23:59:59 CEST, Saturday 24 October
      await start(players[0]!.token, game.slug);
      h.clock.set('2026-10-24T22:00:00Z'); // 00:00 CEST, Sunday 25 October
      await start(players[1]!.token, game.slug);
      h.clock.set('2026-10-25T22:59:59Z'); // 23:59:59 CET, still Sunday: the day had 25 hours
      await start(players[2]!.token, game.slug);
      h.clock.set('2026-10-25T23:00:00Z'); // Monday 26 October
      await start(players[0]!.token, game.slug);
      h.clock.set('2026-10-26T10:00:00Z');
      const stats = await statsOf(h, game.slug, key);
      expect(stats.days.slice(0, 3)).toEqual([
        { day: '2026-10-26', plays: 1, players: 1 },
        { day: '2026-10-25', plays: 2, players: 2 },
        { day: '2026-10-24', plays: 1, players: 1 },
      ]);
      expect(stats.last_7_days).toEqual({ from: '2026-10-20', to: '2026-10-26', plays: 4, players: 3 });
    });

    it('counts a player of several days once in last_7_days and each day in days', async () => {
      h.clock.set('2026-11-16T08:00:00Z');
      const { game, key } = await gameWithStatsKey(h);
      const p = await createPlayerWithToken(h.ctx);
      for (const at of [
        '2026-11-16T09:00:00Z',
        '2026-11-16T10:00:00Z',
        '2026-11-19T09:00:00Z',
        '2026-11-21T09:00:00Z',
      ]) {
        h.clock.set(at);
        await start(p.token, game.slug);
      }
      const stats = await statsOf(h, game.slug, key);
      expect(stats).toMatchObject({
        players: 1,
        plays: 4,
        today: { plays: 1, players: 1 },
        last_7_days: { plays: 4, players: 1 },
      });
      expect(stats.days.find((d: { day: string }) => d.day === '2026-11-16')).toEqual({
        day: '2026-11-16',
        plays: 2,
        players: 1,
      });
    });

    it("counts a session that took over the player's still-active one (a second tab) in no play, as the Game's stats.plays", async () => {
      h.clock.set('2026-11-21T09:00:00Z');
      const { game, key } = await gameWithStatsKey(h);
      const p = await createPlayerWithToken(h.ctx);
      await start(p.token, game.slug);
      h.clock.advance(30);
      await start(p.token, game.slug); // the second tab
      h.clock.advance(30);
      await start(p.token, game.slug); // the first tab again
      const stats = await statsOf(h, game.slug, key);
      expect(stats).toMatchObject({
        players: 1,
        plays: 1,
        active_sessions: 1,
        today: { plays: 1, players: 1 },
        last_7_days: { plays: 1, players: 1 },
      });
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.stats.plays).toBe(1);
    });

    it('counts saved slots below save_slots only, and none after a delete', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const { game, key } = await gameWithStatsKey(h, 3);
      const p = await createPlayerWithToken(h.ctx);
      await start(p.token, game.slug);
      for (const slot of [0, 1, 2])
        await h.http.put(slotUrl(game.slug, slot), { token: p.token, body: { state: 'ab' } }); // 4 bytes each
      expect((await statsOf(h, game.slug, key)).saves).toEqual({
        save_slots: 3,
        slots_in_use: 3,
        players: 1,
        size_bytes: 12,
      });
      await h.ctx.db.updateTable('games').set({ save_slots: 2 }).where('id', '=', game.id).execute();
      expect((await statsOf(h, game.slug, key)).saves).toEqual({
        save_slots: 2,
        slots_in_use: 2,
        players: 1,
        size_bytes: 8,
      });
      await h.http.delete(slotUrl(game.slug, 0), { token: p.token });
      expect((await statsOf(h, game.slug, key)).saves).toEqual({
        save_slots: 2,
        slots_in_use: 1,
        players: 1,
        size_bytes: 4,
      });
    });

    it('counts the scores of every board once when the ranking order changes, and keeps them when the leaderboard is switched off', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const { game, key } = await gameWithStatsKey(h);
      const [p, q] = [await createPlayerWithToken(h.ctx), await createPlayerWithToken(h.ctx)];
      const post = (token: string, body: object) => h.http.post(`/v1/games/${game.slug}/scores`, { token, body });
      for (const score of [3, 9, 4]) await post(p.token, { score });
      await post(q.token, { score: 8 });
      await post(q.token, { score: 1, board: 'daily-run' });
      const expected = {
        leaderboard_enabled: true,
        submitted: 5,
        boards: [
          { board: 'daily-run', entries: 1, players: 1 },
          { board: 'main', entries: 4, players: 2 },
        ],
      };
      expect((await statsOf(h, game.slug, key)).scores).toEqual(expected);

      // A republish turns the order round: the old boards still count until the new ones are built from the history.
      await h.ctx.db.updateTable('games').set({ leaderboard_order: 'asc' }).where('id', '=', game.id).execute();
      expect((await statsOf(h, game.slug, key)).scores).toEqual(expected);
      await post(p.token, { score: 2 });
      expect((await statsOf(h, game.slug, key)).scores).toEqual({
        ...expected,
        submitted: 6,
        boards: [expected.boards[0], { board: 'main', entries: 5, players: 2 }],
      });

      await h.ctx.db.updateTable('games').set({ leaderboard_enabled: 0 }).where('id', '=', game.id).execute();
      expect((await post(p.token, { score: 1 })).status).toBe(404);
      expect((await statsOf(h, game.slug, key)).scores).toMatchObject({ leaderboard_enabled: false, submitted: 6 });
    });

    it('answers zeros for a game nobody has played', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const { game, key } = await gameWithStatsKey(h, 0);
      const stats = await statsOf(h, game.slug, key);
      expect(stats).toMatchObject({
        players: 0,
        plays: 0,
        playtime_seconds: 0,
        playtime_hours: 0,
        active_sessions: 0,
        scores: { leaderboard_enabled: true, submitted: 0, boards: [] },
        saves: { save_slots: 0, slots_in_use: 0, players: 0, size_bytes: 0 },
      });
      expect(stats.days).toHaveLength(7);
      expect(stats.days.every((d: { plays: number; players: number }) => d.plays === 0 && d.players === 0)).toBe(true);
    });

    it('shows a key its own game in any status, but hides other unlisted games (404) and refuses listed ones (403)', async () => {
      const own = await createGame(h.ctx, { status: 'retired' });
      const { key } = await createKey(h.ctx, own.id, ['stats:read']);
      expect((await h.http.get(devUrl.stats(own.slug), { token: key })).status).toBe(200);
      for (const status of ['draft', 'retired']) {
        const hidden = await createGame(h.ctx, { status });
        expectError(await h.http.get(devUrl.stats(hidden.slug), { token: key }), 404, 'not_found');
      }
      for (const status of ['published', 'beta']) {
        const listed = await createGame(h.ctx, { status });
        expectError(await h.http.get(devUrl.stats(listed.slug), { token: key }), 403, 'forbidden');
      }
      expectError(await h.http.get(devUrl.stats('no-such-game'), { token: key }), 404, 'not_found');
    });
  });
});

eachDialect(
  'dev: stats in another reset_timezone',
  (h) => {
    it('bounds the days by midnight in reset_timezone (America/New_York)', async () => {
      h.clock.set('2026-11-20T12:00:00Z');
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['stats:read']);
      const p = await createPlayerWithToken(h.ctx);
      const api = playApi(h);
      h.clock.set('2026-11-21T04:59:59Z'); // 23:59:59 on the 20th in New York (UTC-5)
      const first = await api.start(p.token, game.slug);
      expect(first.status).toBe(200);
      await api.end(p.token, first.body.data.session); // ended: the next start is a new play
      h.clock.set('2026-11-21T05:00:00Z');
      expect((await api.start(p.token, game.slug)).status).toBe(200);
      const stats = (await h.http.get(devUrl.stats(game.slug), { token: key })).body.data;
      expect(stats.timezone).toBe('America/New_York');
      expect(stats.days.slice(0, 2)).toEqual([
        { day: '2026-11-21', plays: 1, players: 1 },
        { day: '2026-11-20', plays: 1, players: 1 },
      ]);
    });
  },
  { settings: { reset_timezone: 'America/New_York' } },
);
