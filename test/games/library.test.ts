// GET /me/favorites and GET /me/recent: the player's favourite and recently played games, on both databases.
import { expect, it } from 'vitest';
import { createGame, createKey, createPlaySession, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('games: GET /me/favorites', (h) => {
  const favorites = async (token: string) => {
    const res = await h.http.get('/v1/me/favorites', { token });
    expect(res.status).toBe(200);
    return res.body as { data: { games: Array<{ slug: string; name: string }> }; meta: { count: number } };
  };

  it('lists the favourite games, the most recently marked first, as GET /games shows them', async () => {
    const [one, two, three] = [await createGame(h.ctx), await createGame(h.ctx), await createGame(h.ctx)];
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await favorites(token)).data.games).toEqual([]);
    for (const game of [two, one, three]) {
      await h.http.post(`/v1/games/${game.slug}/favorite`, { token });
      h.clock.advance(1);
    }
    await h.http.post(`/v1/games/${three.slug}/favorite`, { token }); // unmarked again
    const body = await favorites(token);
    expect(body.data.games.map((g) => g.slug)).toEqual([one.slug, two.slug]);
    expect(body.meta).toEqual({ count: 2 });
    const listed = (await h.http.get('/v1/games')).body.data.games.find((g: { slug: string }) => g.slug === one.slug);
    expect(body.data.games[0]).toEqual(listed);
  });

  it("leaves out another player's favourites and games no longer listed", async () => {
    const [shown, hidden] = [await createGame(h.ctx), await createGame(h.ctx)];
    const ann = await createPlayerWithToken(h.ctx);
    const bob = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${shown.slug}/favorite`, { token: ann.token });
    await h.http.post(`/v1/games/${hidden.slug}/favorite`, { token: ann.token });
    await h.ctx.db.updateTable('games').set({ status: 'retired' }).where('id', '=', hidden.id).execute();
    expect((await favorites(ann.token)).data.games.map((g) => g.slug)).toEqual([shown.slug]);
    expect((await favorites(bob.token)).data.games).toEqual([]);
  });

  it('needs a player: 401 without a credential, 403 forbidden with a developer key', async () => {
    expect((await h.http.get('/v1/me/favorites')).status).toBe(401);
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['players:read', 'stats:read']);
    const res = await h.http.get('/v1/me/favorites', { token: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});

eachDialect('games: GET /me/recent', (h) => {
  type Entry = {
    game: { slug: string };
    last_played_at: string;
    last_save: { slot: number; label: string | null; updated_at: string } | null;
  };
  const recent = async (token: string, query: Record<string, string> = {}) => {
    const res = await h.http.get('/v1/me/recent', { token, query });
    expect(res.status).toBe(200);
    return res.body as { data: { recent: Entry[] }; meta: { count: number } };
  };
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const save = async (token: string, slug: string, slot: number, label?: string) => {
    const res = await h.http.put(`/v1/games/${slug}/states/${slot}`, {
      token,
      body: { state: { slot }, ...(label ? { label } : {}) },
    });
    expect([200, 201]).toContain(res.status);
  };

  it('lists the played games, the last played first, once each, with when', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const [a, b, never] = [await createGame(h.ctx), await createGame(h.ctx), await createGame(h.ctx)];
    expect((await recent(token)).data.recent).toEqual([]);
    const t0 = h.clock.now();
    await createPlaySession(h.ctx, player.id, a.id, { lastHeartbeatAt: t0 + 1_000 });
    await createPlaySession(h.ctx, player.id, b.id, { lastHeartbeatAt: t0 + 5_000 });
    await createPlaySession(h.ctx, player.id, a.id, { lastHeartbeatAt: t0 + 9_000, status: 'active' });
    const body = await recent(token);
    expect(body.data.recent.map((e) => e.game.slug)).toEqual([a.slug, b.slug]);
    expect(body.data.recent.map((e) => e.last_played_at)).toEqual([stamp(t0 + 9_000), stamp(t0 + 5_000)]);
    expect(body.data.recent.some((e) => e.game.slug === never.slug)).toBe(false);
    expect(body.meta).toEqual({ count: 2 });
    // The Game of GET /games/{slug}, without what only that route carries (screenshots, rating).
    const { screenshots, rating, ...game } = (await h.http.get(`/v1/games/${a.slug}`)).body.data;
    expect(body.data.recent[0]!.game).toEqual(game);
  });

  it('gives the save slot written last, or null when every slot is empty', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const [saved, emptied, unsaved] = [await createGame(h.ctx), await createGame(h.ctx), await createGame(h.ctx)];
    for (const game of [saved, emptied, unsaved]) await createPlaySession(h.ctx, player.id, game.id);
    await save(token, saved.slug, 2, 'Level 4');
    h.clock.advance(60);
    await save(token, saved.slug, 0, 'Level 7');
    const at = h.clock.now();
    h.clock.advance(60);
    await save(token, saved.slug, 1);
    await h.http.delete(`/v1/games/${saved.slug}/states/1`, { token }); // emptied: the slot before it counts
    await save(token, emptied.slug, 0, 'Gone');
    await h.http.delete(`/v1/games/${emptied.slug}/states/0`, { token });
    const bySlug = new Map((await recent(token)).data.recent.map((e) => [e.game.slug, e.last_save]));
    expect(bySlug.get(saved.slug)).toEqual({ slot: 0, label: 'Level 7', updated_at: stamp(at) });
    expect(bySlug.get(emptied.slug)).toBeNull();
    expect(bySlug.get(unsaved.slug)).toBeNull();
  });

  it('keeps to limit (12 by default) and refuses a limit outside 1 to 50 with 422', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const start = h.clock.now();
    const games = [];
    for (let i = 0; i < 14; i++) {
      const game = await createGame(h.ctx);
      games.push(game);
      await createPlaySession(h.ctx, player.id, game.id, { lastHeartbeatAt: start + i * 1000 });
    }
    const newestFirst = games.map((g) => g.slug).reverse();
    expect((await recent(token)).data.recent.map((e) => e.game.slug)).toEqual(newestFirst.slice(0, 12));
    expect((await recent(token, { limit: '3' })).data.recent.map((e) => e.game.slug)).toEqual(newestFirst.slice(0, 3));
    for (const limit of ['0', '51', 'x']) {
      const res = await h.http.get('/v1/me/recent', { token, query: { limit } });
      expect(res.status, limit).toBe(422);
      expect(res.body.error.fields.limit).toBeDefined();
    }
  });

  it("leaves out another player's plays and saves, and games no longer listed", async () => {
    const ann = await createPlayerWithToken(h.ctx);
    const bob = await createPlayerWithToken(h.ctx);
    const [shared, retired] = [await createGame(h.ctx), await createGame(h.ctx)];
    await createPlaySession(h.ctx, ann.player.id, shared.id);
    await createPlaySession(h.ctx, ann.player.id, retired.id);
    await createPlaySession(h.ctx, bob.player.id, shared.id);
    await save(bob.token, shared.slug, 0, "Bob's");
    await h.ctx.db.updateTable('games').set({ status: 'retired' }).where('id', '=', retired.id).execute();
    const entries = (await recent(ann.token)).data.recent;
    expect(entries.map((e) => e.game.slug)).toEqual([shared.slug]);
    expect(entries[0]!.last_save).toBeNull();
  });

  it('needs a player: 401 without a credential, 403 forbidden with a developer key', async () => {
    expect((await h.http.get('/v1/me/recent')).status).toBe(401);
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['players:read', 'stats:read']);
    const res = await h.http.get('/v1/me/recent', { token: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});
