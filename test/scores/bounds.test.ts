// Score bounds: game.json may declare leaderboard.min and max; a submission outside is 422 score_out_of_range with the
// bounds, from a player and from a developer key alike, and stores nothing. The bounds are checked in game.json.
import { expect, it } from 'vitest';
import {
  createGame,
  createKey,
  createPlaySession,
  createPlayerWithToken,
  publishFixture,
} from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('scores: bounds a game declares', (h) => {
  const post = (slug: string, token: string, body: unknown) => h.http.post(`/v1/games/${slug}/scores`, { token, body });

  it('refuses a score below leaderboard.min or above leaderboard.max with 422 score_out_of_range and the bounds', async () => {
    const { slug, game } = await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { leaderboard: { enabled: true, order: 'desc', unit: 'points', min: 0, max: 1000 } },
    });
    const { token, player } = await createPlayerWithToken(h.ctx);
    for (const score of [-5, 1001, -Number.MAX_SAFE_INTEGER]) {
      const res = await post(slug, token, { score });
      expect(res.status, String(score)).toBe(422);
      expect(res.body.error).toEqual({
        code: 'score_out_of_range',
        message: `This game's scores are from 0 to 1000; ${score} is outside`,
        min: 0,
        max: 1000,
      });
    }
    expect((await post(slug, token, { score: 0 })).status).toBe(201);
    expect((await post(slug, token, { score: 1000 })).status).toBe(201);
    const stored = await h.ctx.db
      .selectFrom('scores')
      .select('score')
      .where('game_id', '=', game.id)
      .where('player_id', '=', player.id)
      .execute();
    expect(stored.map((r) => Number(r.score)).sort((a, b) => a - b)).toEqual([0, 1000]);
    const board = await h.http.get(`/v1/games/${slug}/leaderboard`);
    expect(board.body.data.leaderboard.map((r: { score: number }) => r.score)).toEqual([1000]);
  });

  it('applies the bound a game declares alone, and to a developer key on both routes', async () => {
    const { slug, game } = await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { leaderboard: { enabled: true, order: 'asc', unit: 'ms', min: 100 } },
    });
    const { player } = await createPlayerWithToken(h.ctx);
    await createPlaySession(h.ctx, player.id, game.id);
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    const low = await post(slug, key, { score: 99, player_id: player.id });
    expect(low.status).toBe(422);
    expect(low.body.error).toMatchObject({ code: 'score_out_of_range', min: 100, max: null });
    expect(low.body.error.message).toBe("This game's scores are at least 100; 99 is outside");
    const dev = await h.http.post(`/v1/dev/games/${slug}/players/${player.id}/scores`, {
      token: key,
      body: { score: 12 },
    });
    expect(dev.status).toBe(422);
    expect(dev.body.error.code).toBe('score_out_of_range');
    expect((await post(slug, key, { score: Number.MAX_SAFE_INTEGER, player_id: player.id })).status).toBe(201);
  });

  it('takes any safe integer from a game without bounds, and a republish without them lifts them', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const plain = await createGame(h.ctx);
    expect((await post(plain.slug, token, { score: -5 })).status).toBe(201);
    const bounded = await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { leaderboard: { enabled: true, order: 'desc', unit: 'points', max: 10 } },
    });
    expect((await post(bounded.slug, token, { score: 11 })).status).toBe(422);
    await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { slug: bounded.slug, version: '1.3.0', leaderboard: { enabled: true, order: 'desc', unit: 'points' } },
    });
    expect((await post(bounded.slug, token, { score: 11 })).status).toBe(201);
  });

  it('refuses bounds in game.json that are not integers or that cross', async () => {
    for (const [leaderboard, fields] of [
      [{ enabled: true, min: 1.5 }, { 'leaderboard.min': 'must be an integer (a safe one: |n| ≤ 2^53 − 1)' }],
      [{ enabled: true, max: '100' }, { 'leaderboard.max': 'must be an integer (a safe one: |n| ≤ 2^53 − 1)' }],
      [{ enabled: true, min: 2 ** 53 }, { 'leaderboard.min': 'must be an integer (a safe one: |n| ≤ 2^53 − 1)' }],
      [{ enabled: true, min: 10, max: 9 }, { 'leaderboard.max': 'must be at least leaderboard.min' }],
    ] as const) {
      await expect(publishFixture(h.ctx, 'orbit-dash', { manifest: { leaderboard } })).rejects.toMatchObject({
        code: 'validation_failed',
        extra: { fields },
      });
    }
  });
});
