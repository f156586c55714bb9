// GET /games, GET /games/{slug} and the favourites toggle, on both databases.
import { expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

let unique = 0;
const tag = (what: string) => `${what}${process.pid}x${++unique}`;

eachDialect('games: GET /games', (h) => {
  const list = async (query: Record<string, string>) => {
    const res = await h.http.get('/v1/games', { query });
    expect(res.status).toBe(200);
    return res.body as {
      data: { games: Array<{ slug: string; name: string }> };
      meta: { count: number; categories: Record<string, number> };
    };
  };

  it('lists published and beta games, never draft or retired ones', async () => {
    const category = tag('cat');
    const made = [];
    for (const status of ['published', 'beta', 'draft', 'retired'])
      made.push(await createGame(h.ctx, { category, status }));
    const body = await list({ category });
    expect(body.data.games.map((g) => g.slug).sort()).toEqual([made[0]!.slug, made[1]!.slug].sort());
    expect(body.meta.count).toBe(2);
  });

  it('orders by plays, most first, then by name ignoring case, numbers by value', async () => {
    const category = tag('cat');
    const names: Array<[string, number]> = [
      ['zeta', 5],
      ['Alpha', 5],
      ['Mid', 9],
      ['Game 10', 0],
      ['game 2', 0],
    ];
    for (const [name, plays] of names) await createGame(h.ctx, { category, name, plays });
    expect((await list({ category })).data.games.map((g) => g.name)).toEqual([
      'Mid',
      'Alpha',
      'zeta',
      'game 2',
      'Game 10',
    ]);
  });

  it('finds a game by each of name, tagline, description, tags and author, ignoring case', async () => {
    const words = {
      name: tag('Name'),
      tagline: tag('Tagline'),
      description: tag('Description'),
      tag: tag('Tag'),
      author: tag('Author'),
    };
    const { slug } = await publishFixture(h.ctx, 'orbit-dash', {
      manifest: {
        name: `The ${words.name}`,
        tagline: `A ${words.tagline} game`,
        description: `Long text\nwith ${words.description} inside`,
        tags: ['space', words.tag],
        author: `${words.author} Studio`,
      },
    });
    for (const word of Object.values(words)) {
      for (const q of [word, word.toUpperCase(), word.toLowerCase().slice(2, -1)]) {
        expect(
          (await list({ q })).data.games.map((g) => g.slug),
          `q=${q}`,
        ).toEqual([slug]);
      }
    }
    expect((await list({ q: tag('nothing') })).data.games).toEqual([]);
  });

  it('matches case beyond ASCII the same on both databases', async () => {
    const word = tag('w');
    const { slug } = await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { name: `Große Straße ÆRØ ÉCLAIR ${word}` },
    });
    for (const q of ['GROSSE', 'straße', 'strasse', 'ærø', 'éclair', 'Éclair']) {
      expect(
        (await list({ q: `${q}` })).data.games.map((g) => g.slug),
        q,
      ).toContain(slug);
    }
  });

  it('takes % and _ in q literally', async () => {
    const word = tag('juice');
    const percent = await createGame(h.ctx, { name: `100% ${word}` });
    const underscore = await createGame(h.ctx, { name: `snake_${word}` });
    await createGame(h.ctx, { name: `1000 ${word}` });
    await createGame(h.ctx, { name: `snakes ${word}` });
    expect((await list({ q: `100% ${word}` })).data.games.map((g) => g.slug)).toEqual([percent.slug]);
    expect((await list({ q: `e_${word}` })).data.games.map((g) => g.slug)).toEqual([underscore.slug]);
    expect((await list({ q: `%${word}` })).data.games).toEqual([]);
  });

  it('counts the games matching q per category, before the category filter', async () => {
    const word = tag('count');
    const [a, b] = [tag('a'), tag('b')];
    await createGame(h.ctx, { category: a, tagline: `with ${word}` });
    await createGame(h.ctx, { category: a, tagline: `with ${word}` });
    await createGame(h.ctx, { category: a, tagline: `with ${word}`, status: 'draft' });
    await createGame(h.ctx, { category: b, tagline: `with ${word}` });
    await createGame(h.ctx, { category: b, tagline: 'unrelated' });
    const body = await list({ q: word, category: a });
    expect(body.data.games).toHaveLength(2);
    expect(body.meta).toEqual({ count: 2, categories: { [a]: 2, [b]: 1 } });
    expect((await list({ q: word, category: a.toUpperCase() })).meta.count).toBe(2);
    expect((await list({ q: word, category: 'no-such-category' })).meta).toEqual({
      count: 0,
      categories: { [a]: 2, [b]: 1 },
    });
    // Without the category filter: the same counts, from the games listed.
    const unfiltered = await list({ q: word });
    expect(unfiltered.data.games).toHaveLength(3);
    expect(unfiltered.meta).toEqual({ count: 3, categories: { [a]: 2, [b]: 1 } });
  });

  it('lists everything listed without q, and treats a blank q as none', async () => {
    const all = await list({});
    expect(all.meta.count).toBe(all.data.games.length);
    expect(Object.values(all.meta.categories).reduce((x, y) => x + y, 0)).toBe(all.meta.count);
    expect((await list({ q: '   ' })).meta.count).toBe(all.meta.count);
  });

  it('refuses a q over 100 characters with 422', async () => {
    const res = await h.http.get('/v1/games', { query: { q: 'x'.repeat(101) } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.q).toBeDefined();
  });
});

