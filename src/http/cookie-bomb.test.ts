import { describe, expect, it } from 'vitest';
import { parseGamesUrl } from '../lib/games-url.js';
import {
  COOKIE_BOMB_BYTES,
  CookieBombHealer,
  EXPIRY_BUDGET_BYTES,
  cookieNames,
  matchingCookiePaths,
} from './cookie-bomb.js';

const bomb = (count: number, name = (i: number) => `b${i}`) =>
  Array.from({ length: count }, (_, i) => `${name(i)}=${'x'.repeat(4000)}`).join('; ');

describe('cookie bombs', () => {
  const healer = new CookieBombHealer(parseGamesUrl('http://{slug}.games.gameplatform.localhost:8080'));

  it('reads the names of a Cookie header once each, leaving out nameless and __Host- cookies', () => {
    expect(cookieNames('a=1; b=2;a=3; nameless; __Host-gp=4; __host-x=5; =6; c=')).toEqual(['a', 'b', 'c']);
  });

  it('lists every cookie path that reaches a request path', () => {
    expect(matchingCookiePaths('/')).toEqual(['/']);
    expect(matchingCookiePaths('/v1/play/heartbeat?x=1')).toEqual([
      '/',
      '/v1',
      '/v1/',
      '/v1/play',
      '/v1/play/',
      '/v1/play/heartbeat',
    ]);
    expect(matchingCookiePaths('/docs/')).toEqual(['/', '/docs', '/docs/']);
  });

  it('leaves an ordinary header alone', () => {
    expect(healer.expiries(undefined, 'gameplatform.localhost', '/')).toBeNull();
    expect(healer.expiries(`gp_session=${'s'.repeat(200)}`, 'gameplatform.localhost', '/')).toBeNull();
    expect(healer.expiries('a'.repeat(COOKIE_BOMB_BYTES), 'gameplatform.localhost', '/')).toBeNull();
  });

  it("expires each cookie on the portal's domain only, never host-only ones", () => {
    const lines = healer.expiries(bomb(3), 'gameplatform.localhost', '/')!;
    expect(lines).toEqual([
      'b0=; Domain=gameplatform.localhost; Path=/; Max-Age=0',
      'b1=; Domain=gameplatform.localhost; Path=/; Max-Age=0',
      'b2=; Domain=gameplatform.localhost; Path=/; Max-Age=0',
    ]);
  });

  it("on a game's host, expires them on the games' domain too, each path from / outwards", () => {
    const lines = healer.expiries(bomb(3), 'reflex.games.gameplatform.localhost', '/~set/index.html')!;
    expect(lines).toHaveLength(3 * 2 * 4);
    expect(lines[0]).toBe('b0=; Domain=games.gameplatform.localhost; Path=/; Max-Age=0');
    expect(lines[3]).toBe('b0=; Domain=gameplatform.localhost; Path=/; Max-Age=0');
    expect(lines.at(-1)).toBe('b2=; Domain=gameplatform.localhost; Path=/~set/index.html; Max-Age=0');
  });

  it('says nothing on a host no game can reach with its cookies', () => {
    expect(healer.expiries(bomb(3), 'localhost', '/')).toBeNull();
    expect(healer.expiries(bomb(3), 'example.com', '/')).toBeNull();
  });

  it('keeps an answer under its budget: the widest paths first, the rest for the next answer', () => {
    const long = (i: number) => `n${i}${'y'.repeat(2000)}`;
    const lines = healer.expiries(bomb(180, long), 'gameplatform.localhost', '/v1/me')!;
    const bytes = lines.reduce((sum, line) => sum + line.length + 14, 0);
    expect(bytes).toBeLessThanOrEqual(EXPIRY_BUDGET_BYTES);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.every((line) => line.includes('Path=/;'))).toBe(true);
  });

  it('marks a __Secure- cookie Secure, or the browser would not replace it', () => {
    const lines = healer.expiries(`__Secure-x=1; ${bomb(3)}`, 'gameplatform.localhost', '/')!;
    expect(lines[0]).toBe('__Secure-x=; Domain=gameplatform.localhost; Path=/; Max-Age=0; Secure');
  });
});
