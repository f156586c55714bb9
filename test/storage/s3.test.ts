// The object store against a real S3-compatible server (s3rver on loopback): the store itself, the service on it
// (game files and avatars served from the bucket, a publish that fails half-way), the checks at start, storage copy.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { LocalStore } from '../../src/services/storage/local-store.js';
import { copyStore } from '../../src/services/storage/storage.cli.js';
import { openStore } from '../../src/services/storage/storage.js';
import { StorageError, type ObjectStore } from '../../src/services/storage/store.js';
import { createPlayerWithToken, fixtureCopy, publishFixture } from '../helpers/factories.js';
import { createHarness, eachDialect, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { runCli } from '../helpers/cli.js';
import { startS3, TEST_BUCKET, type S3Server } from '../helpers/s3.js';
import { enabledDialects } from '../helpers/dialects.js';
import { tempDir } from '../helpers/temp.js';

let s3: S3Server;
/** Filled once the server runs: the harnesses are built after this hook. */
const serviceSettings: Record<string, unknown> = {};
beforeAll(async () => {
  s3 = await startS3();
  Object.assign(serviceSettings, s3.settings());
});
afterAll(async () => {
  await s3?.close();
});

const storeFor = (settings: Record<string, unknown>) =>
  openStore(loadConfig({ env: { NODE_ENV: 'test' }, cwd: tmpdir(), overrides: settings }));

async function text(store: ObjectStore, key: string, range?: { start: number; end: number }): Promise<string | null> {
  const object = await store.get(key, range);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('storage: the S3 store', () => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = await storeFor(s3.settings());
  });
  afterAll(() => store.close());

  it('passes its check at start on an existing bucket with good credentials', async () => {
    expect(store.kind).toBe('s3');
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('uploads, reads, reads a range, overwrites and deletes', async () => {
    await store.put('games/x/set1/a.txt', Buffer.from('hello, object store'), { contentType: 'text/plain' });
    expect(await text(store, 'games/x/set1/a.txt')).toBe('hello, object store');
    expect(await text(store, 'games/x/set1/a.txt', { start: 7, end: 12 })).toBe('object');
    const stat = await store.head('games/x/set1/a.txt');
    expect(stat).toMatchObject({ size: 19 });
    expect(stat!.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(stat!.lastModified).toBeInstanceOf(Date);

    await store.put('games/x/set1/a.txt', Buffer.from('changed'));
    expect(await text(store, 'games/x/set1/a.txt')).toBe('changed');
    expect((await store.head('games/x/set1/a.txt'))!.etag).not.toBe(stat!.etag);

    await store.delete('games/x/set1/a.txt');
    expect(await store.head('games/x/set1/a.txt')).toBeNull();
    expect(await store.get('games/x/set1/a.txt')).toBeNull();
    await expect(store.delete('games/x/set1/a.txt')).resolves.toBeUndefined();
  });

  it('uploads a local file, lists, names the folders and deletes a folder', async () => {
    const dir = tempDir('gp-s3-file-');
    writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(300_000, 7));
    await store.put('games/y/s1/big.bin', { file: path.join(dir, 'big.bin') });
    await store.put('games/y/s1/sub/b.js', Buffer.from('b'));
    await store.put('games/y/s2/c.js', Buffer.from('c'));
    const listed: string[] = [];
    for await (const object of store.list('games/y/')) listed.push(`${object.key}:${object.size}`);
    expect(listed.sort()).toEqual(['games/y/s1/big.bin:300000', 'games/y/s1/sub/b.js:1', 'games/y/s2/c.js:1']);
    expect(await store.folders('games/y/')).toEqual(['s1', 's2']);
    await store.deletePrefix('games/y/s1/');
    expect(await store.folders('games/y/')).toEqual(['s2']);
    expect(await store.head('games/y/s1/big.bin')).toBeNull();
  });

  it('keeps two prefixes of one bucket apart', async () => {
    const other = await storeFor(s3.settings(TEST_BUCKET, 'another-deployment'));
    await store.put('avatars/1-x.webp', Buffer.from('mine'));
    expect(await other.head('avatars/1-x.webp')).toBeNull();
    other.close();
  });

  it('refuses to start on a missing bucket, naming the setting and the bucket', async () => {
    const missing = await storeFor(s3.settings('no-such-bucket'));
    await expect(missing.check()).rejects.toThrow(StorageError);
    await expect(missing.check()).rejects.toThrow(
      /storage_url \(GP_STORAGE_URL\).*the bucket no-such-bucket does not exist/,
    );
    missing.close();
  });

  // s3rver knows its access keys but does not verify SigV4 signatures: a wrong secret with a known key is not testable here.
  it('refuses to start with credentials the store refuses', async () => {
    const refused = await storeFor({ ...s3.settings(), s3_access_key_id: 'NOT-A-KEY', s3_secret_access_key: 'S3RVER' });
    await expect(refused.check()).rejects.toThrow(
      /refused the credentials \(HTTP 403\).*s3_access_key_id and s3_secret_access_key/,
    );
    refused.close();
  });

  it('refuses to start when the store cannot be reached', async () => {
    const nowhere = await storeFor({ ...s3.settings(), s3_endpoint: 'http://127.0.0.1:9' });
    await expect(nowhere.check()).rejects.toThrow(/cannot be reached/);
    nowhere.close();
  });

  it('refuses a storage_url that is not s3:// and half a key pair, at start', () => {
    expect(() => storeFor({ storage_url: 'gs://bucket' })).toThrow(/storage_url \(GP_STORAGE_URL\) must be s3:\/\//);
    expect(() => storeFor({ storage_url: 's3://bucket', s3_access_key_id: 'x' })).toThrow(/must be set together/);
  });
});

describe('storage: the service does not start on a bucket it cannot use', () => {
  it.each(enabledDialects())(
    '[%s] stops at start with the bucket named, not a 500 on the first upload',
    async (dialect) => {
      await expect(createHarness(dialect, { settings: { ...s3.settings('no-such-bucket') } })).rejects.toThrow(
        /the bucket no-such-bucket does not exist/,
      );
    },
  );
});

describe('storage: gameplatform storage copy', () => {
  it('copies avatars and every file set into the bucket, and copies nothing the second time', async () => {
    const root = tempDir('gp-copy-');
    const files: Record<string, string> = {
      'avatars/1-abcdefabcdef.webp': 'picture',
      'games/orbit/lz1-aa/index.html': '<p>hi</p>',
      'games/orbit/lz1-aa/assets/ship.svg': '<svg/>',
      'games/orbit/lz2-bb/index.html': '<p>v2</p>',
    };
    for (const [key, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
      writeFileSync(path.join(root, key), content);
    }
    // Not copied: the database, staging left by an older version, a file being written.
    writeFileSync(path.join(root, 'gameplatform.sqlite'), 'db');
    mkdirSync(path.join(root, 'games/orbit/.staging-x'), { recursive: true });
    writeFileSync(path.join(root, 'games/orbit/.staging-x/a.js'), 'x');
    const target = await storeFor(s3.settings());
    const lines: string[] = [];
    const first = await copyStore(new LocalStore(root), target, root, (line) => lines.push(line));
    expect(first).toEqual({ copied: 4, skipped: 0, bytes: Object.values(files).join('').length });
    expect(lines.at(-1)).toMatch(/^copied 4, already there 0/);
    for (const [key, content] of Object.entries(files)) expect(await text(target, key)).toBe(content);
    const stored: string[] = [];
    for await (const object of target.list('')) stored.push(object.key);
    expect(stored.sort()).toEqual(Object.keys(files).sort());

    // Resumed after a change: only the file that differs is copied again.
    writeFileSync(path.join(root, 'games/orbit/lz2-bb/index.html'), '<p>v2, fixed</p>');
    const second = await copyStore(new LocalStore(root), target, root, () => undefined);
    expect(second).toMatchObject({ copied: 1, skipped: 3 });
    expect(await text(target, 'games/orbit/lz2-bb/index.html')).toBe('<p>v2, fixed</p>');
    expect(await copyStore(new LocalStore(root), target, root, () => undefined)).toMatchObject({
      copied: 0,
      skipped: 4,
    });
    target.close();
  });
});

describe('storage: the storage copy command', () => {
  it('copies a data_dir into the bucket with a progress line, and refuses without storage_url', async () => {
    const root = tempDir('gp-copy-cli-');
    mkdirSync(path.join(root, 'games/g/lz1-aa'), { recursive: true });
    writeFileSync(path.join(root, 'games/g/lz1-aa/index.html'), '<p>hi</p>');
    const settings = s3.settings();
    const env: Record<string, string> = {
      GP_DATA_DIR: root,
      GP_STORAGE_URL: String(settings.storage_url),
      GP_S3_ENDPOINT: String(settings.s3_endpoint),
      GP_S3_ACCESS_KEY_ID: 'S3RVER',
      GP_S3_SECRET_ACCESS_KEY: 'S3RVER',
      GP_S3_FORCE_PATH_STYLE: 'true',
    };
    const first = await runCli(['storage', 'copy'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`copying ${root} to s3://${TEST_BUCKET}/`);
    expect(first.stdout).toContain('copied 1 files (9 bytes); 0 were already there');
    const again = await runCli(['storage', 'copy'], env);
    expect(again.stdout).toContain('copied 0 files (0 bytes); 1 were already there');
    const none = await runCli(['storage', 'copy'], { GP_DATA_DIR: root });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('storage_url (GP_STORAGE_URL) is not set');
    const missing = await runCli(['storage', 'copy'], { ...env, GP_STORAGE_URL: 's3://no-such-bucket/x' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the bucket no-such-bucket does not exist');
  }, 180_000);
});

eachDialect(
  'storage: the service on an S3 store',
  (h: Harness) => {
    const store = () => h.ctx.storage;
    const keys = async (prefix: string) => {
      const found: string[] = [];
      for await (const object of store().list(prefix)) found.push(object.key);
      return found.sort();
    };

    it('publishes a game into the bucket and serves its files from there: validators, 304, ranges, HEAD', async () => {
      const game = await publishFixture(h.ctx, 'orbit-dash');
      expect(store().kind).toBe('s3');
      expect(await keys(`games/${game.slug}/`)).toEqual(
        ['.compressed', 'assets/ship.svg', 'cover.png', 'game.js', 'index.html', 'style.css'].map(
          (f) => `games/${game.slug}/${game.files_dir}/${f}`,
        ),
      );
      const url = (file: string) => `http://${game.slug}.games.localhost:8080/${file}`;
      const js = await h.http.get(url(`~${game.files_dir}/game.js`), { headers: { 'accept-encoding': 'identity' } });
      expect(js.status).toBe(200);
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(js.headers['content-type']).toMatch(/^text\/javascript/);
      expect(js.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(js.headers['last-modified']).toBeTruthy();
      const source = await (await import('node:fs/promises')).readFile(path.join(game.dir, 'game.js'));
      expect(js.rawPayload).toEqual(source);

      const again = await h.http.get(url('game.js'), { headers: { 'if-none-match': String(js.headers.etag) } });
      expect(again.status).toBe(304);
      const since = await h.http.get(url('game.js'), {
        headers: { 'if-modified-since': String(js.headers['last-modified']) },
      });
      expect(since.status).toBe(304);
      const range = await h.http.get(url('game.js'), { headers: { range: 'bytes=5-14' } });
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 5-14/${source.length}`);
      expect(range.rawPayload).toEqual(source.subarray(5, 15));
      const tail = await h.http.get(url('game.js'), { headers: { range: 'bytes=-4' } });
      expect(tail.rawPayload).toEqual(source.subarray(source.length - 4));
      const outside = await h.http.get(url('game.js'), { headers: { range: `bytes=${source.length}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers['content-range']).toBe(`bytes */${source.length}`);
      const head = await h.http.head(url('game.js'));
      expect(head.status).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(source.length);
      expect((await h.http.get(url('nope.js'))).status).toBe(404);
      // The entry file stays behind the session gate.
      expect((await h.http.get(url(`~${game.files_dir}/index.html`))).status).toBe(403);
    });

    it('stores compressed copies in the bucket, serves them with Content-Length, and games compress finds what is missing', async () => {
      const script = `// a script\n${'export const star = "bright";\n'.repeat(300)}`;
      const game = await publishFixture(h.ctx, 'orbit-dash', { files: { 'main.js': script } });
      const prefix = `games/${game.slug}/${game.files_dir}`;
      expect(await keys(`${prefix}/main.js`)).toEqual([
        `${prefix}/main.js`,
        `${prefix}/main.js.br`,
        `${prefix}/main.js.gz`,
      ]);
      const url = `http://${game.slug}.games.localhost:8080/main.js`;
      const br = await h.http.get(url, { headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
      expect(br.headers.etag).toMatch(/^"[0-9a-f]{32}-br"$/);
      expect((await import('node:zlib')).brotliDecompressSync(br.rawPayload).toString()).toBe(script);

      for (const key of ['main.js.br', 'main.js.gz', '.compressed']) await store().delete(`${prefix}/${key}`);
      const { compressGameFiles } = await import('../../src/modules/games/compress.service.js');
      expect(await compressGameFiles(h.ctx, { slug: game.slug })).toEqual([
        { slug: game.slug, set: game.files_dir, done_before: false, copies: 2, decoded: 0, unreadable: [] },
      ]);
      expect(await keys(`${prefix}/`)).toContain(`${prefix}/main.js.gz`);
      expect(await keys(`${prefix}/`)).toContain(`${prefix}/.compressed`);
    });

    it('stores an avatar in the bucket, serves it from there, and deletes the one it replaces', async () => {
      const { player, token } = await createPlayerWithToken(h.ctx);
      const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
      const upload = async () => {
        const { body, contentType } = multipartBody([
          { field: 'avatar', filename: 'me.png', contentType: 'image/png', data: picture },
        ]);
        return h.http.post('/v1/me/avatar', { token, body, contentType });
      };
      const first = await upload();
      expect(first.status).toBe(200);
      const file = new URL(first.body.data.avatar_url).pathname.replace('/avatars/', '');
      expect(await keys('avatars/')).toContain(`avatars/${file}`);
      const served = await h.http.get(`/avatars/${file}`);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await sharp(served.rawPayload).metadata()).width).toBe(256);

      const second = await upload();
      const next = new URL(second.body.data.avatar_url).pathname.replace('/avatars/', '');
      expect((await keys('avatars/')).filter((k) => k.startsWith(`avatars/${player.id}-`))).toEqual([
        `avatars/${next}`,
      ]);
      expect((await h.http.get(`/avatars/${file}`)).status).toBe(404);
      await h.http.delete('/v1/me/avatar', { token });
      expect((await keys('avatars/')).filter((k) => k.startsWith(`avatars/${player.id}-`))).toEqual([]);
    });

    it('leaves no half-published game when the upload fails half-way: the old version stays, nothing of the new one is left', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const real = h.ctx.storage;
      let puts = 0;
      const failing: ObjectStore = Object.assign(
        Object.create(Object.getPrototypeOf(real) as object) as ObjectStore,
        real,
        {
          put: async (...args: Parameters<ObjectStore['put']>) => {
            if (++puts === 4) throw new Error('connection reset by the object store');
            return real.put(...args);
          },
        },
      );
      const dir = fixtureCopy('orbit-dash', {
        manifest: { slug: v1.slug, version: '2.0.0' },
        files: { 'game.js': 'console.log("v2")' },
      });
      await expect(publishGame({ ...h.ctx, storage: failing }, dir)).rejects.toThrow(/connection reset/);
      const row = await h.ctx.db.selectFrom('games').selectAll().where('id', '=', v1.game.id).executeTakeFirstOrThrow();
      expect(row).toEqual(v1.game);
      expect(await store().folders(`games/${v1.slug}/`)).toEqual([v1.files_dir]);
      const served = await h.http.get(`http://${v1.slug}.games.localhost:8080/game.js`);
      expect(served.status).toBe(200);
      expect(served.text).not.toContain('v2');
    });

    it('leaves no half-published game when the switch fails: the uploaded set is removed', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      // Every file is uploaded, then the database write fails.
      const dir = fixtureCopy('orbit-dash', { manifest: { slug: v1.slug, version: '2.0.0' } });
      const failingDb = new Proxy(h.ctx.db, {
        get(target, property, receiver) {
          if (property === 'transaction')
            return () => ({ execute: async () => Promise.reject(new Error('the database went away')) });
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
      await expect(publishGame({ ...h.ctx, db: failingDb }, dir)).rejects.toThrow(/went away/);
      expect(await store().folders(`games/${v1.slug}/`)).toEqual([v1.files_dir]);
      const row = await h.ctx.db.selectFrom('games').selectAll().where('id', '=', v1.game.id).executeTakeFirstOrThrow();
      expect(row).toEqual(v1.game);
    });
  },
  { settings: serviceSettings },
);
