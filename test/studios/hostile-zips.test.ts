// Hostile build zips: each is refused with 422 naming the entry (or game.json's fields), and leaves nothing in the store
// (no file set, no upload part) nor in the scratch folder; on files under data_dir and on an S3 store alike.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { enabledDialects } from '../helpers/dialects.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { buildEntries, createStudio, createStudioGame, deploy, memberOf, storedKeys } from '../helpers/studios.js';
import { patchCentral, readCentral, renameEntry, setFlags, zipOf } from '../helpers/zips.js';

const MiB = 1024 * 1024;
const LIMITS = { 'builds.max_files': 12, 'builds.max_bytes': 8 * MiB, 'builds.max_ratio': 200 };

interface Case {
  name: string;
  zip: (slug: string) => Promise<Buffer>;
  /** the answer's error: code, and reason/file for invalid_build or fields for validation_failed */
  error: Record<string, unknown>;
}

const withFiles = (slug: string, files: Record<string, string | Buffer | { data: string; mode: number }>) =>
  zipOf({ ...buildEntries(slug), ...files });

const CASES: Case[] = [
  {
    name: 'a name going up out of the folder (../)',
    zip: async (slug) => renameEntry(await withFiles(slug, { 'xx/evil.js': 'x' }), 'xx/evil.js', '../evil.js'),
    error: { code: 'invalid_build', reason: 'path_traversal', file: '../evil.js' },
  },
  {
    name: 'a name going up from inside a folder (assets/../../)',
    zip: async (slug) =>
      renameEntry(await withFiles(slug, { 'assets/xx/xx/x.js': 'x' }), 'assets/xx/xx/x.js', 'assets/../../x.js'),
    error: { code: 'invalid_build', reason: 'path_traversal', file: 'assets/../../x.js' },
  },
  {
    name: 'a name going up with Windows separators (..\\)',
    zip: async (slug) => renameEntry(await withFiles(slug, { 'xx/evil.js': 'x' }), 'xx/evil.js', '..\\evil.js'),
    error: { code: 'invalid_build', reason: 'path_traversal', file: '../evil.js' },
  },
  {
    name: 'an absolute name',
    zip: async (slug) => renameEntry(await withFiles(slug, { 'xetc/passwd': 'x' }), 'xetc/passwd', '/etc/passwd'),
    error: { code: 'invalid_build', reason: 'absolute_name', file: '/etc/passwd' },
  },
  {
    name: 'a Windows drive name',
    zip: async (slug) => renameEntry(await withFiles(slug, { 'xx/game.js': 'x' }), 'xx/game.js', 'C:/game.js'),
    error: { code: 'invalid_build', reason: 'absolute_name', file: 'C:/game.js' },
  },
  {
    name: 'a symbolic link',
    zip: (slug) => withFiles(slug, { 'assets/passwd': { data: '/etc/passwd', mode: 0o120777 } }),
    error: { code: 'invalid_build', reason: 'link', file: 'assets/passwd' },
  },
  {
    name: 'a hard link (two names for one stored file)',
    zip: async (slug) => {
      const zip = await withFiles(slug, { 'a.js': 'secret', 'b.js': 'other' });
      return patchCentral(zip, 'b.js', 'localHeaderOffset', readCentral(zip, 'a.js', 'localHeaderOffset'));
    },
    error: { code: 'invalid_build', reason: 'link', file: 'b.js' },
  },
  {
    name: 'a FIFO',
    zip: (slug) => withFiles(slug, { 'pipe.js': { data: '', mode: 0o010644 } }),
    error: { code: 'invalid_build', reason: 'special_file', file: 'pipe.js' },
  },
  {
    name: 'a name of more than 255 bytes',
    zip: (slug) => withFiles(slug, { [`assets/${'é'.repeat(128)}.js`]: 'x' }),
    error: { code: 'invalid_build', reason: 'name_too_long', file: `assets/${'é'.repeat(128)}.js` },
  },
  {
    name: 'more files than builds.max_files',
    zip: (slug) => withFiles(slug, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.js`, 'x']))),
    error: { code: 'invalid_build', reason: 'too_many_files' },
  },
  {
    name: 'more bytes than builds.max_bytes, as the zip declares them',
    zip: (slug) => withFiles(slug, { 'big.bin': Buffer.alloc(9 * MiB) }),
    error: { code: 'invalid_build', reason: 'too_large', file: 'big.bin' },
  },
  {
    name: 'a zip bomb: an entry inflating more than builds.max_ratio times its size',
    zip: (slug) => withFiles(slug, { 'zeros.bin': Buffer.alloc(6 * MiB) }),
    error: { code: 'invalid_build', reason: 'zip_bomb', file: 'zeros.bin' },
  },
  {
    name: 'a zip bomb that lies about its size, caught while it inflates',
    zip: async (slug) =>
      patchCentral(await withFiles(slug, { 'data.bin': randomBytes(64 * 1024) }), 'data.bin', 'uncompressedSize', 100),
    error: { code: 'invalid_build', reason: 'zip_bomb', file: 'data.bin' },
  },
  {
    name: 'overlapping entries (the compact zip bomb)',
    zip: async (slug) => {
      const zip = await withFiles(slug, { 'a.js': 'a'.repeat(200), 'b.js': 'b'.repeat(200) });
      return patchCentral(zip, 'b.js', 'localHeaderOffset', readCentral(zip, 'a.js', 'localHeaderOffset') + 10);
    },
    error: { code: 'invalid_build', reason: 'zip_bomb', file: 'b.js' },
  },
  {
    name: 'the same name twice',
    zip: async (slug) => renameEntry(await withFiles(slug, { 'x1.js': '1', 'x2.js': '2' }), 'x2.js', 'x1.js'),
    error: { code: 'invalid_build', reason: 'duplicate', file: 'x1.js' },
  },
  {
    name: 'an encrypted entry',
    zip: async (slug) => setFlags(await withFiles(slug, { 'a.js': 'x' }), 'a.js', 1),
    error: { code: 'invalid_build', reason: 'encrypted', file: 'a.js' },
  },
  {
    name: 'a top-level name starting with ~ (reserved for file-set URLs)',
    zip: (slug) => withFiles(slug, { '~set/x.js': 'x' }),
    error: { code: 'invalid_build', reason: 'bad_name', file: '~set/x.js' },
  },
  {
    name: 'something that is not a zip',
    zip: async () => randomBytes(2048),
    error: { code: 'invalid_build', reason: 'not_a_zip' },
  },
  {
    name: 'no game.json',
    zip: async (slug) => {
      const entries = buildEntries(slug);
      delete entries['game.json'];
      return zipOf(entries);
    },
    error: {
      code: 'validation_failed',
      message: 'game.json is missing',
      fields: { 'game.json': 'not found at the top of the zip' },
    },
  },
  {
    name: 'game.json with invalid fields (every one named, with the messages of games publish)',
    zip: (slug) =>
      zipOf(buildEntries(slug, { manifest: { name: undefined, version: 'v1', cover: 'nope.png', extra: 1 } })),
    error: {
      code: 'validation_failed',
      message: 'game.json is not valid',
      fields: {
        name: 'is required',
        version: 'must be a semantic version such as 1.4.0 or 2.0.0-beta.1',
        cover: "names nope.png, which is not among the game's files",
        extra: 'is not a known field',
      },
    },
  },
  {
    name: "game.json naming another game's slug",
    zip: (slug) => zipOf(buildEntries(`${slug}-other`)),
    error: {
      code: 'validation_failed',
      fields: { slug: expect.stringContaining('this build is uploaded to the game') },
    },
  },
];

function hostileSuite(name: string, settings: () => Record<string, unknown>, dialect: 'sqlite' | 'postgres') {
  describe(name, () => {
    let h: Harness & { close(): Promise<void> };
    let token = '';
    let studioId = 0;
    beforeAll(async () => {
      h = await createHarness(dialect, { settings: { ...LIMITS, ...settings() } });
      studioId = (await createStudio(h.ctx)).id;
      token = (await memberOf(h.ctx, studioId)).token;
    });
    afterAll(async () => h?.close());

    it.each(CASES)('refuses $name and leaves nothing behind', async ({ zip, error }) => {
      const game = await createStudioGame(h.ctx, studioId);
      const res = await deploy(h.http, token, game.slug, await zip(game.slug));
      expect(res.status, res.text).toBe(422);
      expect(res.body.error).toMatchObject(error);
      if (error.code === 'invalid_build' && !error.file) expect(res.body.error.file).toBeUndefined();
      expect(await storedKeys(h.ctx, `games/${game.slug}/`)).toEqual([]);
      expect(await storedKeys(h.ctx, 'uploads/')).toEqual([]);
      expect(readdirSync(path.join(h.config.data_dir, '.staging', 'builds'))).toEqual([]);
      const builds = await h.http.get(`/v1/studio/games/${game.slug}/builds`, { token });
      expect(builds.body.data.builds).toEqual([]);
    });

    it('takes a zip of the build folder itself, leaving out hidden files and macOS resource forks', async () => {
      const game = await createStudioGame(h.ctx, studioId);
      const entries = Object.fromEntries(Object.entries(buildEntries(game.slug)).map(([k, v]) => [`dist/${k}`, v]));
      const zip = await zipOf({
        ...entries,
        'dist/.DS_Store': 'x',
        '__MACOSX/dist/._index.html': 'x',
        'dist/.git/HEAD': 'x',
      });
      const res = await deploy(h.http, token, game.slug, zip);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.files).toBe(5);
      // The set's own files; the compressed copies made at publish sit apart under their marker.
      const stored = (await storedKeys(h.ctx, `games/${game.slug}/`)).filter((k) => !k.includes('/.compressed'));
      expect(stored.map((k) => k.split('/').slice(3).join('/')).sort()).toEqual(
        ['assets/ship.svg', 'cover.png', 'game.js', 'index.html', 'style.css'].sort(),
      );
    });
  });
}

for (const dialect of enabledDialects())
  hostileSuite(`studios: hostile zips, files under data_dir [${dialect}]`, () => ({}), dialect);

if (enabledDialects().includes('sqlite')) {
  let s3: S3Server | undefined;
  beforeAll(async () => {
    s3 = await startS3();
  });
  afterAll(async () => s3?.close());
  hostileSuite('studios: hostile zips, in an S3 store [sqlite]', () => s3!.settings(), 'sqlite');
}
