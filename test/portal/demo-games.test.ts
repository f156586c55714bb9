// The demo games: valid game.json files, published through the real publish service into an empty catalogue only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { builtGamesRoot, synthesizeWav } from '../../src/modules/portal/demo-build.js';
import { demoGameDirs, publishDemoGamesIfEmpty } from '../../src/modules/portal/demo-games.js';
import { checkGameDirectory } from '../../src/modules/games/publish.service.js';
import { eachDialect } from '../helpers/harness.js';

it('demo games: each directory passes the publish checks', async () => {
  const dirs = demoGameDirs();
  expect(dirs.length).toBeGreaterThanOrEqual(4);
  for (const dir of dirs) await expect(checkGameDirectory(dir)).resolves.toBeTruthy();
});

it('demo games: each declares the bounds of its scores', async () => {
  for (const dir of demoGameDirs()) {
    const { manifest } = await checkGameDirectory(dir);
    expect(manifest.leaderboard, dir).toMatchObject({ min: 0, max: expect.any(Number) });
  }
});

it('demo games: the Phaser one is published from its build, with its bundle, atlas, image and sounds, and no sources', async () => {
  const dir = demoGameDirs().find((d) => d.endsWith('star-catcher'))!;
  expect(dir).toBe(path.join(builtGamesRoot(), 'star-catcher'));
  const { files } = await checkGameDirectory(dir);
  expect(files.files).toEqual(
    expect.arrayContaining([
      'game.js',
      'game.js.br',
      'game.js.gz',
      'assets/atlas.json',
      'assets/atlas.png',
      'assets/sky.png',
      'assets/catch.wav',
      'assets/bump.wav',
    ]),
  );
  expect(files.files.filter((f) => f.startsWith('src/'))).toEqual([]);
  const atlas = JSON.parse(readFileSync(path.join(dir, 'assets', 'atlas.json'), 'utf8'));
  expect(Object.keys(atlas.frames).sort()).toEqual(['basket', 'gem', 'rock', 'star']);
  expect((await sharp(path.join(dir, 'assets', 'atlas.png')).metadata()).width).toBe(atlas.meta.size.w);
  // Buffer.equals: a deep toEqual over 1.4 MB walks every byte as a property.
  expect(
    brotliDecompressSync(readFileSync(path.join(dir, 'game.js.br'))).equals(readFileSync(path.join(dir, 'game.js'))),
  ).toBe(true);
  expect(readFileSync(path.join(dir, 'game.js'), 'utf8')).toContain('Phaser');
});

it('demo games: sounds are valid 16-bit PCM WAV files', () => {
  const wav = synthesizeWav({ wave: 'sine', volume: 0.5, notes: [{ hz: 440, ms: 100 }] }, 8000);
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
  expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect(wav.readUInt16LE(34)).toBe(16);
  expect(wav.readUInt32LE(40)).toBe(800 * 2);
});

