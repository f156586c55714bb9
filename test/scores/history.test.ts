// GET /me/scores, GET /games/{slug}/scores/me, and the profile's best scores.
import { expect, it } from 'vitest';
import { bestScoresForProfile } from '../../src/modules/scores/leaderboard.service.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('scores: history and bests', (h) => {
  it('lists the last 50 submissions for a game, all boards, newest first', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const game = await createGame(h.ctx);
    const other = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    for (let i = 1; i <= 52; i++) {
      h.clock.advance(1);
      await h.http.post(`/v1/games/${game.slug}/scores`, {
        token,
        body: { score: i, board: i % 2 ? 'odd' : 'main', meta: { i } },
      });
    }
    await h.http.post(`/v1/games/${other.slug}/scores`, { token, body: { score: 1000 } });
    const res = await h.http.get(`/v1/games/${game.slug}/scores/me`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.scores).toHaveLength(50);
    expect(res.body.data.scores[0]).toEqual({
      id: expect.any(Number),
      board: 'main',
      score: 52,
      meta: { i: 52 },
      created_at: '2026-06-01 10:00:52',
    });
    expect(res.body.data.scores[49]).toMatchObject({ board: 'odd', score: 3, meta: { i: 3 } });
  });

  it("shows nobody else's submissions and refuses a developer key", async () => {
    const game = await createGame(h.ctx);
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: a.token, body: { score: 1 } });
    expect((await h.http.get(`/v1/games/${game.slug}/scores/me`, { token: b.token })).body.data.scores).toEqual([]);
    expect((await h.http.get('/v1/me/scores', { token: b.token })).body.data).toEqual({ best: [], recent: [] });
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    expect((await h.http.get(`/v1/games/${game.slug}/scores/me`, { token: key })).status).toBe(403);
    expect((await h.http.get('/v1/me/scores', { token: key })).status).toBe(403);
  });

  it('gives /me/scores the best and rank per game and board, and the 20 latest submissions', async () => {
    h.clock.set('2026-07-01T08:00:00Z');
    const alpha = await createGame(h.ctx, { name: 'Alpha Run' });
    const beta = await createGame(h.ctx, { name: 'Beta Maze', leaderboard_order: 'asc', leaderboard_unit: 'ms' });
    const hidden = await createGame(h.ctx, { name: 'Hidden' });
    const rival = await createPlayerWithToken(h.ctx);
    const me = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${alpha.slug}/scores`, { token: rival.token, body: { score: 500 } });
    for (let i = 0; i < 25; i++) {
      h.clock.advance(60);
      await h.http.post(`/v1/games/${alpha.slug}/scores`, {
        token: me.token,
        body: { score: 100 + i, board: i === 24 ? 'bonus' : 'main' },
      });
    }
    await h.http.post(`/v1/games/${beta.slug}/scores`, { token: me.token, body: { score: 4200, meta: { lap: 2 } } });
    await h.http.post(`/v1/games/${hidden.slug}/scores`, { token: me.token, body: { score: 1 } });
    await h.ctx.db.updateTable('games').set({ status: 'retired' }).where('id', '=', hidden.id).execute();

    const res = await h.http.get('/v1/me/scores', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.data.best).toEqual([
      { game: alpha.slug, game_name: 'Alpha Run', board: 'bonus', best: 124, unit: 'points', rank: 1 },
      { game: alpha.slug, game_name: 'Alpha Run', board: 'main', best: 123, unit: 'points', rank: 2 },
      { game: beta.slug, game_name: 'Beta Maze', board: 'main', best: 4200, unit: 'ms', rank: 1 },
    ]);
    expect(res.body.data.recent).toHaveLength(20);
    expect(res.body.data.recent[0]).toEqual({
      game: beta.slug,
      game_name: 'Beta Maze',
      board: 'main',
      score: 4200,
      meta: { lap: 2 },
      created_at: '2026-07-01 08:25:00',
    });
    expect(res.body.data.recent[1]).toMatchObject({ game: alpha.slug, board: 'bonus', score: 124, meta: null });
  });

  it('gives the profile the all-time best on board main of each visible game, its rank and cover, and the games played lately', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const alpha = await createGame(h.ctx, { name: 'Alpha Profile' });
    const beta = await createGame(h.ctx, { name: 'Beta Profile', leaderboard_order: 'asc', leaderboard_unit: 'ms' });
    const off = await createGame(h.ctx, { name: 'Off Profile' });
    const { player, token } = await createPlayerWithToken(h.ctx);
    for (const [slug, score, boardName] of [
      [alpha.slug, 10, 'main'],
      [alpha.slug, 30, 'main'],
      [alpha.slug, 99, 'other'],
      [beta.slug, 700, 'main'],
      [beta.slug, 650, 'main'],
      [off.slug, 5, 'main'],
    ] as const) {
      await h.http.post(`/v1/games/${slug}/scores`, { token, body: { score, board: boardName } });
    }
    await h.ctx.db.updateTable('games').set({ leaderboard_enabled: 0 }).where('id', '=', off.id).execute();
    // A rival ahead on Alpha, behind on Beta: the ranks are those of the all-time boards main.
    const rival = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${alpha.slug}/scores`, { token: rival.token, body: { score: 50 } });
    await h.http.post(`/v1/games/${beta.slug}/scores`, { token: rival.token, body: { score: 900 } });
    const cover = async (slug: string) => (await h.http.get(`/v1/games/${slug}`)).body.data.cover_url as string;
    const expected = [
      {
        game: alpha.slug,
        game_name: 'Alpha Profile',
        best: 30,
        unit: 'points',
        rank: 2,
        cover_url: await cover(alpha.slug),
      },
      { game: beta.slug, game_name: 'Beta Profile', best: 650, unit: 'ms', rank: 1, cover_url: await cover(beta.slug) },
    ];
    expect(await bestScoresForProfile(h.ctx, player.id)).toEqual(expected);
    const nobody = await createPlayerWithToken(h.ctx);
    expect(await bestScoresForProfile(h.ctx, nobody.player.id)).toEqual([]);
    const profile = await h.http.get(`/v1/players/${player.username}`);
    expect(profile.status).toBe(200);
    expect(profile.body.data.best_scores).toEqual(expected);
    expect(profile.body.data.recently_played).toEqual([]);

    // Played lately: the listed games the player started, newest first, with nothing private (no saves).
    await h.http.post('/v1/play/start', { token, body: { game: beta.slug } });
    h.clock.advance(60);
    await h.http.post('/v1/play/start', { token, body: { game: alpha.slug } });
    const played = (await h.http.get(`/v1/players/${player.username}`)).body.data.recently_played;
    expect(played).toEqual([
      {
        game: alpha.slug,
        game_name: 'Alpha Profile',
        cover_url: await cover(alpha.slug),
        last_played_at: '2026-06-02 10:01:00',
      },
      {
        game: beta.slug,
        game_name: 'Beta Profile',
        cover_url: await cover(beta.slug),
        last_played_at: '2026-06-02 10:00:00',
      },
    ]);
  });
});
