// Builds the command into one file, dist/cli.js, with its dependencies inside: `npx @gameplatform/cli` installs nothing
// else. An ES module; the CommonJS libraries it bundles (commander, yazl, yauzl, cli-progress) get a require of their own.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
// `node build.mjs <folder>` builds into another folder (tests build a copy of their own).
const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.join(here, 'dist');
const { name, version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));

if (!process.argv[2]) rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, 'src/cli.ts')],
  outfile: path.join(dist, 'cli.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  legalComments: 'none',
  define: { VERSION: JSON.stringify(version) },
  banner: {
    js: `#!/usr/bin/env node\n// ${name} ${version}\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`,
  },
  logLevel: 'warning',
});
// stderr: `npm pack --json` keeps stdout for its JSON
process.stderr.write(`${name} ${version} built in ${path.relative(process.cwd(), dist) || '.'}\n`);
