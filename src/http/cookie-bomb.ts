// Cookie bombs (docs/operations.md, "Cookie bombs"): a game on the portal's site can set cookies on a parent domain,
// which the browser then sends with every request to the portal, the API and every other game. The server takes such
// headers (http.max_header_bytes) and its answer expires them: Set-Cookie lines with Max-Age=0 for each cookie name,
// on each parent domain a game can write and each path the request's cookies can have. Host-only cookies are never
// touched (a game's own, or the portal's session), nor headers of an ordinary size.
import type { GamesUrl } from '../lib/games-url.js';
import { gameCookieDomains } from '../lib/games-url.js';

/** A Cookie header past this is a bomb: twice the largest single cookie, far above the portal's own (about 100 B). */
export const COOKIE_BOMB_BYTES = 8 * 1024;
/**
 * Bytes of Set-Cookie lines at most in one answer: browsers and proxies refuse larger response headers (Chromium at
 * 256 KB, nginx at its proxy_buffer_size). What does not fit is expired by the next answers.
 */
export const EXPIRY_BUDGET_BYTES = 32 * 1024;

/** The bytes a browser allows in a cookie name: no control character, no separator of the header itself. */
const COOKIE_NAME = /^[\x21-\x3a\x3c\x3e-\x7e\x80-\xff]+$/;

/** The distinct names in a Cookie header, in order (nameless cookies, `__Host-` ones and unreadable names left out). */
export function cookieNames(header: string): string[] {
  const names = new Set<string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (COOKIE_NAME.test(name) && !/^__host-/i.test(name)) names.add(name);
  }
  return [...names];
}

/** Every cookie path that matches `path` (RFC 6265, 5.1.4): `/`, then each folder with and without its slash. */
export function matchingCookiePaths(path: string): string[] {
  const clean = path.split(/[?#]/, 1)[0] || '/';
  const paths = ['/'];
  for (let i = clean.indexOf('/', 1); i !== -1; i = clean.indexOf('/', i + 1)) {
    paths.push(clean.slice(0, i), clean.slice(0, i + 1));
  }
  if (clean !== '/' && !clean.endsWith('/')) paths.push(clean);
  return [...new Set(paths)];
}

/** Reads a request's Cookie header and says which Set-Cookie lines expire the foreign cookies a game may have put there. */
export class CookieBombHealer {
  private readonly domains: string[];

  constructor(games: GamesUrl) {
    this.domains = gameCookieDomains(games);
  }

  /**
   * The Set-Cookie lines for a request on `hostname` at `path` whose Cookie header is `header`, or null when the header
   * is not a bomb or no parent domain of the games reaches this host. Paths go from `/` outwards, so a budget that runs
   * out leaves the narrowest paths for the next answer.
   */
  expiries(header: string | undefined, hostname: string, path: string): string[] | null {
    if (header === undefined || header.length <= COOKIE_BOMB_BYTES) return null;
    const domains = this.domains.filter((d) => hostname === d || hostname.endsWith(`.${d}`));
    if (domains.length === 0) return null;
    const names = cookieNames(header);
    const lines: string[] = [];
    let bytes = 0;
    for (const cookiePath of matchingCookiePaths(path)) {
      for (const domain of domains) {
        for (const name of names) {
          // A __Secure- cookie is only replaced by a Secure one.
          const secure = /^__secure-/i.test(name) ? '; Secure' : '';
          const line = `${name}=; Domain=${domain}; Path=${cookiePath}; Max-Age=0${secure}`;
          bytes += line.length + 14;
          if (bytes > EXPIRY_BUDGET_BYTES) return lines;
          lines.push(line);
        }
      }
    }
    return lines;
  }
}

/** Set-Cookie lines that only expire cookies: what a game's origin may send (it never sets one). */
export function onlyExpiries(value: string | string[] | number | undefined): string[] {
  if (value === undefined || typeof value === 'number') return [];
  return (Array.isArray(value) ? value : [value]).filter((line) => /; Max-Age=0(;|$)/.test(line));
}
