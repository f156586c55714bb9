// The `games_url` template: where each game's files are served, on an origin that is never the portal's (docs/api.md, "Game files on their own origin").
// Pure functions over the template, shared by the settings check (config.ts) and the request routing (game-origin.ts).

export const SLUG_TOKEN = '{slug}';
/** Stands in for `{slug}` while the template is parsed as a URL (braces are not allowed in a host name). */
const PLACEHOLDER = 'slug-placeholder-0';

export interface GamesUrl {
  /** the template in its canonical form (lower-case host, no default port, no trailing slash), `{slug}` included */
  template: string;
  protocol: 'http:' | 'https:';
  /** `:8080`, or '' for the protocol's default port */
  port: string;
  /**
   * `host`: each game has an origin of its own, `{slug}.<suffix>`, and its files sit at the root of it.
   * `path`: all games share one origin, each under `<prefix>/{slug}`.
   */
  layout: 'host' | 'path';
  /** host layout: the host name after `{slug}.`; path layout: the whole host name (lower case, no port) */
  hostname: string;
  /** path layout: the path before `/{slug}` ('' for `https://games.example.com/{slug}`) */
  prefix: string;
}

/**
 * Checks a `games_url` template and says how it lays games out; throws an Error whose message says what is wrong.
 * `{slug}` must be the first label of the host (`https://{slug}.games.example.com`) or the last segment of the path
 * (`https://games.example.com/{slug}`), exactly once.
 */
export function parseGamesUrl(template: string): GamesUrl {
  const trimmed = template.trim().replace(/\/+$/, '');
  if (trimmed.split(SLUG_TOKEN).length !== 2)
    throw new Error(`must hold ${SLUG_TOKEN} exactly once, e.g. https://${SLUG_TOKEN}.games.example.com`);
  let url: URL;
  try {
    url = new URL(trimmed.replace(SLUG_TOKEN, PLACEHOLDER));
  } catch {
    throw new Error(`"${template}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http:// or https:// URL');
  if (url.username || url.password || url.search || url.hash)
    throw new Error('must not hold credentials, a query or a fragment');
  const protocol = url.protocol;
  const port = url.port ? `:${url.port}` : '';
  const labels = url.hostname.split('.');
  if (labels[0] === PLACEHOLDER) {
    if (labels.length < 2 || url.pathname !== '/')
      throw new Error(
        `with ${SLUG_TOKEN} in the host, it must be the first label of a longer name and the URL must have no path`,
      );
    const hostname = labels.slice(1).join('.');
    return {
      template: `${protocol}//${SLUG_TOKEN}.${hostname}${port}`,
      protocol,
      port,
      layout: 'host',
      hostname,
      prefix: '',
    };
  }
  if (url.hostname.includes(PLACEHOLDER))
    throw new Error(`${SLUG_TOKEN} in the host must be a whole label, the first one`);
  const segments = url.pathname.split('/');
  if (segments[segments.length - 1] !== PLACEHOLDER)
    throw new Error(`${SLUG_TOKEN} in the path must be its last segment`);
  const prefix = segments.slice(0, -1).join('/');
  return {
    template: `${protocol}//${url.hostname}${port}${prefix}/${SLUG_TOKEN}`,
    protocol,
    port,
    layout: 'path',
    hostname: url.hostname,
    prefix,
  };
}

/** The portal's name out of the box: `*.localhost` reaches this machine without DNS (docs/operations.md, "Where games live: storage and cookies"). */
export const DEFAULT_PORTAL_HOSTNAME = 'gameplatform.localhost';

/**
 * The default outside production: every game on `{slug}.games.<portal>` when the portal is on a `*.localhost` name of
 * its own (the same site, so browsers that block third-party storage still let games keep theirs), else on
 * `{slug}.games.localhost` (another site than `localhost` or an IP address: games' storage is third-party there).
 */
export function defaultGamesUrl(publicUrl: URL): string {
  const base = publicUrl.hostname.endsWith('.localhost') ? publicUrl.hostname : 'localhost';
  return `${publicUrl.protocol}//${SLUG_TOKEN}.games.${base}${publicUrl.port ? `:${publicUrl.port}` : ''}`;
}

/** Host names that browsers send to this machine without any DNS (`*.localhost` included, RFC 6761). */
export function isLoopbackName(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]'
  );
}

/**
 * Why these games would not be safely apart from the portal, or null. On the portal's host name they would share its
 * cookies (ports do not separate cookies) and run in its origin; directly under it, a slug could name one of its
 * own sub-domains (www, api).
 */
export function sharesPortalHost(games: GamesUrl, portalHostname: string): string | null {
  if (games.hostname === portalHostname) {
    return games.layout === 'host'
      ? `puts games directly under the portal's host name ${portalHostname}; use a name of their own, e.g. {slug}.games.${portalHostname}`
      : `is on the portal's own host name ${portalHostname}; game files must be served from another host name`;
  }
  return null;
}

/** The base URL of one game's files, without a trailing slash. */
export function gameBase(games: GamesUrl, slug: string): string {
  return games.template.replace(SLUG_TOKEN, slug);
}

/** A CSP source that matches every game's origin: `http://*.games.localhost:8080` or `https://games.example.com`. */
export function gamesCspSource(games: GamesUrl): string {
  return `${games.protocol}//${games.layout === 'host' ? '*.' : ''}${games.hostname}${games.port}`;
}

/**
 * The parent domains a game can set cookies on, outside its own host: every name of two labels or more that ends the
 * games' host name (`games.example.com`, `example.com`; single labels such as `localhost` or `com` are refused by
 * browsers). Cookies set there reach every host under them: other games, and the portal when it is one of them.
 */
export function gameCookieDomains(games: GamesUrl): string[] {
  const labels = games.hostname.split('.');
  const domains: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) domains.push(labels.slice(i).join('.'));
  return domains.filter((d) => !/^[\d.]+$/.test(d) && !d.startsWith('['));
}
