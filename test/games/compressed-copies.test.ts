// Files compressed once: publish stores a brotli and a gzip copy beside each file that compresses (decided by type and
// content), keeps uploaded copies as they are, decodes files uploaded only compressed; answers stream the stored
// variant with Content-Length, an ETag of their own and one Vary; `games compress` gives older sets their copies.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { compressGameFiles } from '../../src/modules/games/compress.service.js';
import { cliFor } from '../helpers/cli.js';
import { publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const SCRIPT = `// a game script\n${'export const line = "stars and rocks";\n'.repeat(400)}`;
/** A WebAssembly module's header, then code-like bytes that compress. */
const WASM = Buffer.concat([
  Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]),
  Buffer.from('\x20\x00\x41\x01\x6a\x21\x00'.repeat(3000), 'latin1'),
]);
const JSON_TEXT = JSON.stringify({ frames: Array.from({ length: 200 }, (_, i) => ({ name: `frame-${i}`, x: i })) });
const DATA = Buffer.concat([Buffer.from('engine data '), Buffer.alloc(20_000, 3)]);
const NOISE = randomBytes(20_000);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UPLOADED_BR = brotliCompressSync(SCRIPT, {}); // as an engine's export would ship it
const UNITY_FRAMEWORK = `// framework\n${'function unityFramework() { return 42; }\n'.repeat(300)}`;

