// Saves and scores made in preview: the live rules (slots and leaderboard of the build, expected_version, the size
// limit), kept apart from the live saves and rankings in both directions; a preview is not metered nor counted as a play.
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { buildZip, createStudio, createStudioGame, deploy, memberOf } from '../helpers/studios.js';

eachDialect('studios: preview saves and scores', (h) => {
  const g = {} as { slug: string; id: number };
  let token = '';
  let other = '';
  beforeAll(async () => {
    const studio = await createStudio(h.ctx);
    const member = await memberOf(h.ctx, studio.id);
    token = member.token;
    other = (await memberOf(h.ctx, studio.id)).token;
    const game = await createStudioGame(h.ctx, studio.id);
    Object.assign(g, { slug: game.slug, id: game.id });
    await deploy(h.http, token, game.slug, await buildZip(game.slug));
    await deploy(
      h.http,
      token,
      game.slug,
      await buildZip(game.slug, {
        manifest: { save_slots: 1, leaderboard: { enabled: true, order: 'asc', unit: 'ms' } },
      }),
    );
    await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
    await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
  });
  const path = (rest: string, build = 1) => `/v1/studio/games/${g.slug}/preview/${rest}?build=${build}`;

  describe('saves', () => {
    it('saves under the version rule, lists and deletes, apart from the live slot of the same player', async () => {
      const first = await h.http.put(path('states/1'), { token, body: { state: { level: 3 }, label: 'Start' } });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ slot: 1, version: 1, created: true });
      const stale = await h.http.put(path('states/1'), { token, body: { state: 1, expected_version: 0 } });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({ code: 'version_conflict', current_version: 1 });
      const second = await h.http.put(path('states/1'), { token, body: { state: { level: 4 }, expected_version: 1 } });
      expect(second.body.data).toMatchObject({ version: 2, created: false });
      expect((await h.http.get(path('states/1'), { token })).body.data.state).toMatchObject({
        slot: 1,
        label: 'Start',
        version: 2,
        state: { level: 4 },
      });
      expect(
        (await h.http.get(path('states'), { token })).body.data.states.map((s: { slot: number }) => s.slot),
      ).toEqual([1]);
      // the live slot of the same player is empty, and the other member's preview slot too
      expect((await h.http.get(`/v1/games/${g.slug}/states/1`, { token })).status).toBe(404);
      expect((await h.http.get(path('states/1'), { token: other })).status).toBe(404);
      expect((await h.http.delete(path('states/1'), { token })).body.data).toEqual({ deleted: true });
      expect((await h.http.delete(path('states/1'), { token })).body.data).toEqual({ deleted: false });
    });

    it("keeps a live save out of the preview, and takes the previewed build's slots", async () => {
      await h.http.put(`/v1/games/${g.slug}/states/0`, { token, body: { state: 'live' } });
      expect((await h.http.get(path('states/0'), { token })).status).toBe(404);
      expect((await h.http.get(path('states/1', 2), { token })).status).toBe(422);
      expect((await h.http.get(path('states/0', 9), { token })).status).toBe(404);
    });

    it('refuses a state over 262,144 bytes of JSON', async () => {
      const res = await h.http.put(path('states/2'), { token, body: { state: 'x'.repeat(262_143) } });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('state_too_large');
    });
  });

  describe('scores', () => {
    it("ranks preview scores by the build's order, apart from the live board", async () => {
      const post = (t: string, score: number, build = 2) =>
        h.http.post(path('scores', build), { token: t, body: { score, board: 'main' } });
      expect((await post(token, 900)).body.data).toMatchObject({ rank: { rank: 1, best: 900 }, personal_best: true });
      expect((await post(other, 700)).body.data).toMatchObject({ rank: { rank: 1, best: 700 } });
      expect((await post(token, 950)).body.data).toMatchObject({ rank: { rank: 2, best: 900 }, personal_best: false });
      const board = await h.http.get(path('leaderboard', 2), { token });
      expect(board.body.data.leaderboard.map((r: { score: number; entries: number }) => [r.score, r.entries])).toEqual([
        [700, 1],
        [900, 2],
      ]);
      expect(board.body.data.me).toEqual({ rank: 2, best: 900 });
      expect(board.body.meta).toMatchObject({ game: g.slug, order: 'asc', unit: 'ms', total: 2, period: 'all' });
      const live = await h.http.get(`/v1/games/${g.slug}/leaderboard`);
      expect(live.body.data.leaderboard).toEqual([]);
    });

    it('forgets every preview save and score of the game on request, leaving the live ones', async () => {
      await h.http.put(path('states/0'), { token, body: { state: 1 } });
      expect((await h.http.delete(`/v1/studio/games/${g.slug}/preview/data`, { token })).status).toBe(200);
      expect((await h.http.get(path('states'), { token })).body.data.states).toEqual([]);
      expect((await h.http.get(path('leaderboard', 2), { token })).body.data.leaderboard).toEqual([]);
      expect((await h.http.get(`/v1/games/${g.slug}/states/0`, { token })).status).toBe(200);
    });
  });

  describe('metering', () => {
    it('starts a preview with no time left today, and counts no play', async () => {
      const tired = await createPlayerWithToken(h.ctx);
      const studio = await createStudio(h.ctx);
      await h.ctx.db
        .insertInto('studio_members')
        .values({ studio_id: studio.id, player_id: tired.player.id, role: 'developer', created_at: 0 })
        .execute();
      await h.ctx.db.updateTable('games').set({ studio_id: studio.id }).where('id', '=', g.id).execute();
      const before = (await h.http.get(`/v1/games/${g.slug}`)).body.data.stats.plays;
      const day = new Date(h.clock.now()).toISOString().slice(0, 10);
      await h.ctx.db.insertInto('daily_usage').values({ player_id: tired.player.id, day, seconds: 100_000 }).execute();
      const started = await h.http.post(`/v1/studio/games/${g.slug}/builds/1/preview`, { token: tired.token });
      expect(started.status).toBe(201);
      expect((await h.http.get(started.body.data.entry_url)).status).toBe(200);
      expect((await h.http.get(`/v1/games/${g.slug}`)).body.data.stats.plays).toBe(before);
    });
  });
});
