// Builds the front-end with esbuild: the portal bundle and stylesheet (hashed names), the studio console's charts (uPlot
// and its stylesheet, an entry of their own that only the studio page loads), the SDK script and its .d.ts, the demo games
// with sources. Run by `npm run build` and by the tests' global setup.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { buildDemoGames } from './demo-build.js';
import { packageRoot, PORTAL_ORIGIN_TOKEN, webRoot, type Manifest } from './web-root.js';

export interface BuildWebOptions {
  outDir?: string;
  minify?: boolean;
  /** also build the demo games with sources into dist/games (default true) */
  games?: boolean;
}

export async function buildWeb(options: BuildWebOptions = {}): Promise<Manifest> {
  const { build } = await import('esbuild');
  const root = packageRoot();
  const outDir = options.outDir ?? webRoot();
  const minify = options.minify ?? true;
  rmSync(path.join(outDir, 'assets'), { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'sdk'), { recursive: true });

  const portal = await build({
    absWorkingDir: root,
    entryPoints: { portal: 'portal/main.ts', styles: 'portal/styles.css', charts: 'portal/charts.ts' },
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'iife',
    target: ['es2022'],
    minify,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.entries(portal.metafile.outputs);
  const output = (entry: string) => {
    const found = outputs.find(([file, meta]) => meta.entryPoint === entry && !file.endsWith('.map'));
    if (!found) throw new Error(`esbuild wrote no output for ${entry}`);
    return found;
  };
  const named = (entry: string) => path.basename(output(entry)[0]);
  // the stylesheet a script entry imports (uPlot's) comes out as a file of its own next to the script
  const chartsCss = output('portal/charts.ts')[1].cssBundle;
  if (!chartsCss) throw new Error('esbuild wrote no stylesheet for portal/charts.ts');

  await build({
    absWorkingDir: root,
    entryPoints: ['sdk/v1.ts'],
    outfile: path.join(outDir, 'sdk', 'v1.js'),
    bundle: true,
    format: 'iife',
    target: ['es2022'],
    minify: false,
    legalComments: 'none',
    banner: { js: '/* Game Platform SDK v1. Types: /sdk/v1.d.ts. Guide: /docs/sdk */' },
    logLevel: 'silent',
  });
  // The server writes the portal's origin in place of this token; without it the SDK would guess (sdk/v1.ts).
  if (!readFileSync(path.join(outDir, 'sdk', 'v1.js'), 'utf8').includes(PORTAL_ORIGIN_TOKEN))
    throw new Error(`the built SDK lacks ${PORTAL_ORIGIN_TOKEN}`);
  copyFileSync(path.join(root, 'sdk', 'gameplatform.d.ts'), path.join(outDir, 'sdk', 'v1.d.ts'));
  copyFileSync(path.join(root, 'portal', 'icon.svg'), path.join(outDir, 'assets', 'icon.svg'));

  precompress(path.join(outDir, 'assets'));

  const manifest: Manifest = {
    script: named('portal/main.ts'),
    style: named('portal/styles.css'),
    charts: { script: named('portal/charts.ts'), style: path.basename(chartsCss) },
    built_at: new Date().toISOString(),
  };
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The demo games with sources (the Phaser one): published from their build on the first start.
  if (options.games ?? true) await buildDemoGames();
  return manifest;
}

/** The assets' types sent compressed: text that shrinks to a third or less. Maps are fetched by developer tools only. */
const PRECOMPRESSED = /\.(js|css|svg|map)$/;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy next to every script, stylesheet and icon in `dir`, so
 * the server picks one by Accept-Encoding without compressing per request (portal.routes.ts).
 */
export function precompress(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!PRECOMPRESSED.test(name)) continue;
    const file = path.join(dir, name);
    const content = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}

// `node dist/src/modules/portal/build.js` (npm run build) builds into dist/web.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const started = Date.now();
  const manifest = await buildWeb();
  console.log(
    `front-end built in ${Date.now() - started} ms: ${manifest.script}, ${manifest.style}, sdk/v1.js, demo games`,
  );
}
