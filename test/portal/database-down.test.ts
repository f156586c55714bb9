// Portal pages while the database is out of reach: served anyway, with the header left to the page's script (neither a
// player's nor "Log in · Register") and kept by no cache; the API answers 503 unavailable in its envelope.
import { afterEach, expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { databaseOutage, type Outage } from '../helpers/outage.js';

const nav = (html: string) => /<div id="account-nav" class="account-nav">([\s\S]*?)<\/div>/.exec(html)?.[1];

eachDialect('portal: pages with the database out of reach', (h) => {
  let outage: Outage | undefined;
  afterEach(async () => {
    await outage?.end();
    outage = undefined;
  });

  async function signedIn() {
    const { token, player } = await createPlayerWithToken(h.ctx, { display_name: 'Ada Lovelace' });
    await createGame(h.ctx, { slug: 'down-game', name: 'Down Game' });
    return { headers: { cookie: `gp_session=${h.app.signCookie(token)}` }, player };
  }

  it("serves a signed-in player's catalogue and game page with an empty header for the script to fill, kept by no cache", async () => {
    const { headers, player } = await signedIn();
    // Up: the header names the player.
    const up = await h.app.inject({ url: '/games/down-game', headers });
    expect(nav(up.body)).toContain('Ada Lovelace');

    outage = databaseOutage(h);
    await outage.start();
    for (const url of ['/', '/games/down-game', '/playtime', `/u/${player.username}`]) {
      const res = await h.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(nav(res.body), url).toBe('');
      expect(res.body, url).not.toContain('Log in');
      expect(res.body, url).not.toContain('data-session="none"');
      expect(res.body, url).toMatch(/<script src="\/assets\/portal-[A-Z0-9]+\.js" defer><\/script>/);
    }
    // The game's and the profile's pages are the shells their scripts fill from the API.
    const game = await h.app.inject({ url: '/games/down-game', headers });
    expect(game.body).toContain('data-page="game"');
    expect(game.body).toContain('data-slug="down-game"');
    const profile = await h.app.inject({ url: `/u/${player.username}`, headers });
    expect(profile.body).toContain('data-page="profile"');
    expect(profile.body).toContain(`data-username="${player.username}"`);

    // The API still answers 503 unavailable in its envelope.
    for (const url of ['/v1/me', '/v1/games', '/v1/games/down-game']) {
      const res = await h.app.inject({ url, headers: { ...headers, 'x-requested-with': 'ServiceSDK' } });
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    }

    // Back: the header names the player again, and the page is cached as before.
    await outage.end();
    outage = undefined;
    await expect
      .poll(async () => nav((await h.app.inject({ url: '/games/down-game', headers })).body), { timeout: 10_000 })
      .toContain('Ada Lovelace');
    const res = await h.app.inject({ url: '/', headers });
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('serves a visitor the catalogue without cards, "Log in · Register" in the header, kept by no cache', async () => {
    await createGame(h.ctx, { slug: 'down-visitor', name: 'Down Visitor' });
    outage = databaseOutage(h);
    await outage.start();
    const res = await h.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(nav(res.body)).toContain('Log in');
    expect(res.body).toContain('data-session="none"');
    expect(res.body).not.toContain('Down Visitor');
  });
});
