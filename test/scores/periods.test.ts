// Leaderboard periods in reset_timezone (Europe/Berlin): day, ISO week and month boundaries from the injected clock,
// the daylight-saving days, and at= for a past period.
import { expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

type Game = Awaited<ReturnType<typeof createGame>>;

eachDialect('scores: leaderboard periods', (h) => {
  /** Each score from a new player at the given instant. */
  async function scoresAt(game: Game, entries: Array<[string, number]>) {
    for (const [instant, score] of entries) {
      h.clock.set(instant);
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await h.http.post(`/v1/games/${game.slug}/scores`, { token, body: { score } })).status).toBe(201);
    }
  }
  const read = async (game: Game, query: Record<string, string>) => {
    const res = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { limit: '100', ...query } });
    expect(res.status).toBe(200);
    return res.body.data.leaderboard.map((r: { score: number }) => r.score).sort((a: number, b: number) => a - b);
  };

  it('bounds the 23-hour day of 2026-03-29 at local midnights', async () => {
    const game = await createGame(h.ctx);
    await scoresAt(game, [
      ['2026-03-28T22:59:59Z', 1], // 23:59:59 on the 28th (CET)
      ['2026-03-28T23:00:00Z', 2], // 00:00 on the 29th
      ['2026-03-29T21:59:59Z', 3], // 23:59:59 on the 29th (CEST)
      ['2026-03-29T22:00:00Z', 4], // 00:00 on the 30th
    ]);
    expect(await read(game, { period: 'day', at: '2026-03-29' })).toEqual([2, 3]);
    expect(await read(game, { period: 'day', at: '2026-03-28' })).toEqual([1]);
    h.clock.set('2026-03-29T21:59:59Z');
    expect(await read(game, { period: 'day' })).toEqual([2, 3]);
    h.clock.advance(1);
    expect(await read(game, { period: 'day' })).toEqual([4]);
  });

  it('bounds the 25-hour day of 2026-10-25 at local midnights', async () => {
    const game = await createGame(h.ctx);
    await scoresAt(game, [
      ['2026-10-24T21:59:59Z', 1], // 23:59:59 on the 24th (CEST)
      ['2026-10-24T22:00:00Z', 2], // 00:00 on the 25th
      ['2026-10-25T22:59:59Z', 3], // 23:59:59 on the 25th (CET), 25 hours later
      ['2026-10-25T23:00:00Z', 4], // 00:00 on the 26th
    ]);
    expect(await read(game, { period: 'day', at: '2026-10-25' })).toEqual([2, 3]);
    h.clock.set('2026-10-25T23:00:00Z');
    expect(await read(game, { period: 'day' })).toEqual([4]);
  });

  it('starts the week on Monday at local midnight, and reads a past week with at=', async () => {
    const game = await createGame(h.ctx);
    await scoresAt(game, [
      ['2026-11-15T22:59:59Z', 1], // Sunday 23:59:59 (week of 9 November)
      ['2026-11-15T23:00:00Z', 2], // Monday 16 November 00:00
      ['2026-11-22T22:59:59Z', 3], // Sunday 22 November 23:59:59
      ['2026-11-22T23:00:00Z', 4], // Monday 23 November
    ]);
    expect(await read(game, { period: 'week' })).toEqual([4]);
    expect(await read(game, { period: 'week', at: '2026-11-18' })).toEqual([2, 3]);
    expect(await read(game, { period: 'week', at: '2026-11-15' })).toEqual([1]);
    expect(await read(game, { period: 'all', at: '2026-11-15' })).toEqual([1, 2, 3, 4]);
  });

  it('bounds the week and the month that hold a daylight-saving change', async () => {
    const game = await createGame(h.ctx);
    await scoresAt(game, [
      ['2026-03-22T22:59:59Z', 1], // Sunday 22 March 23:59:59 CET
      ['2026-03-22T23:00:00Z', 2], // Monday 23 March 00:00 CET
      ['2026-03-29T21:59:59Z', 3], // Sunday 29 March 23:59:59 CEST
      ['2026-03-29T22:00:00Z', 4], // Monday 30 March 00:00 CEST
      ['2026-03-31T21:59:59Z', 5], // 31 March 23:59:59 CEST
      ['2026-03-31T22:00:00Z', 6], // 1 April 00:00 CEST
    ]);
    expect(await read(game, { period: 'week', at: '2026-03-29' })).toEqual([2, 3]);
    expect(await read(game, { period: 'month', at: '2026-03-01' })).toEqual([1, 2, 3, 4, 5]);
    expect(await read(game, { period: 'month', at: '2026-04-30' })).toEqual([6]);
  });

  it('switches months at local midnight after the autumn change', async () => {
    const game = await createGame(h.ctx);
    await scoresAt(game, [
      ['2026-10-31T22:59:59Z', 1], // 31 October 23:59:59 CET
      ['2026-10-31T23:00:00Z', 2], // 1 November 00:00 CET
    ]);
    expect(await read(game, { period: 'month' })).toEqual([2]);
    expect(await read(game, { period: 'month', at: '2026-10-01' })).toEqual([1]);
  });

  it("ranks each period by the player's best within it, counting the period's entries", async () => {
    const game = await createGame(h.ctx);
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    const post = (token: string, score: number) =>
      h.http.post(`/v1/games/${game.slug}/scores`, { token, body: { score } });
    h.clock.set('2026-11-20T10:00:00Z'); // Friday
    await post(a.token, 100);
    await post(b.token, 50);
    h.clock.set('2026-11-21T10:00:00Z'); // Saturday
    await post(a.token, 10);
    await post(b.token, 60);
    await post(b.token, 20);
    const day = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { period: 'day' }, token: a.token });
    expect(day.body.data.leaderboard.map((r: { score: number; entries: number }) => [r.score, r.entries])).toEqual([
      [60, 2],
      [10, 1],
    ]);
    expect(day.body.data.me).toEqual({ rank: 2, best: 10 });
    const week = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { period: 'week' } });
    expect(week.body.data.leaderboard.map((r: { score: number; entries: number }) => [r.score, r.entries])).toEqual([
      [100, 2],
      [60, 3],
    ]);
    const yesterday = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, {
      token: b.token,
      query: { period: 'day', at: '2026-11-20' },
    });
    expect(yesterday.body.data).toEqual({ board: 'main', period: 'day', rank: 2, best: 50, entries: 1 });
  });
});
