// The portal's pages, its built assets and the SDK script. Pages are HTML shells (the catalogue's carry its cards, a
// game's and a player's their title, description and picture; public pages a link preview); the bundle fills them from
// the API. The site's fixed files (icons, manifest, robots.txt, sitemap, previews) are site-files.ts's.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { type PlayerCredential, sessionCookieName } from '../../http/auth.js';
import { avatarUrl } from '../accounts/avatar-url.js';
import { USERNAME_PATTERN } from '../accounts/username.js';
import { findActivePlayer, findHeaderPlayer, findListedGame } from './portal.repository.js';
import { gamesSource } from '../games/game-origin.js';
import { SLUG_PATTERN } from '../games/manifest.js';
import { buildIsIsolated } from '../games/preview.service.js';
import { portalCsp, renderNotFound, renderPage, UNKNOWN_PLAYER, type HeaderPlayer, type PageOptions } from './html.js';
import { gamePageOptions, playLoadingHtml, profilePageOptions } from './page-cards.js';
import { catalogueFilter, cataloguePageOptions } from './catalogue-page.js';
import { listGames, relatedGames } from '../games/games.service.js';
import { siteShareUrl } from './share-images.js';
import { siteFileRoutes } from './site-files.js';
import { renderApiReference } from './api-docs.js';
import { redirectLoopbackToPortalName } from './canonical-host.js';
import { sdkDocsHtml } from './sdk-docs.js';
import { PORTAL_ORIGIN_TOKEN, readManifest, webRoot, type Manifest } from './web-root.js';

/** The related games a game page shows (portal/pages/game-discovery.ts asks for as many). */
const RELATED_ON_PAGE = 6;

export interface PortalAssets {
  root: string;
  manifest: Manifest | null;
}

/** The player behind a session's token, through the service's cached credential lookup (app.ts hands it over). */
export type SessionLookup = (token: string, via: 'cookie') => Promise<PlayerCredential | null>;

export function loadPortalAssets(root = webRoot()): PortalAssets {
  return { root, manifest: readManifest(root) };
}

const NOT_BUILT = 'The portal is not built: run `npm run build` (npm start does it).';

/** Content-Security-Policy for every HTML response: strict on portal pages (the API reference at /docs included); game files under /g/ are the games module's. */
export function registerPageSecurity(app: FastifyInstance): void {
  const { assets_url } = app.ctx.config;
  const pageCsp = portalCsp(gamesSource(app.ctx.config), assets_url ? new URL(assets_url).origin : '');
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html') || reply.hasHeader('content-security-policy')) return payload;
    if (request.url.startsWith('/g/')) return payload;
    reply.header('content-security-policy', pageCsp);
    return payload;
  });
}

/** No session cookie came with the request: its page need not ask /v1/me (a visitor's console stays free of 401s). */
export function signedOut(request: FastifyRequest): boolean {
  return request.cookies[sessionCookieName(request.server.ctx)] === undefined;
}

/**
 * What `lookup` returns, or UNREACHABLE when the database is out of reach: the page is served without what it would
 * have read, and its script fills it from the API (docs/portal.md, "The portal").
 */
async function unlessUnreachable<T>(lookup: () => Promise<T>): Promise<T | typeof UNREACHABLE> {
  try {
    return await lookup();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return UNREACHABLE;
    throw error;
  }
}
const UNREACHABLE = Symbol('unreachable');

/**
 * Who the request's session cookie names, for the served header: undefined without a cookie, null when the cookie
 * names nobody (unsigned, expired, revoked, a suspended player), UNKNOWN_PLAYER when the database cannot say (the
 * header is then left to the page script). The token goes through the same cached lookup as the API's (no CSRF header
 * is needed: the page only shows a name and changes nothing), then one primary-key read.
 */
async function sessionPlayer(
  request: FastifyRequest,
  lookup: SessionLookup,
): Promise<HeaderPlayer | null | undefined | typeof UNKNOWN_PLAYER> {
  const { ctx } = request.server;
  const raw = request.cookies[sessionCookieName(ctx)];
  if (raw === undefined) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const token = unsigned.value;
  const row = await unlessUnreachable(async () => {
    const credential = await lookup(token, 'cookie');
    return credential ? await findHeaderPlayer(ctx.db, credential.playerId) : undefined;
  });
  if (row === UNREACHABLE) return UNKNOWN_PLAYER;
  if (!row) return null;
  return { display_name: row.display_name, avatar_url: avatarUrl(ctx.config, row), guest: row.guest === 1 };
}

