// What engine exports need from the game-file server: their types, pre-compressed files beside the original (and
// Unity's `*.wasm.br` names), copies compressed at publish, ranges and validators, cross-origin isolation on request.
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlayer, createPlaySession, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const WASM = Buffer.concat([Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), Buffer.alloc(4000, 1)]);
const SCRIPT = `// a game script\n${'console.log("stars and rocks");\n'.repeat(200)}`;
const PCK = Buffer.alloc(3000, 7);

eachDialect('games: what engines need', (h) => {
  let game: Awaited<ReturnType<typeof publishFixture>>;
  const url = (file: string, slug = game.slug) => `http://${slug}.games.localhost:8080/${file}`;
  beforeAll(async () => {
    game = await publishFixture(h.ctx, 'orbit-dash', {
      files: {
        'Build/game.wasm': WASM,
        'Build/game.wasm.br': brotliCompressSync(WASM),
        'Build/game.wasm.gz': gzipSync(WASM),
        'Build/unity.framework.js.br': brotliCompressSync(SCRIPT),
        'Build/unity.data.gz': gzipSync(PCK),
        'Build/old.unityweb': PCK,
        'game.pck': PCK,
        'engine.mem': PCK,
        'main.mjs': SCRIPT,
        'fonts/title.woff2': Buffer.alloc(100, 1),
        'sfx/jump.ogg': Buffer.alloc(100, 1),
        'sfx/theme.mp3': Buffer.alloc(100, 1),
        'levels/world.tar.gz': gzipSync(PCK),
        'index.html.gz': gzipSync('<p>the entry, compressed</p>'),
      },
    });
  });

  it.each([
    ['Build/game.wasm', 'application/wasm'],
    ['game.pck', 'application/octet-stream'],
    ['engine.mem', 'application/octet-stream'],
    ['Build/old.unityweb', 'application/octet-stream'],
    ['main.mjs', 'text/javascript; charset=utf-8'],
    ['game.js', 'text/javascript; charset=utf-8'],
    ['fonts/title.woff2', 'font/woff2'],
    ['sfx/jump.ogg', 'audio/ogg'],
    ['sfx/theme.mp3', 'audio/mpeg'],
    ['levels/world.tar.gz', 'application/gzip'],
  ])('serves %s as %s', async (file, type) => {
    const res = await h.http.get(url(file));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  describe('pre-compressed files', () => {
    it('sends the .br beside the file to a browser that takes br, the .gz to one that takes only gzip, the file to others', async () => {
      const br = await h.http.get(url('Build/game.wasm'), {
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      expect(br.headers).toMatchObject({
        'content-encoding': 'br',
        'content-type': 'application/wasm',
        vary: 'Accept-Encoding',
      });
      expect(brotliDecompressSync(br.rawPayload)).toEqual(WASM);
      const gz = await h.http.get(url('Build/game.wasm'), { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload)).toEqual(WASM);
      const plain = await h.http.get(url('Build/game.wasm'), { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload).toEqual(WASM);
      expect(Number(plain.headers['content-length'])).toBe(WASM.length);
    });

    it("serves Unity's compressed names with Content-Encoding and the real type", async () => {
      const js = await h.http.get(url('Build/unity.framework.js.br'), { headers: { 'accept-encoding': 'br' } });
      expect(js.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': 'text/javascript; charset=utf-8' });
      expect(brotliDecompressSync(js.rawPayload).toString()).toBe(SCRIPT);
      const data = await h.http.get(url('Build/unity.data.gz'), { headers: { 'accept-encoding': 'gzip, br' } });
      expect(data.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-type': 'application/octet-stream' });
      expect(gunzipSync(data.rawPayload)).toEqual(PCK);
    });

    it('sends a compressed name decoded to a browser that does not take its encoding', async () => {
      const res = await h.http.get(url('Build/unity.framework.js.br'), { headers: { 'accept-encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.text).toBe(SCRIPT);
    });

    it('leaves an archive a game unpacks itself (.tar.gz) alone', async () => {
      const res = await h.http.get(url('levels/world.tar.gz'), { headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(gunzipSync(res.rawPayload)).toEqual(PCK);
    });

    it('gates the entry file under its compressed name too', async () => {
      for (const file of ['index.html.gz', `~${game.files_dir}/index.html.gz`]) {
        const res = await h.http.get(url(file), { headers: { 'accept-encoding': 'gzip' } });
        expect(res.status, file).toBe(403);
        expect(res.body.error.code).toBe('play_not_allowed');
      }
      const player = await createPlayer(h.ctx);
      const { token } = await createPlaySession(h.ctx, player.id, game.game.id, { status: 'active' });
      const page = await h.http.get(url(`~${game.files_dir}/index.html`), {
        query: { session: token },
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(page.rawPayload).toString()).toBe('<p>the entry, compressed</p>');
    });
  });

  describe('copies compressed at publish', () => {
    it('sends scripts and engine data that were uploaded without a compressed copy as br when the browser takes it', async () => {
      for (const [file, body] of [
        ['main.mjs', SCRIPT],
        ['game.pck', PCK],
      ] as const) {
        const res = await h.http.get(url(file), { headers: { 'accept-encoding': 'gzip, br' } });
        expect(res.headers['content-encoding'], file).toBe('br');
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(brotliDecompressSync(res.rawPayload)).toEqual(Buffer.from(body));
      }
      const gz = await h.http.get(url('main.mjs'), { headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    });

    it('leaves images, sound and fonts as they are, and answers ranges and revalidation uncompressed', async () => {
      expect(
        (await h.http.get(url('cover.png'), { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'],
      ).toBeUndefined();
      expect(
        (await h.http.get(url('sfx/jump.ogg'), { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'],
      ).toBeUndefined();
      const range = await h.http.get(url('game.pck'), { headers: { 'accept-encoding': 'br', range: 'bytes=10-19' } });
      expect(range.status).toBe(206);
      expect(range.headers['content-encoding']).toBeUndefined();
      expect(range.rawPayload).toEqual(PCK.subarray(10, 20));
      const first = await h.http.get(url('main.mjs'), { headers: { 'accept-encoding': 'br' } });
      const again = await h.http.get(url('main.mjs'), {
        headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    });
  });

  it('keeps the versioned URL immutable for its compressed variants too', async () => {
    const res = await h.http.get(url(`~${game.files_dir}/Build/game.wasm`), { headers: { 'accept-encoding': 'br' } });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.etag).toBeTruthy();
  });

  it('finds a file of the replaced version at its plain URL, so a page of that version still loads its hashed assets', async () => {
    const v1 = await publishFixture(h.ctx, 'orbit-dash', { files: { 'assets/index-AAAA.js': 'v1 bundle' } });
    await publishFixture(h.ctx, 'orbit-dash', {
      manifest: { slug: v1.slug, version: '1.3.0' },
      files: { 'assets/index-BBBB.js': 'v2 bundle' },
    });
    expect((await h.http.get(url('assets/index-BBBB.js', v1.slug))).text).toBe('v2 bundle');
    const old = await h.http.get(url('assets/index-AAAA.js', v1.slug));
    expect(old.text).toBe('v1 bundle');
    expect(old.headers['cache-control']).toBe('public, no-cache');
    await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.4.0' } });
    expect((await h.http.get(url('assets/index-AAAA.js', v1.slug))).status).toBe(404);
  });

  it('serves a game that asks for cross-origin isolation with COOP and COEP, and its play shell too', async () => {
    const isolated = await publishFixture(h.ctx, 'orbit-dash', { manifest: { cross_origin_isolated: true } });
    const file = await h.http.get(url('game.js', isolated.slug));
    expect(file.headers).toMatchObject({
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'cross-origin',
    });
    const shell = await h.http.get(`/play/${isolated.slug}`);
    expect(shell.headers).toMatchObject({
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(shell.text).toContain('data-cross-origin-isolated="true"');

    expect((await h.http.get(url('game.js'))).headers['cross-origin-embedder-policy']).toBeUndefined();
    const plain = await h.http.get(`/play/${game.slug}`);
    expect(plain.headers['cross-origin-embedder-policy']).toBeUndefined();
    expect(plain.text).not.toContain('data-cross-origin-isolated');
  });

  it('refuses cross_origin_isolated that is not a boolean', async () => {
    await expect(
      publishFixture(h.ctx, 'orbit-dash', { manifest: { cross_origin_isolated: 'yes' } }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      extra: { fields: { cross_origin_isolated: 'must be true or false' } },
    });
  });
});
