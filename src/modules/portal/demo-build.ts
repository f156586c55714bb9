// Builds the demo games that have sources (games/<name>/src/main.ts, e.g. the Phaser one) into dist/games/<name>: every
// file of the game but src/, the bundle (game.js, with .br and .gz copies beside it as engine exports ship them), and the
// assets made from the sources: src/atlas/*.svg → assets/atlas.png + atlas.json (a TexturePacker "hash" atlas),
// src/images/*.svg → assets/<name>.png, src/sounds/*.json → assets/<name>.wav.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { packageRoot } from './web-root.js';

/** A game directory under games/ whose files are built rather than published as they are. */
export const hasSources = (dir: string): boolean => existsSync(path.join(dir, 'src', 'main.ts'));

export const builtGamesRoot = (): string => path.join(packageRoot(), 'dist', 'games');

const svgs = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.svg'))
        .sort()
    : [];

/** Packs the frames in one row: small sprite sheets need nothing cleverer. */
async function buildAtlas(sourceDir: string, outDir: string): Promise<void> {
  const names = svgs(sourceDir);
  if (names.length === 0) return;
  const images = await Promise.all(
    names.map((f) => sharp(path.join(sourceDir, f)).png().toBuffer({ resolveWithObject: true })),
  );
  const frames: Record<string, unknown> = {};
  let x = 0;
  const placed = images.map(({ data, info }, i) => {
    const frame = { x, y: 0, w: info.width, h: info.height };
    frames[names[i]!.replace(/\.svg$/, '')] = {
      frame,
      rotated: false,
      trimmed: false,
      spriteSourceSize: { x: 0, y: 0, w: info.width, h: info.height },
      sourceSize: { w: info.width, h: info.height },
    };
    x += info.width + 2;
    return { input: data, left: frame.x, top: 0 };
  });
  const width = x - 2;
  const height = Math.max(...images.map((i) => i.info.height));
  await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite(placed)
    .png()
    .toFile(path.join(outDir, 'atlas.png'));
  const atlas = {
    frames,
    meta: {
      app: 'gameplatform demo-build',
      image: 'atlas.png',
      format: 'RGBA8888',
      size: { w: width, h: height },
      scale: '1',
    },
  };
  writeFileSync(path.join(outDir, 'atlas.json'), `${JSON.stringify(atlas, null, 1)}\n`);
}

interface Tone {
  wave: 'sine' | 'square';
  volume: number;
  notes: Array<{ hz: number; ms: number }>;
}

/** A 16-bit mono PCM WAV of the notes, each faded out so that nothing clicks. */
export function synthesizeWav(tone: Tone, rate = 22_050): Buffer {
  const samples: number[] = [];
  for (const note of tone.notes) {
    const count = Math.round((rate * note.ms) / 1000);
    for (let i = 0; i < count; i++) {
      const phase = Math.sin((2 * Math.PI * note.hz * i) / rate);
      const value = tone.wave === 'square' ? Math.sign(phase) : phase;
      samples.push(value * tone.volume * (1 - i / count));
    }
  }
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => {
    data.writeInt16LE(Math.round(s * 32_767), i * 2);
  });
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function buildAssets(src: string, assets: string): Promise<void> {
  mkdirSync(assets, { recursive: true });
  await buildAtlas(path.join(src, 'atlas'), assets);
  for (const file of svgs(path.join(src, 'images'))) {
    await sharp(path.join(src, 'images', file))
      .png()
      .toFile(path.join(assets, file.replace(/\.svg$/, '.png')));
  }
  const sounds = path.join(src, 'sounds');
  for (const file of existsSync(sounds) ? readdirSync(sounds).filter((f) => f.endsWith('.json')) : []) {
    const tone = JSON.parse(readFileSync(path.join(sounds, file), 'utf8')) as Tone;
    writeFileSync(path.join(assets, file.replace(/\.json$/, '.wav')), synthesizeWav(tone));
  }
}

/** Builds one game with sources into `outDir` (replaced); returns the bundle's size in bytes. */
export async function buildDemoGame(
  sourceDir: string,
  outDir: string,
  options: { minify?: boolean } = {},
): Promise<number> {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  cpSync(sourceDir, outDir, {
    recursive: true,
    filter: (from) => path.relative(sourceDir, from).split(path.sep)[0] !== 'src',
  });
  const result = await build({
    absWorkingDir: packageRoot(),
    entryPoints: [path.join(sourceDir, 'src', 'main.ts')],
    outfile: path.join(outDir, 'game.js'),
    bundle: true,
    format: 'iife',
    target: ['es2022'],
    minify: options.minify ?? true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const bundle = Buffer.from(result.outputFiles[0]!.contents);
  writeFileSync(path.join(outDir, 'game.js'), bundle);
  // Served as they are to browsers that take them (game-file-send.ts), as a Unity or Godot export's would be.
  writeFileSync(
    path.join(outDir, 'game.js.br'),
    brotliCompressSync(bundle, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  );
  writeFileSync(path.join(outDir, 'game.js.gz'), gzipSync(bundle, { level: 9 }));
  await buildAssets(path.join(sourceDir, 'src'), path.join(outDir, 'assets'));
  return bundle.length;
}

/** Builds every demo game with sources under `gamesDir` into `outRoot`; returns their names. */
export async function buildDemoGames(
  gamesDir = path.join(packageRoot(), 'games'),
  outRoot = builtGamesRoot(),
): Promise<string[]> {
  const built: string[] = [];
  for (const entry of existsSync(gamesDir) ? readdirSync(gamesDir, { withFileTypes: true }) : []) {
    const dir = path.join(gamesDir, entry.name);
    if (!entry.isDirectory() || !hasSources(dir)) continue;
    await buildDemoGame(dir, path.join(outRoot, entry.name));
    built.push(entry.name);
  }
  return built;
}