async function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  assets: PortalAssets,
  lookup: SessionLookup,
  options: PageOptions,
  status = 200,
  etag = false,
  degraded = false,
) {
  if (!assets.manifest) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
  // Where "Get Unlimited" links (setting upgrade_url): the portal's pitches read it from <body data-upgrade-url>.
  const upgrade = request.server.ctx.config.upgrade_url;
  const data = upgrade ? { ...options.data, upgradeUrl: upgrade } : options.data;
  const player = await sessionPlayer(request, lookup);
  const html = renderPage(assets.manifest, {
    ...options,
    data,
    // A cookie that names nobody is as good as none: the page need not ask /v1/me either.
    signedOut: !player,
    account: { player: player ?? null, here: request.url },
  });
  // The header follows the session cookie: a shared cache keeps one copy per cookie (Vary), and none at all of a
  // page that names a player (private). A page served without what the database would have said is kept by nobody.
  const cacheControl =
    degraded || player === UNKNOWN_PLAYER
      ? 'private, no-store'
      : player === undefined
        ? 'no-cache'
        : 'private, no-cache';
  reply
    .header('cache-control', cacheControl)
    .header('vary', etag ? 'Accept-Encoding, Cookie' : 'Cookie')
    .type('text/html; charset=utf-8');
  if (etag) {
    // Revalidated on every visit, but a browser that has the page gets a 304 without a body.
    const tag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    // A long page (the API reference, ~270 kB): gzip it once per version (~30 kB) for the browsers that take it.
    reply.header('etag', tag);
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(tag)) return reply.code(304).send();
    const accepted = request.headers['accept-encoding'];
    if (accepted && negotiate(accepted, ['gzip', 'identity']) === 'gzip') {
      let zipped = GZIPPED.get(tag);
      if (!zipped) {
        zipped = gzipSync(html);
        if (GZIPPED.size >= 8) GZIPPED.clear();
        GZIPPED.set(tag, zipped);
      }
      return reply.code(status).header('content-encoding', 'gzip').send(zipped);
    }
  }
  return reply.code(status).send(html);
}

/** Gzipped pages sent with an ETag, by tag (a page has a version per session state: a handful in all). */
const GZIPPED = new Map<string, Buffer>();

function sendNotFound(request: FastifyRequest, reply: FastifyReply, assets: PortalAssets) {
  const html = renderNotFound(assets.manifest, request.url.split('?')[0] ?? '/', signedOut(request));
  return reply.code(404).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
}

/** Pages that need nothing from the database: path → page id, title and width. */
const STATIC_PAGES: Array<[string, string, string, PageOptions['layout']]> = [
  ['/register', 'register', 'Create an account', 'narrow'],
  ['/login', 'login', 'Log in', 'narrow'],
  ['/logout', 'logout', 'Log out', 'narrow'],
  ['/forgot-password', 'forgot-password', 'Forgot password', 'narrow'],
  ['/reset-password', 'reset-password', 'Choose a new password', 'narrow'],
  ['/verify-email', 'verify-email', 'Verify your email', 'narrow'],
  ['/confirm-email', 'confirm-email', 'Confirm your new email', 'narrow'],
  ['/account', 'account', 'Account settings', 'narrow'],
  ['/playtime', 'playtime', 'Your playtime', 'wide'],
  ['/admin', 'admin', 'Operator console', 'wide'],
  ['/studio', 'studio', 'Studio console', 'wide'],
];

type SlugParams = { Params: { slug: string } };

/** The link preview of a page without a picture of its own: its canonical URL and the site's share image. */
function siteCard(app: FastifyInstance, path: string): PageOptions['card'] {
  const { config } = app.ctx;
  return {
    url: `${config.public_url}${path}`,
    image: siteShareUrl(config),
    imageAlt: 'Game Platform',
    type: 'website',
    large: true,
    imageSize: [1200, 630],
  };
}

