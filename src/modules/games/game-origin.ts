// Game files on an origin of their own (docs/api.md, "Game files on their own origin"): the URLs of a game's files, and which requests arrive on a game's
// host. Those are rewritten, before routing, to the internal /g/{slug}/… route: nothing else (no /v1, no portal page,
// no cookie) is ever served on a game's origin, and the portal's origin serves no game page.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../../config.js';
import { encodeFilePath, SET_MARKER, slugPrefix } from './files.js';
import { gameBase, gamesCspSource, isLoopbackName, parseGamesUrl, type GamesUrl } from '../../lib/games-url.js';
import { SLUG_PATTERN } from './manifest.js';

const parsed = new WeakMap<Config, GamesUrl>();

/** The settings' `games_url`, parsed once per config. */
export function gamesUrlOf(config: Pick<Config, 'games_url'>): GamesUrl {
  let games = parsed.get(config as Config);
  if (!games) {
    games = parseGamesUrl(config.games_url);
    parsed.set(config as Config, games);
  }
  return games;
}

/** `http://orbit-dash.games.localhost:8080`, or `https://games.example.com/orbit-dash`: no trailing slash. */
export function gameBaseUrl(config: Pick<Config, 'games_url'>, slug: string): string {
  return gameBase(gamesUrlOf(config), slug);
}

export function gameOrigin(config: Pick<Config, 'games_url'>, slug: string): string {
  return new URL(gameBaseUrl(config, slug)).origin;
}

/** A file of one file set: its bytes never change, so it may be cached for good. */
export function gameFileUrl(config: Pick<Config, 'games_url'>, slug: string, set: string, file: string): string {
  return `${gameBaseUrl(config, slug)}/${SET_MARKER}${set}/${encodeFilePath(file)}`;
}

/**
 * A game file the portal shows (the cover): at assets_url when one is set (a CDN or the bucket, addressed by the store's
 * key), else on the game's own origin. Files the game itself loads stay relative to its entry file, on the game's origin.
 */
export function gameAssetUrl(
  config: Pick<Config, 'games_url' | 'assets_url'>,
  slug: string,
  set: string,
  file: string,
): string {
  if (config.assets_url) return `${config.assets_url}/${slugPrefix(slug)}/${set}/${encodeFilePath(file)}`;
  return gameFileUrl(config, slug, set, file);
}

/** A CSP source matching every game's origin, for the portal's frame-src and img-src. */
export function gamesSource(config: Pick<Config, 'games_url'>): string {
  return gamesCspSource(gamesUrlOf(config));
}

/**
 * A line for the start-up log when games are on *.localhost but the portal is not (only this machine reaches them), or
 * when the portal is on bare localhost or an address (the games are another site: their storage is third-party).
 */
export function gamesUrlWarning(config: Pick<Config, 'games_url' | 'public_url'>): string | null {
  const games = gamesUrlOf(config);
  const portal = new URL(config.public_url).hostname;
  if (!isLoopbackName(games.hostname)) return null;
  if (!isLoopbackName(portal))
    return `games are served at ${games.template}, which only browsers on this machine reach: set games_url (docs/api.md, "Game files on their own origin")`;
  if (portal.endsWith('.localhost')) return null;
  return `the portal (${config.public_url}) and the games (${games.template}) are different sites: browsers that block third-party cookies deny the games their storage; leave public_url unset (http://gameplatform.localhost:<port>) or give it a *.localhost name (docs/operations.md, "Where games live: storage and cookies")`;
}

const onGameHost = new WeakSet<IncomingMessage>();

/** Whether the request arrived on a game's host (set before routing by the rewriter below). */
export function isGameRequest(raw: IncomingMessage): boolean {
  return onGameHost.has(raw);
}

/** Served on every host: games include the SDK by the root-relative URL /sdk/v1.js. */
const SDK_PATHS = new Set(['/sdk/v1.js', '/sdk/v1.d.ts']);
/** A path that reaches the game-file route and names nothing there: 404 in the JSON envelope. */
const NOWHERE = '/g/-/-';

/**
 * Fastify's `rewriteUrl`: a request on a game's host is marked and sent to `/g/{slug}/…` (its SDK paths excepted);
 * every other request keeps its URL.
 */
export function gameRequestRewriter(config: Config): (req: IncomingMessage) => string {
  const games = gamesUrlOf(config);
  const hostnameOf = hostnameReader(config.trust_proxy);
  const suffix = `.${games.hostname}`;
  return (req) => {
    const url = req.url ?? '/';
    const hostname = hostnameOf(req);
    if (
      games.layout === 'host' ? !hostname.endsWith(suffix) && hostname !== games.hostname : hostname !== games.hostname
    )
      return url;
    onGameHost.add(req);
    if (SDK_PATHS.has(url.split('?', 1)[0]!)) return url;
    if (games.layout === 'host') {
      const slug = hostname.slice(0, -suffix.length);
      return SLUG_PATTERN.test(slug) ? `/g/${slug}${url}` : NOWHERE;
    }
    const start = `${games.prefix}/`;
    if (!url.startsWith(start)) return NOWHERE;
    const rest = url.slice(start.length);
    const slash = rest.indexOf('/');
    return slash > 0 && SLUG_PATTERN.test(rest.slice(0, slash)) ? `/g/${rest}` : NOWHERE;
  };
}

/**
 * The request's host name, lower case, without the port or a final dot. Behind a trusted proxy (`trust_proxy`) its
 * X-Forwarded-Host wins, with Fastify's own rule (the last value, and only when the peer is a trusted proxy).
 */
function hostnameReader(trustProxy: string): (req: IncomingMessage) => string {
  const trusted = trustFunction(trustProxy);
  return (req) => {
    let host = req.headers.host ?? '';
    const forwarded = req.headers['x-forwarded-host'];
    if (trusted && typeof forwarded === 'string' && forwarded && trusted(req.socket?.remoteAddress ?? '', 0)) {
      host = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
    }
    host = host.toLowerCase();
    if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
    const colon = host.indexOf(':');
    const name = colon === -1 ? host : host.slice(0, colon);
    // `a.example.` is `a.example` written fully qualified.
    return name.endsWith('.') ? name.slice(0, -1) : name;
  };
}

/** trust_proxy as app.ts hands it to Fastify: `true`, a hop count (which trusts no peer's X-Forwarded-Host), or addresses. */
function trustFunction(trustProxy: string): ((address: string, hop: number) => boolean) | null {
  if (!trustProxy) return null;
  if (trustProxy === 'true') return () => true;
  if (/^\d+$/.test(trustProxy)) return () => false;
  return proxyAddr.compile(trustProxy.split(',').map((value) => value.trim()));
}
