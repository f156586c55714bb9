// The portal as a crawler and a link preview read it: plain HTTP, no script. The catalogue, a category, a game and a
// profile hold their content and correct preview tags; a game's og:image answers a 1200×630 PNG rendered from its
// cover; the site basics (favicon, touch icon, manifest, robots.txt, sitemap.xml) answer with the right types.
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { setCover } from '../../src/modules/games/listing-media.service.js';
import { renderMissingPreviews } from '../../src/modules/portal/share-images.js';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createPlayer } from '../helpers/factories.js';

function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return match
    ? match[1]!
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
    : undefined;
}
const mainOf = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!;
const cardTitles = (html: string) =>
  [...mainOf(html).matchAll(/<span class="card-title">([^<]*)<\/span>/g)].map((m) => m[1]);

eachDialect('portal: what crawlers and link previews read', (h) => {
  const base = () => h.ctx.config.public_url;
  const binary = async (url: string) => {
    const res = await h.http.get(url);
    return { ...res, body: res.rawPayload };
  };

  async function png(url: string): Promise<{ width?: number; height?: number; format?: string; type: string }> {
    const path = url.startsWith(base()) ? url.slice(base().length) : url;
    const res = await binary(path);
    expect(res.status).toBe(200);
    const meta = await sharp(res.body as Buffer).metadata();
    return { width: meta.width, height: meta.height, format: meta.format, type: String(res.headers['content-type']) };
  }

  it('serves the catalogue and a category with their cards, chips and preview tags', async () => {
    await createGame(h.ctx, { slug: 'alpha', name: 'Alpha Run', tagline: 'Run & jump', category: 'arcade' });
    await createGame(h.ctx, { slug: 'bravo', name: 'Bravo Tiles', category: 'puzzle' });
    await createGame(h.ctx, { slug: 'hidden', name: 'Hidden Draft', category: 'puzzle', status: 'draft' });

    const home = await h.http.get('/');
    expect(home.status).toBe(200);
    expect(cardTitles(home.text).sort()).toEqual(['Alpha Run', 'Bravo Tiles']);
    const main = mainOf(home.text);
    expect(main).toContain('<span class="card-tagline">Run &amp; jump</span>');
    expect(main).toContain('href="/games/alpha"');
    expect(main).toContain('<p class="muted" role="status" aria-live="polite">2 games</p>');
    expect(main).toMatch(
      /<a class="chip" data-category="puzzle" href="\/\?category=puzzle">Puzzle <span class="count">\(1\)<\/span><\/a>/,
    );
    expect(main).not.toContain('Loading');
    expect(main).not.toContain('Hidden Draft');
    expect(metaOf(home.text, 'og:title')).toBe('Games');
    expect(metaOf(home.text, 'og:url')).toBe(`${base()}/`);
    expect(metaOf(home.text, 'og:image')).toBe(`${base()}/share.png`);
    expect(metaOf(home.text, 'og:description')).toMatch(/Play HTML5 games/);
    expect(metaOf(home.text, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(home.text, 'theme-color')).toBe('#4338ca');
    expect(home.text).toContain(`<link rel="canonical" href="${base()}/">`);
    expect(home.text).toContain('<link rel="manifest" href="/manifest.webmanifest">');

    const category = await h.http.get('/?category=puzzle&sort=name');
    expect(cardTitles(category.text)).toEqual(['Bravo Tiles']);
    expect(metaOf(category.text, 'og:title')).toBe('Puzzle games');
    expect(metaOf(category.text, 'og:url')).toBe(`${base()}/?category=puzzle`);
    expect(metaOf(category.text, 'og:description')).toBe(
      'Play puzzle games in your browser on Game Platform: Bravo Tiles and more.',
    );
    expect(mainOf(category.text)).toMatch(/data-category="puzzle" href="[^"]*" aria-current="page"/);
    expect(mainOf(category.text)).toContain('<option value="name" selected>');

    const searched = await h.http.get('/?q=alpha');
    expect(cardTitles(searched.text)).toEqual(['Alpha Run']);
    expect(mainOf(searched.text)).toContain('value="alpha"');
    const none = await h.http.get('/?q=zzz');
    expect(mainOf(none.text)).toContain('No games match “zzz”.');

    expect((await h.http.get('/?sort[]=x&category=<b>')).status).toBe(200);
  });

  it('gives a game page a PNG preview of 1200×630 rendered from its cover, and a profile a PNG card', async () => {
    await createGame(h.ctx, { slug: 'covered', name: 'Covered', tagline: 'Has a cover' });
    const cover = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#c03030' } })
      .png()
      .toBuffer();
    await setCover(h.ctx, 'covered', cover);
    const page = await h.http.get('/games/covered');
    expect(mainOf(page.text)).toContain('<h1>Covered</h1>');
    expect(metaOf(page.text, 'og:title')).toBe('Covered');
    expect(metaOf(page.text, 'og:description')).toBe('Has a cover');
    expect(metaOf(page.text, 'og:url')).toBe(`${base()}/games/covered`);
    expect(metaOf(page.text, 'twitter:card')).toBe('summary_large_image');
    const image = metaOf(page.text, 'og:image')!;
    expect(image).toMatch(
      new RegExp(`^${base().replace(/[.:/]/g, '\\$&')}/games/covered/preview\\.png\\?v=[\\w-]{16}$`),
    );
    expect(metaOf(page.text, 'twitter:image')).toBe(image);
    expect(metaOf(page.text, 'og:image:width')).toBe('1200');
    expect(await png(image)).toEqual({ width: 1200, height: 630, format: 'png', type: 'image/png' });
    // The cover's colour fills the preview; the second request is the stored one, cached for good under its version.
    const res = await binary(image.slice(base().length));
    const { data } = await sharp(res.body as Buffer)
      .raw()
      .toBuffer({ resolveWithObject: true });
    // (the stored cover is WebP: a shade off)
    const shadeOff = [0xc0, 0x30, 0x30].map((want, i) => Math.abs(data[i]! - want));
    expect(Math.max(...shadeOff)).toBeLessThanOrEqual(4);
    expect(res.headers['cache-control']).toContain('immutable');

    // A game whose cover cannot be read still previews as a PNG (the site's share image).
    await createGame(h.ctx, { slug: 'no-cover', name: 'No Cover' });
    const plain = await h.http.get('/games/no-cover');
    expect(await png(metaOf(plain.text, 'og:image')!)).toMatchObject({ width: 1200, height: 630, format: 'png' });
    expect((await h.http.get('/games/nobody-here/preview.png')).status).toBe(404);
    // `gameplatform games previews`: the stored one counts, the unreadable cover is named.
    const run = await renderMissingPreviews(h.ctx);
    expect(run.failed).toContain('no-cover');
    expect(run.failed).not.toContain('covered');
    expect(run.rendered).toBeGreaterThanOrEqual(1);

    await createPlayer(h.ctx, { username: 'crawled', display_name: 'Crawled One' });
    const profile = await h.http.get('/u/crawled');
    expect(mainOf(profile.text)).toContain('<h1>Crawled One</h1>');
    expect(metaOf(profile.text, 'og:title')).toBe('Crawled One');
    expect(metaOf(profile.text, 'og:url')).toBe(`${base()}/u/crawled`);
    expect(metaOf(profile.text, 'og:description')).toMatch(/^Crawled One \(@crawled\)/);
    expect(await png(metaOf(profile.text, 'og:image')!)).toMatchObject({ width: 1200, height: 630, format: 'png' });
  });

  it('puts preview tags on the other public pages', async () => {
    for (const url of ['/docs/sdk', '/docs', '/login', '/register']) {
      const html = (await h.http.get(url)).text;
      expect(metaOf(html, 'og:url'), url).toBe(`${base()}${url}`);
      expect(metaOf(html, 'og:image'), url).toBe(`${base()}/share.png`);
      expect(metaOf(html, 'og:title'), url).toBeTruthy();
      expect(metaOf(html, 'twitter:card'), url).toBe('summary_large_image');
    }
  });

  it('answers the site basics with the right types', async () => {
    expect(await png('/share.png')).toEqual({ width: 1200, height: 630, format: 'png', type: 'image/png' });
    expect(await png('/apple-touch-icon.png')).toEqual({ width: 180, height: 180, format: 'png', type: 'image/png' });
    expect(await png('/icons/icon-192.png')).toMatchObject({ width: 192, height: 192, format: 'png' });
    expect(await png('/icons/icon-512.png')).toMatchObject({ width: 512, height: 512, format: 'png' });

    const ico = await binary('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    const body = ico.body as Buffer;
    expect([body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const firstOffset = body.readUInt32LE(6 + 12);
    expect(body.subarray(firstOffset, firstOffset + 4).toString('latin1')).toBe('\x89PNG');

    const manifest = await h.http.get('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const app = JSON.parse(manifest.text);
    expect(app).toMatchObject({ name: 'Game Platform', start_url: '/', display: 'standalone', theme_color: '#4338ca' });
    expect(app.icons.map((i: { sizes: string }) => i.sizes)).toEqual(['192x192', '512x512']);

    const robots = await h.http.get('/robots.txt');
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.text).toContain('User-agent: *');
    expect(robots.text).toContain('Disallow: /account');
    expect(robots.text).toContain(`Sitemap: ${base()}/sitemap.xml`);

    await createGame(h.ctx, { slug: 'mapped', category: 'board-games' });
    await createGame(h.ctx, { slug: 'beta-one', category: 'arcade', status: 'beta' });
    await createGame(h.ctx, { slug: 'drafted', category: 'secret', status: 'draft' });
    const sitemap = await h.http.get('/sitemap.xml');
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    const text = sitemap.text;
    const locs = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs[0]).toBe(`${base()}/`);
    for (const url of ['/?category=arcade', '/?category=board-games', '/games/beta-one', '/games/mapped'])
      expect(locs).toContain(`${base()}${url}`);
    expect(locs.filter((l) => l!.includes('drafted') || l!.includes('secret'))).toEqual([]);
    // Categories before games, each listed once.
    expect(new Set(locs).size).toBe(locs.length);
    expect(text).toMatch(/<url><loc>[^<]*\/games\/mapped<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod><\/url>/);
  });
});