export function portalRoutes(assets: PortalAssets, lookup: SessionLookup) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const config = { auth: 'none' as const };
    const schema = { hide: true };
    redirectLoopbackToPortalName(app);

    for (const [url, page, title, layout] of STATIC_PAGES) {
      // The studio console loads its charts' script and stylesheet when it draws one (portal/pages/studio/numbers.ts).
      const charts = assets.manifest?.charts;
      const data =
        page === 'studio' && charts
          ? { chartsScript: `/assets/${charts.script}`, chartsStyle: `/assets/${charts.style}` }
          : undefined;
      app.get(url, { config, schema }, async (request, reply) =>
        sendPage(request, reply, assets, lookup, { page, title, layout, data, card: siteCard(app, url) }),
      );
    }

    // The catalogue, served with the games of the asked filter (catalogue-page.ts); the script takes the cards over.
    // With the database out of reach, the page without its cards: the script loads them when the API answers again.
    app.get('/', { config, schema }, async (request, reply) => {
      const filter = catalogueFilter(request.query as Record<string, unknown>);
      const [listing, featured] = await Promise.all([
        unlessUnreachable(() => listGames(app.ctx, filter)),
        unlessUnreachable(() => listGames(app.ctx, { featured: true })),
      ]);
      if (listing === UNREACHABLE || featured === UNREACHABLE)
        return sendPage(
          request,
          reply,
          assets,
          lookup,
          { page: 'catalogue', title: 'Games', layout: 'wide' },
          200,
          false,
          true,
        );
      const options = cataloguePageOptions(app.ctx.config, filter, listing, featured.games);
      return sendPage(request, reply, assets, lookup, options);
    });

    // With the database out of reach, whether the game exists is not known: the shell, which the script fills or
    // turns into "Game not found".
    app.get<SlugParams>('/games/:slug', { config, schema }, async (request, reply) => {
      const game = await unlessUnreachable(() => findListedGame(app.ctx.db, request.params.slug));
      if (game === UNREACHABLE) {
        if (!SLUG_PATTERN.test(request.params.slug)) return sendNotFound(request, reply, assets);
        const shell = { page: 'game', title: 'Game', data: { slug: request.params.slug } };
        return sendPage(request, reply, assets, lookup, shell, 200, false, true);
      }
      if (!game) return sendNotFound(request, reply, assets);
      const related = await relatedGames(app.ctx, game.slug, RELATED_ON_PAGE);
      return sendPage(request, reply, assets, lookup, gamePageOptions(app.ctx.config, game, related));
    });

    app.get<SlugParams>('/play/:slug', { config, schema }, async (request, reply) => {
      const game = await findListedGame(app.ctx.db, request.params.slug);
      if (!game) return sendNotFound(request, reply, assets);
      const data: Record<string, string> = { slug: request.params.slug };
      if (game.cross_origin_isolated === 1) {
        // With helmet's COOP same-origin, this makes the shell cross-origin isolated; its frame then may be too (frame.ts).
        reply.header('cross-origin-embedder-policy', 'require-corp');
        data.crossOriginIsolated = 'true';
      }
      return sendPage(request, reply, assets, lookup, {
        page: 'play',
        title: `Play ${game.name}`,
        layout: 'play',
        data,
        main: playLoadingHtml(app.ctx.config, game),
      });
    });

    // A build in preview, for its studio's members: the shell asks the API, which decides who may see it.
    app.get<{ Params: { slug: string; build: string } }>(
      '/preview/:slug/:build',
      { config, schema },
      async (request, reply) => {
        const { slug, build } = request.params;
        if (!SLUG_PATTERN.test(slug) || !/^[1-9]\d{0,8}$/.test(build)) return sendNotFound(request, reply, assets);
        const data: Record<string, string> = { slug, preview: build };
        if (await buildIsIsolated(app.ctx, slug, Number(build))) {
          reply.header('cross-origin-embedder-policy', 'require-corp');
          data.crossOriginIsolated = 'true';
        }
        return sendPage(request, reply, assets, lookup, { page: 'preview', title: 'Preview', layout: 'play', data });
      },
    );

    app.get<{ Params: { username: string } }>('/u/:username', { config, schema }, async (request, reply) => {
      const { username } = request.params;
      const player = await unlessUnreachable(() => findActivePlayer(app.ctx.db, username));
      // As a game's page: the shell, which the script fills or turns into "Player not found".
      if (player === UNREACHABLE) {
        if (!USERNAME_PATTERN.test(username)) return sendNotFound(request, reply, assets);
        const shell = { page: 'profile', title: 'Player', data: { username } };
        return sendPage(request, reply, assets, lookup, shell, 200, false, true);
      }
      if (!player) return sendNotFound(request, reply, assets);
      return sendPage(request, reply, assets, lookup, profilePageOptions(app.ctx.config, player));
    });

    app.get('/docs/sdk', { config, schema }, async (request, reply) =>
      sendPage(request, reply, assets, lookup, {
        page: 'sdk-docs',
        title: 'Game SDK',
        description: 'The Game Platform SDK: how an HTML5 game saves, submits scores and talks to the portal.',
        layout: 'narrow',
        main: sdkDocsHtml,
        card: siteCard(app, '/docs/sdk'),
      }),
    );

    // The API reference, rendered once from the OpenAPI document (it changes only with the code and the settings).
    let apiReference: string | null = null;
    app.get('/docs', { config, schema }, async (request, reply) => {
      apiReference ??= renderApiReference(app.swagger() as unknown as Record<string, unknown>);
      return sendPage(
        request,
        reply,
        assets,
        lookup,
        {
          page: 'api-docs',
          title: 'API reference',
          description:
            'The Game Platform JSON API: every operation, its parameters, bodies, responses and error codes.',
          layout: 'wide',
          main: apiReference,
          card: siteCard(app, '/docs'),
        },
        200,
        true,
      );
    });
    app.get('/docs/', { config, schema }, async (_request, reply) => reply.redirect('/docs', 301));

    registerSdk(app, assets);
    await app.register(siteFileRoutes(assets.root));

    await app.register(fastifyStatic, {
      root: path.join(assets.root, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      // The build's brotli and gzip copies (build.ts), chosen by Accept-Encoding, with Vary: Accept-Encoding.
      preCompressed: true,
      // Hashed names never change content: cache them for good. The icon keeps its name: a day.
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header(
          'cache-control',
          /-[A-Z0-9]{8}\.(js|css|map)(\.br|\.gz)?$/.test(file)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=86400',
        );
      },
    });
  };
}