eachDialect('portal: demo games', (h) => {
  it('publishes the demo games into an empty catalogue, once', async () => {
    expect((await publishDemoGamesIfEmpty(h.ctx)).sort()).toEqual([
      'comet-snake',
      'reflex',
      'star-catcher',
      'tile-merge',
    ]);
    expect(await publishDemoGamesIfEmpty(h.ctx)).toEqual([]);

    const list = await h.http.get('/v1/games');
    expect(list.body.meta.count).toBe(4);
    const bySlug = Object.fromEntries(list.body.data.games.map((g: { slug: string }) => [g.slug, g]));
    expect(bySlug.reflex).toMatchObject({
      leaderboard: { enabled: true, order: 'asc', unit: 'ms' },
      requires_premium: false,
    });
    expect(bySlug['tile-merge']).toMatchObject({ save_slots: 3, leaderboard: { order: 'desc' } });
    expect(bySlug['comet-snake']).toMatchObject({ requires_premium: true });
    expect(bySlug['star-catcher']).toMatchObject({ leaderboard: { enabled: true, order: 'desc' }, category: 'action' });
  });

  it("serves the demo games' public files from their own origin, readable by the portal", async () => {
    const game = (await h.http.get('/v1/games/reflex')).body.data;
    expect(new URL(game.cover_url).origin).toBe('http://reflex.games.localhost:8080');
    const cover = await h.http.get(game.cover_url, { headers: { origin: h.config.public_origin } });
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(cover.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});

it('demo games: the description speaks to players, without notes for developers', async () => {
  for (const dir of demoGameDirs()) {
    const { manifest } = await checkGameDirectory(dir);
    expect(`${manifest.slug}: ${manifest.description}`).not.toMatch(/\b(Phaser|loader|origin|atlas|SDK)\b/i);
  }
});

/**
 * Every text a template literal of a game's source can produce: a `${a ? 'x' : 'y'}` gives both branches, a variable
 * every literal assigned to it in the file, anything else a placeholder word.
 */
function variants(source: string, literal: string, depth = 0): string[] {
  const parts: string[][] = [];
  let text = '';
  for (let i = 0; i < literal.length; i++) {
    if (literal[i] !== '$' || literal[i + 1] !== '{') {
      text += literal[i];
      continue;
    }
    let level = 1;
    let j = i + 2;
    for (; level > 0; j++) level += literal[j] === '{' ? 1 : literal[j] === '}' ? -1 : 0;
    parts.push([text], expression(source, literal.slice(i + 2, j - 1).trim(), depth));
    text = '';
    i = j - 1;
  }
  parts.push([text]);
  return parts.reduce((all, options) => all.flatMap((a) => options.map((o) => a + o)), ['']);
}

function expression(source: string, expr: string, depth: number): string[] {
  const quoted = /^(['`])([\s\S]*)\1$/.exec(expr);
  if (quoted) return quoted[1] === '`' ? variants(source, quoted[2]!, depth) : [quoted[2]!];
  const conditional = /^[^?]+\?\s*('[^']*'|`[^`]*`)\s*:\s*('[^']*'|`[^`]*`)$/.exec(expr);
  if (conditional) return [conditional[1]!, conditional[2]!].flatMap((e) => expression(source, e, depth));
  if (/^\w+$/.test(expr) && depth < 2) {
    const assigned = [...source.matchAll(new RegExp(`\\b${expr} = (.+);$`, 'gm'))].map((m) => m[1]!.trim());
    if (assigned.length) return assigned.flatMap((e) => expression(source, e, depth + 1));
  }
  return ['7'];
}

/** The index just past the string or template literal opening at `start`, nested `${…}` and literals included. */
function endOfLiteral(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === quote) return i + 1;
    else if (quote === '`' && source[i] === '$' && source[i + 1] === '{') {
      let level = 1;
      for (i += 2; level > 0; i++) {
        if (source[i] === "'" || source[i] === '`') i = endOfLiteral(source, i) - 1;
        else level += source[i] === '{' ? 1 : source[i] === '}' ? -1 : 0;
      }
      i--;
    }
  }
  throw new Error(`unterminated literal at ${start}`);
}

it('demo games: no status line ends a sentence twice ("best!." or "saved..")', () => {
  const sources = ['comet-snake/game.js', 'reflex/game.js', 'tile-merge/game.js', 'star-catcher/src/main.ts'];
  const lines: string[] = [];
  for (const file of sources) {
    const source = readFileSync(path.join(import.meta.dirname, '../../games', file), 'utf8');
    for (const m of source.matchAll(/textContent = (?=[`'])/g)) {
      const start = m.index + m[0].length;
      lines.push(...expression(source, source.slice(start, endOfLiteral(source, start)), 0));
    }
  }
  expect(lines.length).toBeGreaterThan(20);
  expect(lines.filter((line) => /[.!?][.!?]/.test(line.replace(/\.\.\./g, '…')))).toEqual([]);
  expect(lines).toContain('7 points: rank #7, a personal best! Press Start to play again.');
});
