import { describe, expect, it } from 'vitest';
import { gameBase, gamesCspSource, parseGamesUrl } from './games-url.js';

describe('games_url', () => {
  it('reads an origin per game', () => {
    const games = parseGamesUrl('https://{slug}.games.example.com');
    expect(games).toMatchObject({ layout: 'host', hostname: 'games.example.com', port: '', protocol: 'https:' });
    expect(gameBase(games, 'orbit')).toBe('https://orbit.games.example.com');
    expect(gamesCspSource(games)).toBe('https://*.games.example.com');
  });

  it('reads one origin for all games', () => {
    const games = parseGamesUrl('http://cdn.example.net:8081/g/{slug}');
    expect(games).toMatchObject({ layout: 'path', hostname: 'cdn.example.net', port: ':8081', prefix: '/g' });
    expect(gameBase(games, 'orbit')).toBe('http://cdn.example.net:8081/g/orbit');
    expect(gamesCspSource(games)).toBe('http://cdn.example.net:8081');
  });
});