/**
 * /sdk/v1.js and its types, on the portal's origin and on every game's (games include /sdk/v1.js root-relative): the
 * script learns the portal's origin from the copy served, and is readable cross-origin.
 */
function registerSdk(app: FastifyInstance, assets: PortalAssets): void {
  const files: Array<[string, string, string]> = [
    ['/sdk/v1.js', 'v1.js', 'text/javascript; charset=utf-8'],
    ['/sdk/v1.d.ts', 'v1.d.ts', 'text/plain; charset=utf-8'],
  ];
  for (const [url, name, type] of files) {
    let content: Buffer | null = null;
    try {
      const built = readFileSync(path.join(assets.root, 'sdk', name), 'utf8');
      content = Buffer.from(built.replaceAll(PORTAL_ORIGIN_TOKEN, app.ctx.config.public_origin));
    } catch {
      content = null;
    }
    // Compressed once at start (the origin written in makes each service's copy its own).
    const encoded = content ? { br: brotliCompressSync(content), gzip: gzipSync(content, { level: 9 }) } : null;
    app.get(url, { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      if (!content || !encoded) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      reply
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'public, max-age=300')
        .header('vary', 'Accept-Encoding')
        .type(type);
      const accepted = request.headers['accept-encoding'];
      const encoding = accepted ? negotiate(accepted, ['br', 'gzip', 'identity']) : null;
      if (encoding === 'br' || encoding === 'gzip')
        return reply.header('content-encoding', encoding).send(encoded[encoding]);
      return reply.send(content);
    });
  }
}

export function notFoundPage(assets: PortalAssets) {
  return (request: FastifyRequest, path: string) => renderNotFound(assets.manifest, path, signedOut(request));
}
