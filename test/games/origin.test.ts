// Which host serves what: a game's own host serves its files and the SDK only; games_url with {slug} in the path
// puts every game under one games host; behind a trusted proxy its X-Forwarded-Host decides.
import { expect, it } from 'vitest';
import { createPlayer, createPlaySession, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const LONG_SLUG = `a${'b'.repeat(62)}c`; // 64 characters: a valid slug, one more than a host name label may have

eachDialect(
  'games: one origin for all games, {slug} in the path',
  (h) => {
    const base = (slug: string) => `http://games.example.test:8080/play/${slug}`;

    it('serves each game under its path on the games host, and names those URLs in the API', async () => {
      const game = await publishFixture(h.ctx, 'orbit-dash');
      const details = (await h.http.get(`/v1/games/${game.slug}`)).body.data;
      expect(details.cover_url).toBe(`${base(game.slug)}/~${game.files_dir}/cover.png`);
      expect((await h.http.get(details.cover_url)).headers['content-type']).toBe('image/png');
      expect((await h.http.get(`${base(game.slug)}/game.js`)).status).toBe(200);
      expect((await h.http.get(`/g/${game.slug}/game.js`)).headers.location).toBe(`${base(game.slug)}/game.js`);

      const player = await createPlayer(h.ctx);
      const { token } = await createPlaySession(h.ctx, player.id, game.game.id, { status: 'active' });
      expect((await h.http.get(`${base(game.slug)}/`, { query: { session: token } })).headers.location).toBe(
        `${base(game.slug)}/~${game.files_dir}/index.html?session=${token}`,
      );
    });

    it('answers anything else on the games host with 404, and serves the SDK there', async () => {
      for (const path of ['/', '/v1/status', '/play', '/play/', '/g/x/game.js', '/other/orbit/game.js']) {
        const res = await h.http.get(`http://games.example.test:8080${path}`);
        expect(res.status, path).toBe(404);
        expect(res.body.ok).toBe(false);
      }
      expect((await h.http.get('http://games.example.test:8080/sdk/v1.js')).status).toBe(200);
    });

    it('accepts a slug of 64 characters, which only a host name could not hold', async () => {
      expect((await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: LONG_SLUG } })).slug).toBe(LONG_SLUG);
    });
  },
  { settings: { games_url: 'http://games.example.test:8080/play/{slug}' } },
);

eachDialect('games: an origin per game', (h) => {
  it('refuses to publish a slug longer than a host name label', async () => {
    await expect(publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: LONG_SLUG } })).rejects.toMatchObject({
      code: 'validation_failed',
      extra: { fields: { slug: expect.stringMatching(/at most 63/) } },
    });
  });

  it('ignores X-Forwarded-Host unless a proxy is trusted', async () => {
    const game = await publishFixture(h.ctx, 'orbit-dash');
    const res = await h.http.get('/game.js', { headers: { 'x-forwarded-host': `${game.slug}.games.localhost:8080` } });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/); // the portal's 404 page
  });
});

eachDialect(
  'games: behind a trusted proxy',
  (h) => {
    it("routes by the proxy's X-Forwarded-Host", async () => {
      const game = await publishFixture(h.ctx, 'orbit-dash');
      const res = await h.http.get('/game.js', {
        headers: { 'x-forwarded-host': `${game.slug}.games.localhost:8080`, 'x-forwarded-proto': 'http' },
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      // And the portal's own name still reaches the portal.
      expect((await h.http.get('/v1/status', { headers: { 'x-forwarded-host': 'localhost:8080' } })).status).toBe(200);
    });
  },
  { settings: { trust_proxy: 'true' } },
);
