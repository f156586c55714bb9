import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path.js';

const origin = 'https://games.example';

describe('portal: where to go after logging in', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeNextPath('/account', origin)).toBe('/account');
    expect(safeNextPath('/play/tile-merge?x=1#top', origin)).toBe('/play/tile-merge?x=1#top');
    expect(safeNextPath('/games/a/../b', origin)).toBe('/games/b');
  });

  it('refuses anything the browser would resolve to another origin, or that is not a path', () => {
    for (const next of [
      '/\t/attacker.example/x',
      '/\n/attacker.example/x',
      '/\r\n/attacker.example/x',
      '\t//attacker.example/x',
      '//attacker.example/x',
      '/\\attacker.example/x',
      '/\t\\attacker.example/x',
      '\\\\attacker.example',
      'https://attacker.example/',
      'javascript:alert(1)',
      'account',
      '',
      null,
      undefined,
    ]) {
      expect(safeNextPath(next, origin, '/fallback'), JSON.stringify(next)).toBe('/fallback');
    }
  });
});
