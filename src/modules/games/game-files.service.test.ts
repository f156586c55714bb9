import { describe, expect, it } from 'vitest';
import { parseGamePath } from './game-files.service.js';

describe('games: parseGamePath', () => {
  it('reads the slug, an optional file set and the file, decoding each segment once', () => {
    expect(parseGamePath('/g/orbit/game.js?x=1')).toEqual({ slug: 'orbit', set: undefined, file: 'game.js' });
    expect(parseGamePath('/g/orbit/~abc-12/assets/a%20b.png')).toEqual({
      slug: 'orbit',
      set: 'abc-12',
      file: 'assets/a b.png',
    });
    expect(parseGamePath('/g/orbit/')).toEqual({ slug: 'orbit', set: undefined, file: '' });
    expect(parseGamePath('/g/orbit/~abc/')).toEqual({ slug: 'orbit', set: 'abc', file: '' });
    expect(parseGamePath('/g/orbit/%C3%A9t%C3%A9.png')?.file).toBe('été.png');
  });

  it.each([
    '/g/orbit/../x',
    '/g/orbit/a/../x',
    '/g/orbit/%2e%2e/x',
    '/g/orbit/..%2fx',
    '/g/orbit/a%2fb',
    '/g/orbit/a%5cb',
    '/g/orbit/a\\b',
    '/g/orbit/%252e%252e/x',
    '/g/orbit//x',
    '/g/orbit/./x',
    '/g/orbit/x/',
    '/g/orbit/x%00',
    '/g/orbit/%0a',
    '/g/orbit/.env',
    '/g/orbit/%E0%A4%A',
    '/g/orbit/~/x',
    '/g/orbit/~../x',
    '/g/orbit/~.staging-1/x',
    '/g/orbit/~a/~b',
    '/g/Orbit/x',
    '/g/orbit',
    '/g/orbit/~abc',
    '/x/orbit/a',
    '/g/orbit/%3F',
    '/g/orbit/assets%2Fship.svg',
  ])('refuses %s', (url) => {
    expect(parseGamePath(url)).toBeNull();
  });
});
