#!/usr/bin/env node
// `npm start` runs this first: it builds (npm run build) only when the sources changed since the last build.
// The stamp, dist/.build-stamp, is a hash of the path, size and modification time of every build input; `npm run build`
// writes it when it succeeds (postbuild: `node scripts/build-if-changed.js --stamp`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = path.join('dist', '.build-stamp');
/** What the build reads: the TypeScript of the service, the portal, the SDK, the demo games, the packages, the settings. */
const INPUTS = [
  'src',
  'portal',
  'sdk',
  'games',
  'packages',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
/** What must exist for the service to start: without them the build runs whatever the stamp says. */
const OUTPUTS = ['dist/src/cli.js', 'dist/web/manifest.json'];

function* files(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  const stat = statSync(full);
  if (stat.isFile()) {
    yield [entry, stat];
    return;
  }
  for (const name of readdirSync(full).sort()) {
    if (SKIP_DIRS.has(name) || name.endsWith('.test.ts')) continue;
    yield* files(root, path.join(entry, name));
  }
}

/** A hash of the path, size and modification time of every build input under `root`. */
export function currentStamp(root = ROOT) {
  const hash = createHash('sha256');
  for (const entry of INPUTS)
    for (const [file, stat] of files(root, entry)) hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  return hash.digest('hex');
}

/** Records that the build under `root` matches its sources now. */
export function writeStamp(root = ROOT) {
  writeFileSync(path.join(root, STAMP), `${currentStamp(root)}\n`);
}

/** Whether the last build under `root` is of the sources as they are, and its outputs are there. */
export function isUpToDate(root = ROOT) {
  const file = path.join(root, STAMP);
  const stored = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  return stored === currentStamp(root) && OUTPUTS.every((f) => existsSync(path.join(root, f)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--stamp')) {
    writeStamp();
  } else if (isUpToDate()) {
    console.log('build: up to date (no source changed since the last build)');
  } else {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['run', 'build'], {
      cwd: ROOT,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    process.exit(result.status ?? 1);
  }
}