eachDialect('games: files compressed once', (h) => {
  let game: Awaited<ReturnType<typeof publishFixture>>;
  const url = (file: string, slug = game.slug) => `http://${slug}.games.localhost:8080/${file}`;
  const stored = (file: string) => path.join(h.dataDir, 'games', game.slug, game.files_dir, file);
  const storedNames = (folder = '') =>
    readdirSync(path.join(h.dataDir, 'games', game.slug, game.files_dir, folder)).sort();

  beforeAll(async () => {
    game = await publishFixture(h.ctx, 'orbit-dash', {
      files: {
        'main.js': SCRIPT,
        'Build/game.wasm': WASM,
        'Build/game.data': DATA,
        'Build/game.pck': DATA,
        'atlas.json': JSON_TEXT,
        'levels.bin': DATA,
        'noise.data': NOISE,
        'sprite.dat': Buffer.concat([PNG_HEAD, DATA]),
        'music.ogg': DATA,
        'small.js': 'console.log(1);',
        'uploaded.js': SCRIPT,
        'uploaded.js.br': UPLOADED_BR,
        'Build/unity.framework.js.br': brotliCompressSync(UNITY_FRAMEWORK),
      },
    });
  });

  describe('at publish', () => {
    it('stores a brotli and a gzip copy beside each file that compresses, by type and by content', () => {
      const names = storedNames();
      for (const file of ['main.js', 'atlas.json', 'levels.bin']) {
        expect(names, file).toEqual(expect.arrayContaining([file, `${file}.br`, `${file}.gz`]));
      }
      for (const file of ['game.wasm', 'game.data', 'game.pck']) {
        expect(storedNames('Build'), file).toEqual(expect.arrayContaining([file, `${file}.br`, `${file}.gz`]));
      }
      expect(brotliDecompressSync(readFileSync(stored('main.js.br'))).toString()).toBe(SCRIPT);
      expect(gunzipSync(readFileSync(stored('Build/game.wasm.gz')))).toEqual(WASM);
      expect(game.copies).toBeGreaterThanOrEqual(14);
    });

    it('leaves alone what does not shrink: packed types, packed content under any name, random bytes, tiny files', () => {
      const names = storedNames();
      for (const file of ['music.ogg', 'sprite.dat', 'noise.data', 'small.js', 'cover.png']) {
        expect(names, file).toContain(file);
        expect(names, file).not.toContain(`${file}.br`);
        expect(names, file).not.toContain(`${file}.gz`);
      }
    });

    it('keeps an uploaded copy as it is and makes only the one missing', () => {
      expect(readFileSync(stored('uploaded.js.br'))).toEqual(UPLOADED_BR);
      expect(gunzipSync(readFileSync(stored('uploaded.js.gz'))).toString()).toBe(SCRIPT);
    });

    it('stores the decoded bytes of a file uploaded only compressed, and its other copy', () => {
      expect(readFileSync(stored('Build/unity.framework.js'), 'utf8')).toBe(UNITY_FRAMEWORK);
      expect(gunzipSync(readFileSync(stored('Build/unity.framework.js.gz'))).toString()).toBe(UNITY_FRAMEWORK);
    });

    it('refuses a compressed upload that does not decode, naming it, and leaves nothing of the new version', async () => {
      await expect(
        publishFixture(h.ctx, 'orbit-dash', {
          manifest: { slug: game.slug, version: '9.0.0' },
          files: { 'Build/broken.wasm.br': Buffer.from('this is not brotli at all') },
        }),
      ).rejects.toMatchObject({
        code: 'validation_failed',
        extra: { fields: { files: 'Build/broken.wasm.br is not valid brotli data' } },
      });
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.version).toBe('1.2.0');
      expect(readdirSync(path.join(h.dataDir, 'games', game.slug))).toEqual([game.files_dir]);
    });
  });

  describe('answers', () => {
    const variants = [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
      ['identity', (b: Buffer) => b],
    ] as const;

    it.each([
      ['Build/game.wasm', WASM, 'application/wasm'],
      ['main.js', Buffer.from(SCRIPT), 'text/javascript; charset=utf-8'],
    ])(
      'sends %s as each stored variant with Content-Length, its own ETag, one Vary, same bytes',
      async (file, bytes, type) => {
        const etags = new Set<string>();
        for (const [encoding, decode] of variants) {
          const res = await h.http.get(url(file), { headers: { 'accept-encoding': encoding } });
          expect(res.status).toBe(200);
          expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
          expect(res.headers['content-type']).toBe(type);
          expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
          expect(res.headers.vary).toBe('Accept-Encoding');
          expect(decode(res.rawPayload).equals(bytes)).toBe(true);
          etags.add(String(res.headers.etag));
          const again = await h.http.get(url(file), {
            headers: { 'accept-encoding': encoding, 'if-none-match': String(res.headers.etag) },
          });
          expect(again.status).toBe(304);
        }
        expect(etags.size).toBe(3);
      },
    );

    it('answers a range from the file as it is, whatever the browser takes', async () => {
      const res = await h.http.get(url('Build/game.wasm'), {
        headers: { 'accept-encoding': 'br, gzip', range: 'bytes=0-7' },
      });
      expect(res.status).toBe(206);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-range']).toBe(`bytes 0-7/${WASM.length}`);
      expect(res.rawPayload).toEqual(WASM.subarray(0, 8));
    });

    it('sends a HEAD the headers of the variant, with its Content-Length', async () => {
      const res = await h.http.head(url('main.js'), { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(Number(res.headers['content-length'])).toBe(readFileSync(stored('main.js.gz')).length);
    });

    it("serves a name asked compressed (Unity's loader) from the copy the browser takes, with Content-Length", async () => {
      const br = await h.http.get(url('Build/unity.framework.js.br'), { headers: { 'accept-encoding': 'br' } });
      expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'text/javascript; charset=utf-8' });
      const gz = await h.http.get(url('Build/unity.framework.js.br'), { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(UNITY_FRAMEWORK);
      const plain = await h.http.get(url('Build/unity.framework.js.br'), {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.text).toBe(UNITY_FRAMEWORK);
      for (const res of [br, gz, plain]) expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    });

    it('sends packed types as they are, without Vary', async () => {
      const res = await h.http.get(url('music.ogg'), { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(DATA.length);
    });
  });

  describe('games compress', () => {
    /** A set as a publish made before copies existed: the copies and the marker removed from the store. */
    async function olderSet() {
      const older = await publishFixture(h.ctx, 'orbit-dash', {
        files: { 'main.js': SCRIPT, 'Build/unity.framework.js.br': brotliCompressSync(UNITY_FRAMEWORK) },
      });
      const prefix = `games/${older.slug}/${older.files_dir}`;
      for (const key of [
        'main.js.br',
        'main.js.gz',
        'Build/unity.framework.js',
        'Build/unity.framework.js.gz',
        '.compressed',
      ])
        await h.ctx.storage.delete(`${prefix}/${key}`);
      return older;
    }

    it('gives a set published before copies were made its copies, once, and its files are then sent compressed', async () => {
      const older = await olderSet();
      const before = await h.http.get(url('main.js', older.slug), { headers: { 'accept-encoding': 'br' } });
      expect(before.headers['content-encoding']).toBeUndefined();
      expect(Number(before.headers['content-length'])).toBe(SCRIPT.length);
      const decoded = await h.http.get(url('Build/unity.framework.js.br', older.slug), {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(decoded.text).toBe(UNITY_FRAMEWORK);

      const sets = await compressGameFiles(h.ctx, { slug: older.slug });
      expect(sets).toEqual([
        { slug: older.slug, set: older.files_dir, done_before: false, copies: 3, decoded: 1, unreadable: [] },
      ]);
      const after = await h.http.get(url('main.js', older.slug), { headers: { 'accept-encoding': 'br' } });
      expect(after.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(after.rawPayload).toString()).toBe(SCRIPT);
      const gz = await h.http.get(url('Build/unity.framework.js.br', older.slug), {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);

      expect((await compressGameFiles(h.ctx, { slug: older.slug }))[0]).toMatchObject({ done_before: true, copies: 0 });
      await expect(compressGameFiles(h.ctx, { slug: 'no-such-game' })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('runs from the command line over every game', async () => {
      const older = await olderSet();
      const res = await cliFor(h)(['games', 'compress']);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`${older.slug} (file set ${older.files_dir}): 3 compressed copies stored`);
      expect(res.stdout).toContain(`${game.slug} (file set ${game.files_dir}): has its copies already`);
      expect(readdirSync(path.join(h.dataDir, 'games', older.slug, older.files_dir))).toContain('main.js.br');
    }, 120_000);
  });
});
