// What browsers, home screens, crawlers and link previews ask a site for at fixed places: /favicon.ico,
// /apple-touch-icon.png, /manifest.webmanifest and its icons, /robots.txt, /sitemap.xml, the site's share image
// (/share.png) and each game's preview (/games/{slug}/preview.png). docs/operations.md, "Crawlers and link previews".
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, THEME_COLOR } from './html.js';
import { findListedGame, listListedGamesForSitemap } from './portal.repository.js';
import { gamePreview, loadSiteImages, previewVersion, type SiteImages } from './share-images.js';
import { catalogueUrl } from './catalogue-page.js';
import { BACKGROUND_COLOR } from './share-images.js';

const DAY = 86_400;

/** Paths crawlers need not visit: a player's own pages, the play shell, previews, the API and game files. */
const DISALLOWED = ['/account', '/playtime', '/play/', '/preview/', '/v1/', '/g/', '/login', '/register', '/logout'];

export function siteFileRoutes(assetsRoot: string) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const config = { auth: 'none' as const };
    const schema = { hide: true };
    const { public_url } = app.ctx.config;

    const sendImage = async (reply: FastifyReply, pick: (images: SiteImages) => Buffer, type = 'image/png') => {
      const images = await loadSiteImages(assetsRoot);
      return reply.header('cache-control', `public, max-age=${DAY}`).type(type).send(pick(images));
    };
    app.get('/favicon.ico', { config, schema }, (_q, reply) => sendImage(reply, (i) => i.favicon, 'image/x-icon'));
    app.get('/apple-touch-icon.png', { config, schema }, (_q, reply) => sendImage(reply, (i) => i.touch));
    app.get('/icons/icon-192.png', { config, schema }, (_q, reply) => sendImage(reply, (i) => i.icon192));
    app.get('/icons/icon-512.png', { config, schema }, (_q, reply) => sendImage(reply, (i) => i.icon512));
    app.get('/share.png', { config, schema }, (_q, reply) => sendImage(reply, (i) => i.share));

    const manifest = JSON.stringify({
      name: 'Game Platform',
      short_name: 'Games',
      description: 'Play HTML5 games in your browser.',
      id: '/',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLOR,
      background_color: BACKGROUND_COLOR,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      ],
    });
    app.get('/manifest.webmanifest', { config, schema }, async (_q, reply) =>
      reply.header('cache-control', `public, max-age=${DAY}`).type('application/manifest+json').send(manifest),
    );

    const robots = [
      'User-agent: *',
      ...DISALLOWED.map((p) => `Disallow: ${p}`),
      'Allow: /',
      '',
      `Sitemap: ${public_url}/sitemap.xml`,
      '',
    ].join('\n');
    app.get('/robots.txt', { config, schema }, async (_q, reply) =>
      reply.header('cache-control', `public, max-age=${DAY}`).type('text/plain; charset=utf-8').send(robots),
    );

    app.get('/sitemap.xml', { config, schema }, async (_q, reply) => {
      const games = await listListedGamesForSitemap(app.ctx.db);
      const categories = [...new Set(games.map((g) => g.category))].sort();
      const entry = (path: string, lastmod?: string) =>
        `<url><loc>${escapeHtml(`${public_url}${path}`)}</loc>${lastmod ? `<lastmod>${escapeHtml(lastmod)}</lastmod>` : ''}</url>`;
      const day = (iso: string) => (/^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined);
      const xml = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        entry('/'),
        ...categories.map((category) => entry(catalogueUrl({ category }))),
        ...games.map((g) => entry(`/games/${encodeURIComponent(g.slug)}`, day(g.released_at))),
        '</urlset>',
        '',
      ].join('\n');
      return reply.header('cache-control', 'public, max-age=3600').type('application/xml; charset=utf-8').send(xml);
    });

    // A game's link preview: rendered from its cover on the first request and stored (share-images.ts). A cover that
    // cannot be read gets the site's share image, so that a preview is always a 1200×630 PNG.
    app.get<{ Params: { slug: string }; Querystring: { v?: string } }>(
      '/games/:slug/preview.png',
      { config, schema },
      async (request, reply) => {
        const game = await findListedGame(app.ctx.db, request.params.slug);
        if (!game) return reply.callNotFound();
        const png = (await gamePreview(app.ctx, game)) ?? (await loadSiteImages(assetsRoot)).share;
        // The URL pages link carries the cover's version: that one never changes content.
        const current = request.query.v === previewVersion(game);
        return reply
          .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
          .type('image/png')
          .send(png);
      },
    );
  };
}
