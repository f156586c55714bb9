// GET /games/{slug}/leaderboard/boards: the board picker's list.
import { expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('scores: GET /games/{slug}/leaderboard/boards', (h) => {
  it('lists main first, even before its first score, then every board with a score by name, once each', async () => {
    const game = await createGame(h.ctx);
    expect((await h.http.get(`/v1/games/${game.slug}/leaderboard/boards`)).body).toEqual({
      ok: true,
      data: { boards: ['main'] },
    });
    const p = await createPlayerWithToken(h.ctx);
    for (const board of ['zeta', 'alpha', 'main', 'zeta', 'hard_mode']) {
      expect(
        (await h.http.post(`/v1/games/${game.slug}/scores`, { token: p.token, body: { score: 1, board } })).status,
      ).toBe(201);
    }
    const other = await createGame(h.ctx);
    await h.http.post(`/v1/games/${other.slug}/scores`, { token: p.token, body: { score: 1, board: 'elsewhere' } });
    const res = await h.http.get(`/v1/games/${game.slug}/leaderboard/boards`);
    expect(res.status).toBe(200);
    expect(res.body.data.boards).toEqual(['main', 'alpha', 'hard_mode', 'zeta']);
  });

  it('answers 404 for an unknown or unlisted game and leaderboard_disabled for a game without a leaderboard', async () => {
    expect((await h.http.get('/v1/games/no-such-game/leaderboard/boards')).body.error.code).toBe('not_found');
    const draft = await createGame(h.ctx, { status: 'draft' });
    expect((await h.http.get(`/v1/games/${draft.slug}/leaderboard/boards`)).status).toBe(404);
    const off = await createGame(h.ctx, { leaderboard_enabled: 0 });
    const res = await h.http.get(`/v1/games/${off.slug}/leaderboard/boards`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('leaderboard_disabled');
  });
});
