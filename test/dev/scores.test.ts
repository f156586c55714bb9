// POST /dev/games/{slug}/players/{id}/scores: POST /games/{slug}/scores for the player in the path, same rules and answers.
import { describe, expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { playApi } from '../play/play-helpers.js';
import { devUrl, expectError, gameWithPlayer } from './fixtures.js';

eachDialect('dev: scores', (h) => {
  const scoresOf = (gameId: number) =>
    h.ctx.db
      .selectFrom('scores')
      .select(['player_id', 'board', 'score'])
      .where('game_id', '=', gameId)
      .orderBy('id')
      .execute();

  describe('dev: POST /dev/games/{slug}/players/{id}/scores', () => {
    it("stores the score for the player and answers 201 with the all-time standing; it shows on the player's history and the board", async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const w = await gameWithPlayer(h);
      const rival = await createPlayerWithToken(h.ctx);
      await h.http.post(`/v1/games/${w.game.slug}/scores`, { token: rival.token, body: { score: 900 } });
      const first = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        body: { score: 500, meta: { level: 3 } },
      });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        ok: true,
        data: { accepted: true, score: 500, board: 'main', rank: { rank: 2, best: 500 }, personal_best: true },
      });
      const better = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        body: { score: 1000 },
      });
      expect(better.body.data).toEqual({
        accepted: true,
        score: 1000,
        board: 'main',
        rank: { rank: 1, best: 1000 },
        personal_best: true,
      });
      const worse = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        body: { score: 10, board: 'speed' },
      });
      expect(worse.body.data).toMatchObject({ board: 'speed', rank: { rank: 1, best: 10 }, personal_best: true });

      const mine = await h.http.get(`/v1/games/${w.game.slug}/scores/me`, { token: w.token });
      expect(mine.body.data.scores.map((s: { score: number; meta: unknown }) => [s.score, s.meta])).toEqual([
        [10, null],
        [1000, null],
        [500, { level: 3 }],
      ]);
      const board = await h.http.get(`/v1/games/${w.game.slug}/leaderboard`);
      expect(board.body.data.leaderboard.map((r: { score: number; entries: number }) => [r.score, r.entries])).toEqual([
        [1000, 2],
        [900, 1],
      ]);
    });

    it('answers like POST /games/{slug}/scores with player_id, and shares its Idempotency-Key replays', async () => {
      const w = await gameWithPlayer(h);
      const headers = { 'idempotency-key': 'retry-1' };
      const general = await h.http.post(`/v1/games/${w.game.slug}/scores`, {
        token: w.key,
        headers,
        body: { score: 42, player_id: w.player.id },
      });
      expect(general.status).toBe(201);
      const replay = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        headers,
        body: { score: 42 },
      });
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(general.body);
      expect(await scoresOf(w.game.id)).toHaveLength(1);

      const reused = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        headers,
        body: { score: 43 },
      });
      expectError(reused, 422, 'idempotency_key_reused');
      const fresh = await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
        token: w.key,
        headers: { 'idempotency-key': 'retry-2' },
        body: { score: 43 },
      });
      expect(fresh.status).toBe(201);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(
        (
          await h.http.post(devUrl.scores(w.game.slug, w.player.id), {
            token: w.key,
            headers: { 'idempotency-key': 'retry-2' },
            body: { score: 43 },
          })
        ).headers['idempotent-replayed'],
      ).toBe('true');
      expect(await scoresOf(w.game.id)).toEqual([
        { player_id: w.player.id, board: 'main', score: 42 },
        { player_id: w.player.id, board: 'main', score: 43 },
      ]);
    });

    it("takes a play session of the player for this game, and refuses another's with 422 invalid_play_session", async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['scores:write']);
      const [me, other] = [await createPlayerWithToken(h.ctx), await createPlayerWithToken(h.ctx)];
      const mine = (await playApi(h).start(me.token, game.slug)).body.data.session;
      const theirs = (await playApi(h).start(other.token, game.slug)).body.data.session;
      expect(
        (
          await h.http.post(devUrl.scores(game.slug, me.player.id), {
            token: key,
            body: { score: 1, play_session: mine },
          })
        ).status,
      ).toBe(201);
      expectError(
        await h.http.post(devUrl.scores(game.slug, me.player.id), {
          token: key,
          body: { score: 2, play_session: theirs },
        }),
        422,
        'invalid_play_session',
      );
    });

    it('refuses player_id in the body, a missing or unsafe score, a bad board and a long meta with 422, storing nothing', async () => {
      const w = await gameWithPlayer(h);
      const cases: Array<[unknown, string]> = [
        [{ score: 1, player_id: w.player.id }, 'player_id'],
        [{ board: 'main' }, 'score'],
        [{ score: 1.5 }, 'score'],
        [{ score: 2 ** 53 }, 'score'],
        [{ score: 1, board: 'Main Board' }, 'board'],
        [{ score: 1, meta: { text: 'x'.repeat(500) } }, 'meta'],
        [{ score: 1, meta: [1] }, 'meta'],
      ];
      for (const [body, field] of cases) {
        const res = await h.http.post(devUrl.scores(w.game.slug, w.player.id), { token: w.key, body });
        expectError(res, 422, 'validation_failed');
        expect(res.body.error.fields, JSON.stringify(body)).toHaveProperty(field);
      }
      expect(await scoresOf(w.game.id)).toEqual([]);
    });

    it('answers 404 leaderboard_disabled for a game without a leaderboard, and 404 not_found for draft and retired games', async () => {
      const off = await gameWithPlayer(h, { leaderboard_enabled: 0 });
      expectError(
        await h.http.post(devUrl.scores(off.game.slug, off.player.id), { token: off.key, body: { score: 1 } }),
        404,
        'leaderboard_disabled',
      );
      for (const status of ['draft', 'retired']) {
        const w = await gameWithPlayer(h, { status });
        expectError(
          await h.http.post(devUrl.scores(w.game.slug, w.player.id), { token: w.key, body: { score: 1 } }),
          404,
          'not_found',
        );
      }
    });

    it('counts a player of several games for each of their keys, each on its own game', async () => {
      const a = await gameWithPlayer(h);
      const b = await createGame(h.ctx);
      await createPlaySession(h.ctx, a.player.id, b.id);
      const { key: keyB } = await createKey(h.ctx, b.id, ['scores:write']);
      expect((await h.http.post(devUrl.scores(b.slug, a.player.id), { token: keyB, body: { score: 7 } })).status).toBe(
        201,
      );
      expectError(
        await h.http.post(devUrl.scores(a.game.slug, a.player.id), { token: keyB, body: { score: 7 } }),
        403,
        'forbidden',
      );
      expect(await scoresOf(b.id)).toEqual([{ player_id: a.player.id, board: 'main', score: 7 }]);
      expect(await scoresOf(a.game.id)).toEqual([]);
    });
  });
});