eachDialect('games: GET /games/{slug}', (h) => {
  it('gives every field of the spec', async () => {
    const { slug, files_dir } = await publishFixture(h.ctx, 'orbit-dash');
    const res = await h.http.get(`/v1/games/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      slug,
      name: 'Orbit Dash',
      tagline: 'Slingshot around planets without crashing',
      description: 'Time your thrusters, ride the gravity wells and collect stardust.\nThree lives, one leaderboard.',
      category: 'arcade',
      tags: ['space', 'one-button'],
      version: '1.2.0',
      orientation: 'landscape',
      players: { min: 1, max: 1 },
      leaderboard: { enabled: true, order: 'desc', unit: 'points' },
      save_slots: 3,
      requires_premium: false,
      status: 'published',
      author: 'Nebula Works',
      released_at: '2026-03-14',
      cover_url: `http://${slug}.games.localhost:8080/~${files_dir}/cover.png`,
      play_url: `http://localhost:8080/play/${slug}`,
      stats: { plays: 0, playtime_hours: 0 },
      screenshots: [],
      rating: { up: 0, down: 0, percent: null },
    });
    const cover = await h.http.get(res.body.data.cover_url);
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
  });

  it('shows the play counters as plays and hours with one decimal', async () => {
    const game = await createGame(h.ctx, { plays: 42, playtime_seconds: 5 * 3600 + 5 * 60 });
    expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.stats).toEqual({ plays: 42, playtime_hours: 5.1 });
  });

  it('shows a beta game', async () => {
    const game = await createGame(h.ctx, { status: 'beta' });
    expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.status).toBe('beta');
  });

  it.each(['draft', 'retired'])('answers 404 for a %s game', async (status) => {
    const game = await createGame(h.ctx, { status });
    const res = await h.http.get(`/v1/games/${game.slug}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('answers 404 for an unknown slug', async () => {
    for (const slug of ['no-such-game', 'UPPER', '%E2%9C%93']) {
      const res = await h.http.get(`/v1/games/${slug}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('carries is_favorite only when called with a player credential', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await h.http.get(`/v1/games/${game.slug}`)).body.data).not.toHaveProperty('is_favorite');
    expect((await h.http.get(`/v1/games/${game.slug}`, { token })).body.data.is_favorite).toBe(false);
    await h.http.post(`/v1/games/${game.slug}/favorite`, { token });
    expect((await h.http.get(`/v1/games/${game.slug}`, { token })).body.data.is_favorite).toBe(true);
    const { key } = await createKey(h.ctx, game.id, ['stats:read']);
    const withKey = await h.http.get(`/v1/games/${game.slug}`, { token: key });
    expect(withKey.status).toBe(200);
    expect(withKey.body.data).not.toHaveProperty('is_favorite');
  });

  it('counts published and beta games in /status', async () => {
    const before = (await h.http.get('/v1/status')).body.data.games;
    await publishFixture(h.ctx, 'orbit-dash');
    await publishFixture(h.ctx, 'quiet-garden');
    await publishFixture(h.ctx, 'orbit-dash', { manifest: { status: 'draft' } });
    expect((await h.http.get('/v1/status')).body.data.games).toBe(before + 2);
  });
});

eachDialect('games: POST /games/{slug}/favorite', (h) => {
  it("toggles the player's favourite and leaves another player's alone", async () => {
    const game = await createGame(h.ctx);
    const ann = await createPlayerWithToken(h.ctx);
    const bob = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${game.slug}/favorite`, { token: bob.token });

    const first = await h.http.post(`/v1/games/${game.slug}/favorite`, { token: ann.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ is_favorite: true });
    expect((await h.http.post(`/v1/games/${game.slug}/favorite`, { token: ann.token })).body.data).toEqual({
      is_favorite: false,
    });
    expect((await h.http.get(`/v1/games/${game.slug}`, { token: ann.token })).body.data.is_favorite).toBe(false);
    expect((await h.http.get(`/v1/games/${game.slug}`, { token: bob.token })).body.data.is_favorite).toBe(true);
  });

  it('keeps favourites per game', async () => {
    const [one, two] = [await createGame(h.ctx), await createGame(h.ctx)];
    const { token } = await createPlayerWithToken(h.ctx);
    await h.http.post(`/v1/games/${one.slug}/favorite`, { token });
    expect((await h.http.get(`/v1/games/${one.slug}`, { token })).body.data.is_favorite).toBe(true);
    expect((await h.http.get(`/v1/games/${two.slug}`, { token })).body.data.is_favorite).toBe(false);
  });

  it('runs toggles that race one after the other', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => h.http.post(`/v1/games/${game.slug}/favorite`, { token })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.map((r) => r.body.data.is_favorite).sort()).toEqual([false, false, true, true]);
    expect((await h.http.get(`/v1/games/${game.slug}`, { token })).body.data.is_favorite).toBe(false);
  });

  it('needs a player: 401 without a credential, 403 forbidden with a developer key', async () => {
    const game = await createGame(h.ctx);
    expect((await h.http.post(`/v1/games/${game.slug}/favorite`)).status).toBe(401);
    const { key } = await createKey(h.ctx, game.id, [
      'states:read',
      'states:write',
      'scores:write',
      'players:read',
      'stats:read',
    ]);
    const res = await h.http.post(`/v1/games/${game.slug}/favorite`, { token: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('answers 404 for games players cannot see', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const draft = await createGame(h.ctx, { status: 'draft' });
    for (const slug of [draft.slug, 'no-such-game']) {
      const res = await h.http.post(`/v1/games/${slug}/favorite`, { token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
