// Builds the package from the repository's sdk/ (the same source as /sdk/v1.js): dist/index.js, an ES module, and
// dist/index.d.ts, the SDK's types (sdk/gameplatform.d.ts) as module exports instead of globals; dist/v1.js and
// dist/v1.d.ts, the script-tag build and its global types.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const sdk = path.resolve(here, '../../sdk');
// `--out <dir>`: build elsewhere (a test that must not race `npm pack`, which rebuilds dist/ in place).
const outFlag = process.argv.indexOf('--out');
const dist = outFlag > 0 ? path.resolve(process.argv[outFlag + 1]) : path.join(here, 'dist');
const { name, version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const banner = `/* ${name} ${version}: the Game Platform SDK, protocol v1. */`;

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [path.join(sdk, 'module.ts')],
  outfile: path.join(dist, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  banner: { js: banner },
  logLevel: 'warning',
});

// dist/v1.js: the script-tag build, the same file the platform serves at /sdk/v1.js (the GamePlatform global), for a
// game's own folder: copied to public/sdk/v1.js, `<script src="/sdk/v1.js">` works on a dev server and on the platform.
await build({
  entryPoints: [path.join(sdk, 'v1.ts')],
  outfile: path.join(dist, 'v1.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  banner: { js: banner },
  logLevel: 'warning',
});

/** The global declarations (`declare namespace GamePlatform`, `declare const GamePlatform`) become the module's exports. */
export function moduleTypes(globalTypes) {
  const namespace = 'declare namespace GamePlatform {';
  const constant = 'declare const GamePlatform: GamePlatform.SDK;';
  if (!globalTypes.includes(namespace) || !globalTypes.includes(constant))
    throw new Error('sdk/gameplatform.d.ts has changed shape');
  return `${banner}\n${globalTypes
    .replace(namespace, `export ${namespace}`)
    .replace(/\/\*\* The SDK, defined by `\/sdk\/v1\.js`\. \*\/\n/, '')
    .replace(
      constant,
      `/** The SDK, connected to the play shell when the module is first imported. */\nexport ${constant}\nexport default GamePlatform;`,
    )}`;
}

const globalTypes = readFileSync(path.join(sdk, 'gameplatform.d.ts'), 'utf8');
writeFileSync(path.join(dist, 'index.d.ts'), moduleTypes(globalTypes));
writeFileSync(path.join(dist, 'v1.d.ts'), `${banner}\n${globalTypes}`);
// stderr: `npm pack --json` keeps stdout for its JSON
process.stderr.write(`${name} ${version} built in ${path.relative(process.cwd(), dist) || '.'}\n`);
