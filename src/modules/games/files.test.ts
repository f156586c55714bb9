import { describe, expect, it } from 'vitest';
import { hasContentHash } from './files.js';

describe('games: names that carry a content hash', () => {
  it.each([
    'assets/index-BqA2ZdGd.js',
    'assets/index-D8h_kZ0s.css',
    'assets/logo-a-b2c3d4.svg',
    'assets/index-BqA2ZdGd.js.map',
    'game/assets/vendor-Cx9kQ1aZ.js.br',
    'main.3f2a9c1b.js',
    'js/vendors.3f2a9c1b7e4d5a6f0a1b.chunk.js',
    '123.a1b2c3d4e5.js',
    'Build/0a1b2c3d4e5f60718293a4b5c6d7e8f9.wasm.br',
    'Build/0a1b2c3d4e5f60718293a4b5c6d7e8f9.data.gz',
    'chunk-5GLTDBEF.js',
  ])('%s has one', (name) => {
    expect(hasContentHash(name)).toBe(true);
  });

  it.each([
    'index.html',
    'game.js',
    'Build/game.wasm',
    'assets/player.png',
    'assets/tile-mountain.png',
    'assets/big-explosion.png',
    'sprites/player-Walking1.png',
    'save.20260101.json',
    'level-deadbeef.json',
    'facade.js',
    'assets/level-12.json',
  ])('%s has none', (name) => {
    expect(hasContentHash(name)).toBe(false);
  });
});
