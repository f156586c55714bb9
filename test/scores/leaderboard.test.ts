// GET /games/{slug}/leaderboard and /leaderboard/me: order, ties, pages, around=me, data.me, disabled boards.
import { expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';

type Game = Awaited<ReturnType<typeof createGame>>;

async function scorer(h: Harness, game: Game, score: number, options: { board?: string; username?: string } = {}) {
  const p = await createPlayerWithToken(h.ctx, options.username ? { username: options.username } : {});
  const res = await h.http.post(`/v1/games/${game.slug}/scores`, {
    token: p.token,
    body: { score, ...(options.board ? { board: options.board } : {}) },
  });
  expect(res.status).toBe(201);
  return p;
}

const board = (h: Harness, game: Game, query: Record<string, string | number> = {}, token?: string) =>
  h.http.get(`/v1/games/${game.slug}/leaderboard`, { query, ...(token ? { token } : {}) });

const scoresOf = (res: { body: { data: { leaderboard: Array<{ score: number }> } } }) =>
  res.body.data.leaderboard.map((r) => r.score);
const ranksOf = (res: { body: { data: { leaderboard: Array<{ rank: number }> } } }) =>
  res.body.data.leaderboard.map((r) => r.rank);

eachDialect('scores: GET /games/{slug}/leaderboard', (h) => {
  it('ranks bests highest first on a desc board, with the spec row and meta', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const game = await createGame(h.ctx);
    const a = await scorer(h, game, 300, { username: 'alice_lb' });
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: a.token, body: { score: 100 } });
    await scorer(h, game, 500);
    await scorer(h, game, 200);
    const res = await board(h, game);
    expect(res.status).toBe(200);
    expect(scoresOf(res)).toEqual([500, 300, 200]);
    expect(ranksOf(res)).toEqual([1, 2, 3]);
    expect(res.body.data.leaderboard[1]).toEqual({
      rank: 2,
      score: 300,
      entries: 2,
      last_played: '2026-06-01 10:00:00',
      player: {
        username: 'alice_lb',
        display_name: a.player.display_name,
        country: null,
        avatar_url: expect.stringMatching(/^http:\/\/localhost:8080\/avatars\/.+/),
      },
    });
    expect(res.body.meta).toEqual({
      game: game.slug,
      board: 'main',
      period: 'all',
      order: 'desc',
      unit: 'points',
      limit: 10,
      offset: 0,
      total: 3,
    });
    expect(res.body.data).not.toHaveProperty('me');
  });

  it('ranks lowest first on an asc board', async () => {
    const game = await createGame(h.ctx, { leaderboard_order: 'asc', leaderboard_unit: 'ms' });
    for (const s of [900, 300, 600]) await scorer(h, game, s);
    const res = await board(h, game);
    expect(scoresOf(res)).toEqual([300, 600, 900]);
    expect(res.body.meta).toMatchObject({ order: 'asc', unit: 'ms' });
  });

  it('gives a tie to whoever reached that best first, with unique ranks', async () => {
    const game = await createGame(h.ctx);
    const first = await scorer(h, game, 10, { username: 'first_tie' });
    h.clock.advance(5);
    const second = await scorer(h, game, 50, { username: 'second_tie' });
    h.clock.advance(5);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: first.token, body: { score: 50 } });
    h.clock.advance(5);
    await scorer(h, game, 50, { username: 'third_tie' });
    // An equal score later does not move the time the best was reached.
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: second.token, body: { score: 50 } });
    const res = await board(h, game);
    expect(res.body.data.leaderboard.map((r: { player: { username: string } }) => r.player.username)).toEqual([
      'second_tie',
      'first_tie',
      'third_tie',
    ]);
    expect(ranksOf(res)).toEqual([1, 2, 3]);
  });

  it('breaks ties within the same millisecond by arrival', async () => {
    const game = await createGame(h.ctx);
    const names = ['ms_a', 'ms_b', 'ms_c', 'ms_d'];
    for (const username of names) await scorer(h, game, 7, { username });
    const res = await board(h, game);
    expect(res.body.data.leaderboard.map((r: { player: { username: string } }) => r.player.username)).toEqual(names);
  });

  it('pages with limit and offset, to the edges of the board', async () => {
    const game = await createGame(h.ctx);
    for (let s = 1; s <= 12; s++) await scorer(h, game, s);
    expect(scoresOf(await board(h, game))).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    const last = await board(h, game, { limit: 5, offset: 10 });
    expect(scoresOf(last)).toEqual([2, 1]);
    expect(ranksOf(last)).toEqual([11, 12]);
    expect(last.body.meta).toMatchObject({ limit: 5, offset: 10, total: 12 });
    expect(scoresOf(await board(h, game, { limit: 1, offset: 11 }))).toEqual([1]);
    const past = await board(h, game, { offset: 12 });
    expect(scoresOf(past)).toEqual([]);
    expect(past.body.meta).toMatchObject({ offset: 12, total: 12 });
    expect(scoresOf(await board(h, game, { limit: 100 }))).toHaveLength(12);
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['limit', 'ten'],
    ['limit', '2.5'],
    ['offset', '-1'],
    ['offset', '1.5'],
    ['period', 'year'],
    ['board', 'Main'],
    ['around', 'you'],
    ['at', '2026-02-30'],
    ['at', 'yesterday'],
  ])('refuses %s=%s with 422', async (name, value) => {
    const game = await createGame(h.ctx);
    const res = await board(h, game, { [name]: value });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(name);
  });

  it('shows an empty board before the first score', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await board(h, game, { board: 'unused' }, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ leaderboard: [], me: { rank: null, best: null } });
    expect(res.body.meta.total).toBe(0);
  });

  it('adds data.me for a player, with nulls when the player has no score', async () => {
    const game = await createGame(h.ctx);
    await scorer(h, game, 40);
    const p = await scorer(h, game, 30);
    await scorer(h, game, 20);
    expect((await board(h, game, { limit: 1 }, p.token)).body.data.me).toEqual({ rank: 2, best: 30 });
    const newcomer = await createPlayerWithToken(h.ctx);
    expect((await board(h, game, {}, newcomer.token)).body.data.me).toEqual({ rank: null, best: null });
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    expect((await board(h, game, {}, key)).body.data).not.toHaveProperty('me');
  });

  it('centres around=me on the player, and keeps the page within the board at the top and the bottom', async () => {
    const game = await createGame(h.ctx);
    const players = [];
    for (let s = 20; s >= 1; s--) players.push(await scorer(h, game, s)); // players[i] has rank i + 1
    const middle = await board(h, game, { around: 'me', limit: 5, offset: 3 }, players[9]!.token);
    expect(ranksOf(middle)).toEqual([8, 9, 10, 11, 12]);
    expect(middle.body.meta.offset).toBe(7);
    expect(middle.body.data.me).toEqual({ rank: 10, best: 11 });
    const even = await board(h, game, { around: 'me', limit: 4 }, players[9]!.token);
    expect(ranksOf(even)).toEqual([9, 10, 11, 12]);
    const top = await board(h, game, { around: 'me', limit: 5 }, players[1]!.token);
    expect(ranksOf(top)).toEqual([1, 2, 3, 4, 5]);
    expect(top.body.meta.offset).toBe(0);
    const bottom = await board(h, game, { around: 'me', limit: 5 }, players[19]!.token);
    expect(ranksOf(bottom)).toEqual([16, 17, 18, 19, 20]);
    expect(bottom.body.meta.offset).toBe(15);
    const whole = await board(h, game, { around: 'me', limit: 100 }, players[19]!.token);
    expect(ranksOf(whole)).toHaveLength(20);
    expect(whole.body.meta.offset).toBe(0);
  });

  it('falls back to the offset page for around=me without a score', async () => {
    const game = await createGame(h.ctx);
    for (const s of [3, 2, 1]) await scorer(h, game, s);
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await board(h, game, { around: 'me', limit: 2, offset: 1 }, token);
    expect(scoresOf(res)).toEqual([2, 1]);
    expect(res.body.meta.offset).toBe(1);
  });

  it('refuses around=me without a player credential', async () => {
    const game = await createGame(h.ctx);
    expect((await board(h, game, { around: 'me' })).status).toBe(401);
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    const res = await board(h, game, { around: 'me' }, key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('answers 404 leaderboard_disabled on every leaderboard and score route of a game without one', async () => {
    const game = await createGame(h.ctx, { leaderboard_enabled: 0 });
    const { token } = await createPlayerWithToken(h.ctx);
    for (const url of [
      `/v1/games/${game.slug}/leaderboard`,
      `/v1/games/${game.slug}/leaderboard/me`,
      `/v1/games/${game.slug}/scores/me`,
    ]) {
      const res = await h.http.get(url, { token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('leaderboard_disabled');
    }
  });

  it('answers 404 not_found for unknown and draft games', async () => {
    const draft = await createGame(h.ctx, { status: 'draft' });
    for (const slug of ['nope', draft.slug])
      expect((await h.http.get(`/v1/games/${slug}/leaderboard`)).body.error.code).toBe('not_found');
  });

  it('gives GET /leaderboard/me the rank, best and entries, and nulls without a score', async () => {
    const game = await createGame(h.ctx);
    await scorer(h, game, 10);
    const p = await scorer(h, game, 5);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: p.token, body: { score: 1 } });
    const res = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, {
      token: p.token,
      query: { period: 'week' },
    });
    expect(res.body.data).toEqual({ board: 'main', period: 'week', rank: 2, best: 5, entries: 2 });
    const other = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, {
      token: p.token,
      query: { board: 'other' },
    });
    expect(other.body.data).toEqual({ board: 'other', period: 'all', rank: null, best: null, entries: 0 });
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    expect((await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token: key })).status).toBe(403);
  });
});
