// npm start builds only when a build input changed since the last build (scripts/build-if-changed.js).
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isUpToDate, writeStamp } from '../../scripts/build-if-changed.js';

let root = '';
const put = async (file: string, text = 'x') => {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
};

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gp-build-'));
  for (const file of [
    'src/cli.ts',
    'portal/main.ts',
    'sdk/v1.ts',
    'games/reflex/game.json',
    'package.json',
    'dist/src/cli.js',
    'dist/web/manifest.json',
  ])
    await put(file);
  writeStamp(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('is up to date right after a build, and again after a change to a test file or to dist', async () => {
  expect(isUpToDate(root)).toBe(true);
  await put('src/cli.test.ts');
  await put('dist/src/other.js');
  await put('src/node_modules/x.js');
  expect(isUpToDate(root)).toBe(true);
});

it.each([
  ['a changed source', () => put('src/cli.ts', 'y')],
  ['a touched source', () => utimes(path.join(root, 'portal/main.ts'), new Date(), new Date(Date.now() + 5000))],
  ['a new source', () => put('sdk/new.ts')],
  ['a changed package.json', () => put('package.json', '{}')],
  ['a new file in a package', () => put('packages/sdk/src/index.ts')],
  ['a missing output', () => rm(path.join(root, 'dist/web/manifest.json'))],
  ['no stamp', () => rm(path.join(root, 'dist/.build-stamp'))],
])('builds again after %s', async (_, change) => {
  await change();
  expect(isUpToDate(root)).toBe(false);
});
