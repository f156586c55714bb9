// POST /games/{slug}/scores: credentials, validation, play sessions, idempotency and concurrent submissions.
import { expect, it } from 'vitest';
import { createGame, createKey, createPlaySession, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('scores: POST /games/{slug}/scores', (h) => {
  const post = (slug: string, token: string, body: unknown, headers?: Record<string, string>) =>
    h.http.post(`/v1/games/${slug}/scores`, { token, body, headers });

  it('stores a first score: 201 with rank 1 and a personal best', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await post(game.slug, token, { score: 1200 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ok: true,
      data: { accepted: true, score: 1200, board: 'main', rank: { rank: 1, best: 1200 }, personal_best: true },
    });
  });

  it('keeps every submission and reports personal_best only when the best is beaten', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    await post(game.slug, token, { score: 50 });
    const lower = await post(game.slug, token, { score: 40 });
    expect(lower.body.data).toMatchObject({ score: 40, rank: { rank: 1, best: 50 }, personal_best: false });
    const equal = await post(game.slug, token, { score: 50 });
    expect(equal.body.data.personal_best).toBe(false);
    const higher = await post(game.slug, token, { score: 51 });
    expect(higher.body.data).toMatchObject({ rank: { best: 51 }, personal_best: true });
    const history = await h.http.get(`/v1/games/${game.slug}/scores/me`, { token });
    expect(history.body.data.scores.map((s: { score: number }) => s.score)).toEqual([51, 50, 40, 50]);
  });

  it('treats a lower score as better on an asc board', async () => {
    const game = await createGame(h.ctx, { leaderboard_order: 'asc', leaderboard_unit: 'ms' });
    const { token } = await createPlayerWithToken(h.ctx);
    await post(game.slug, token, { score: 30_000 });
    const faster = await post(game.slug, token, { score: 29_500 });
    expect(faster.body.data).toMatchObject({ personal_best: true, rank: { rank: 1, best: 29_500 } });
    const slower = await post(game.slug, token, { score: 31_000 });
    expect(slower.body.data).toMatchObject({ personal_best: false, rank: { best: 29_500 } });
  });

  it('files scores on separate boards', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    await post(game.slug, token, { score: 10, board: 'hard_mode-2' });
    const res = await post(game.slug, token, { score: 5 });
    expect(res.body.data).toMatchObject({ board: 'main', personal_best: true, rank: { rank: 1, best: 5 } });
  });

  it('stores meta as given and refuses meta over 500 characters of JSON', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const meta = { level: 3, path: 'x'.repeat(500 - '{"level":3,"path":""}'.length) };
    expect(JSON.stringify(meta)).toHaveLength(500);
    expect((await post(game.slug, token, { score: 1, meta })).status).toBe(201);
    const res = await post(game.slug, token, { score: 1, meta: { ...meta, path: `${meta.path}y` } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', fields: { meta: expect.any(String) } });
    const history = await h.http.get(`/v1/games/${game.slug}/scores/me`, { token });
    expect(history.body.data.scores).toHaveLength(1);
    expect(history.body.data.scores[0].meta).toEqual(meta);
  });

  it.each([
    ['a fraction', { score: 1.5 }, 'score'],
    ['a string', { score: '10' }, 'score'],
    ['an unsafe integer', { score: 2 ** 53 }, 'score'],
    ['no score', {}, 'score'],
    ['an upper-case board', { score: 1, board: 'Main' }, 'board'],
    ['a 41-character board', { score: 1, board: 'a'.repeat(41) }, 'board'],
    ['an empty board', { score: 1, board: '' }, 'board'],
    ['an array as meta', { score: 1, meta: [1] }, 'meta'],
    ['a string as meta', { score: 1, meta: 'x' }, 'meta'],
    ['an unknown field', { score: 1, level: 2 }, 'level'],
  ])('refuses %s with 422', async (_what, body, field) => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await post(game.slug, token, body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(field);
  });

  it('accepts the largest safe integers both ways', async () => {
    const game = await createGame(h.ctx);
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    expect((await post(game.slug, a.token, { score: Number.MAX_SAFE_INTEGER })).body.data.rank).toEqual({
      rank: 1,
      best: Number.MAX_SAFE_INTEGER,
    });
    expect((await post(game.slug, b.token, { score: -Number.MAX_SAFE_INTEGER })).body.data.rank).toEqual({
      rank: 2,
      best: -Number.MAX_SAFE_INTEGER,
    });
  });

  it('answers 404 for unknown, draft and retired games', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const draft = await createGame(h.ctx, { status: 'draft' });
    const retired = await createGame(h.ctx, { status: 'retired' });
    for (const slug of ['no-such-game', draft.slug, retired.slug]) {
      const res = await post(slug, token, { score: 1 });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('answers 404 leaderboard_disabled for a game without a leaderboard', async () => {
    const game = await createGame(h.ctx, { leaderboard_enabled: 0 });
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await post(game.slug, token, { score: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('leaderboard_disabled');
  });

  it('needs a credential', async () => {
    const game = await createGame(h.ctx);
    const res = await h.http.post(`/v1/games/${game.slug}/scores`, { body: { score: 1 } });
    expect(res.status).toBe(401);
  });

  it("refuses a player token naming another player's id with 403, and accepts its own id", async () => {
    const game = await createGame(h.ctx);
    const me = await createPlayerWithToken(h.ctx);
    const other = await createPlayerWithToken(h.ctx);
    const res = await post(game.slug, me.token, { score: 1, player_id: other.player.id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await post(game.slug, me.token, { score: 1, player_id: me.player.id })).status).toBe(201);
  });

  it('lets a developer key with scores:write submit for a player of its game', async () => {
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    const { player, token } = await createPlayerWithToken(h.ctx);
    await createPlaySession(h.ctx, player.id, game.id, { status: 'closed' });
    const res = await post(game.slug, key, { score: 77, player_id: player.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ score: 77, rank: { rank: 1, best: 77 } });
    const mine = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token });
    expect(mine.body.data).toMatchObject({ rank: 1, best: 77, entries: 1 });
  });

  it('needs player_id with a developer key (422)', async () => {
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    const res = await post(game.slug, key, { score: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toHaveProperty('player_id');
  });

  it('answers 404 when a key names a player who never played its game, or no player at all', async () => {
    const game = await createGame(h.ctx);
    const elsewhere = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['scores:write']);
    const { player } = await createPlayerWithToken(h.ctx);
    await createPlaySession(h.ctx, player.id, elsewhere.id);
    for (const playerId of [player.id, 999_999]) {
      const res = await post(game.slug, key, { score: 1, player_id: playerId });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it("refuses another game's key with 403 and a key without scores:write with 403 insufficient_scope", async () => {
    const game = await createGame(h.ctx);
    const other = await createGame(h.ctx);
    const { player } = await createPlayerWithToken(h.ctx);
    await createPlaySession(h.ctx, player.id, game.id);
    const foreign = await createKey(h.ctx, other.id, ['scores:write']);
    const res = await post(game.slug, foreign.key, { score: 1, player_id: player.id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    const unscoped = await createKey(h.ctx, game.id, ['states:write', 'players:read']);
    const res2 = await post(game.slug, unscoped.key, { score: 1, player_id: player.id });
    expect(res2.status).toBe(403);
    expect(res2.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'scores:write' });
  });

  it("checks play_session: the player's own session of this game, active or ended", async () => {
    const game = await createGame(h.ctx);
    const other = await createGame(h.ctx);
    const me = await createPlayerWithToken(h.ctx);
    const someone = await createPlayerWithToken(h.ctx);
    const mine = await createPlaySession(h.ctx, me.player.id, game.id, { status: 'closed' });
    const theirs = await createPlaySession(h.ctx, someone.player.id, game.id);
    const elsewhere = await createPlaySession(h.ctx, me.player.id, other.id);
    expect((await post(game.slug, me.token, { score: 1, play_session: mine.token })).status).toBe(201);
    for (const session of [theirs.token, elsewhere.token, 'ps_nonsense']) {
      const res = await post(game.slug, me.token, { score: 1, play_session: session });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_play_session');
    }
  });

  it('replays the first response for a repeated Idempotency-Key and stores nothing new', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const headers = { 'idempotency-key': 'run-42' };
    const first = await post(game.slug, token, { score: 10, meta: { a: 1, b: 2 } }, headers);
    expect(first.status).toBe(201);
    await post(game.slug, token, { score: 20 });
    h.clock.advance(23 * 3600);
    const again = await post(game.slug, token, { meta: { b: 2, a: 1 }, score: 10, board: 'main' }, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const history = await h.http.get(`/v1/games/${game.slug}/scores/me`, { token });
    expect(history.body.data.scores).toHaveLength(2);
  });

  it('refuses a reused Idempotency-Key with another body (422), and forgets keys after 24 hours', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const headers = { 'idempotency-key': 'k1' };
    await post(game.slug, token, { score: 10 }, headers);
    const reused = await post(game.slug, token, { score: 11 }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    h.clock.advance(24 * 3600 + 1);
    const later = await post(game.slug, token, { score: 11 }, headers);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await h.http.get(`/v1/games/${game.slug}/scores/me`, { token })).body.data.scores).toHaveLength(2);
  });

  it('keeps Idempotency-Keys apart per caller', async () => {
    const game = await createGame(h.ctx);
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    const headers = { 'idempotency-key': 'same' };
    expect((await post(game.slug, a.token, { score: 1 }, headers)).status).toBe(201);
    const res = await post(game.slug, b.token, { score: 2 }, headers);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses an Idempotency-Key over 255 characters', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await post(game.slug, token, { score: 1 }, { 'idempotency-key': 'k'.repeat(255) })).status).toBe(201);
    const res = await post(game.slug, token, { score: 1 }, { 'idempotency-key': 'k'.repeat(256) });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('stores one score for concurrent duplicates with the same Idempotency-Key', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const headers = { 'idempotency-key': 'burst' };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(game.slug, token, { score: 99 }, headers)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect((await h.http.get(`/v1/games/${game.slug}/scores/me`, { token })).body.data.scores).toHaveLength(1);
  });

  it('keeps the best the best under concurrent submissions by one player', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const scores = [5, 90, 12, 77, 90, 3, 64, 88, 41, 89];
    const results = await Promise.all(scores.map((score) => post(game.slug, token, { score })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    for (const period of ['all', 'month', 'week', 'day']) {
      const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { token, query: { period } });
      expect(board.body.data.leaderboard).toEqual([expect.objectContaining({ rank: 1, score: 90, entries: 10 })]);
      expect(board.body.meta.total).toBe(1);
      expect(board.body.data.me).toEqual({ rank: 1, best: 90 });
    }
  });
});
