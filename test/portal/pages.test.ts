// The portal's pages as HTTP: HTML shells with a strict CSP, real 404 pages outside /v1, the SDK script and the built assets.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createPlayer } from '../helpers/factories.js';

eachDialect('portal: pages', (h) => {
  it.each([
    '/',
    '/login',
    '/register',
    '/logout',
    '/forgot-password',
    '/reset-password?token=x',
    '/verify-email?token=x',
    '/account',
    '/playtime',
    '/admin',
    '/studio',
    '/docs/sdk',
  ])('serves %s as an HTML page with a Content-Security-Policy and no inline script', async (url) => {
    const res = await h.http.get(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).toMatch(/<script src="\/assets\/portal-[A-Z0-9]+\.js" defer><\/script>/);
    expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(res.text).toContain('<main id="main"');
  });

  it('serves a listed game page and play shell, and a real 404 page for an unknown or unlisted slug', async () => {
    await createGame(h.ctx, { slug: 'shown', name: 'Shown <Game>' });
    await createGame(h.ctx, { slug: 'drafted', status: 'draft' });
    const page = await h.http.get('/games/shown');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Shown &lt;Game&gt; · Game Platform</title>');
    expect(page.text).toContain('data-slug="shown"');
    expect((await h.http.get('/play/shown')).text).toContain('data-page="play"');
    for (const url of ['/games/nope', '/games/drafted', '/play/drafted']) {
      const res = await h.http.get(url);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Page not found');
    }
  });

  it('serves a profile page for an active player by username, any case, and 404 otherwise', async () => {
    await createPlayer(h.ctx, { username: 'Ada_L', display_name: 'Ada' });
    await createPlayer(h.ctx, { username: 'gone', status: 'suspended' });
    const res = await h.http.get('/u/ada_l');
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-username="Ada_L"');
    expect((await h.http.get('/u/gone')).status).toBe(404);
  });

  it.each(['/games/%00', '/play/a%00b', '/u/x%00', '/games/NOT_A_SLUG', '/u/no'])(
    'answers %s, which cannot name a game or player, with the HTML 404 page',
    async (url) => {
      const res = await h.http.get(url);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    },
  );

  it('answers an unknown path outside the API with an HTML 404 page that escapes the path', async () => {
    const res = await h.http.get('/no/such/<page>');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.text).toContain('&lt;page&gt;');
    expect(res.text).not.toContain('<page>');
  });

  it('keeps the JSON envelope for unknown paths under /v1 and for other methods', async () => {
    const api = await h.http.get('/v1/no/such/page');
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ ok: false, error: { code: 'not_found', message: expect.any(String) } });
    const post = await h.http.post('/login', { body: {} });
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe('method_not_allowed');
  });

  it("serves the SDK and its types, readable from the games' sandboxed frames", async () => {
    const js = await h.http.get('/sdk/v1.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(js.text).toContain('GamePlatform');
    const types = await h.http.get('/sdk/v1.d.ts');
    expect(types.status).toBe(200);
    expect(types.text).toContain('declare const GamePlatform: GamePlatform.SDK');
  });

  it("has an SDK guide that states the frame's rules and how to ship each engine's build", async () => {
    const guide = (await h.http.get('/docs/sdk')).text;
    for (const heading of [
      'id="frame"',
      'id="engines"',
      'id="phaser"',
      'id="vite"',
      'id="unity"',
      'id="godot"',
      'id="construct"',
    ])
      expect(guide).toContain(heading);
    expect(guide).toContain('cross_origin_isolated');
    expect(guide).toContain('instantiateStreaming');
    expect(guide).not.toContain('opaque origin');
  });

  it('serves hashed assets for good and the pages never from cache', async () => {
    const page = await h.http.get('/');
    expect(page.headers['cache-control']).toBe('no-cache');
    const script = /\/assets\/(portal-[A-Z0-9]+\.js)/.exec(page.text)![1];
    const asset = await h.http.get(`/assets/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it("names the studio console's charts on /studio alone, and the portal's bundle carries no uPlot", async () => {
    const studio = await h.http.get('/studio');
    const script = /data-charts-script="(\/assets\/charts-[A-Z0-9]+\.js)"/.exec(studio.text)?.[1];
    const style = /data-charts-style="(\/assets\/charts-[A-Z0-9]+\.css)"/.exec(studio.text)?.[1];
    expect(script && style, studio.text.slice(0, 2000)).toBeTruthy();
    const charts = await h.http.get(script!);
    expect(charts.status).toBe(200);
    expect(charts.text).toContain('gpCharts');
    expect((await h.http.get(style!)).text).toContain('.u-legend');
    for (const url of ['/', '/admin', '/playtime']) expect((await h.http.get(url)).text).not.toContain('data-charts');
    const bundle = /\/assets\/portal-[A-Z0-9]+\.js/.exec(studio.text)![0];
    expect(charts.text).toContain('u-legend');
    expect((await h.http.get(bundle)).text).not.toContain('u-legend');
  });

  it("serves /docs as a portal page under the portal's strict policy", async () => {
    const res = await h.http.get('/docs');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
    expect(res.text).toContain('class="site-header"');
  });
});

eachDialect("portal: what a game's origin may load", (h) => {
  const gameOrigin = 'http://orbit.games.localhost:8080';

  it("lets a game GET the SDK on its own origin and the portal's, with the portal's origin written in", async () => {
    for (const url of ['/sdk/v1.js', `${gameOrigin}/sdk/v1.js`]) {
      const sdk = await h.http.get(url, { headers: { origin: gameOrigin } });
      expect(sdk.status, url).toBe(200);
      expect(sdk.text).toContain(`"${h.config.public_origin}"`);
      expect(sdk.text).not.toContain('%PORTAL_ORIGIN%');
      expect((await h.http.head(url, { headers: { origin: 'null' } })).status).toBe(200);
    }
  });

  it("refuses everything else from a game's origin (or an opaque one) on the portal", async () => {
    for (const origin of [gameOrigin, 'null']) {
      for (const [method, url] of [
        ['get', '/v1/status'],
        ['get', '/'],
        ['get', '/play/x'],
        ['post', '/sdk/v1.js'],
        ['post', '/v1/play/start'],
        ['get', '/gx/a'],
      ] as const) {
        const res = await h.http[method](url, { headers: { origin } });
        expect(res.status, `${origin} ${method} ${url}`).toBe(403);
        expect(res.body.error.code).toBe('cross_origin_forbidden');
      }
    }
    expect((await h.http.post(`${gameOrigin}/index.html`, { headers: { origin: gameOrigin } })).status).toBe(403);
  });

  it("serves nothing but game files on a game's host: no API, no portal page, no cookie", async () => {
    for (const path of [
      '/v1/status',
      '/v1/me',
      '/',
      '/games/orbit',
      '/docs',
      '/assets/icon.svg',
      '/avatars/initials/1/AB.svg',
    ]) {
      const res = await h.http.get(`${gameOrigin}${path}`);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body?.ok, path).toBe(false);
      expect(res.headers['set-cookie'], path).toBeUndefined();
    }
  });
});
