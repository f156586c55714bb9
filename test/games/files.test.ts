// A game's files on its own origin ({slug}.games.localhost by default): content types, cache headers, the entry-file gate,
// traversal attempts over a real socket, republishing mid-read.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayWindow } from '../../src/time.js';
import { FIXTURES_DIR, createPlayer, createPlaySession, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const fixture = (file: string) => readFileSync(path.join(FIXTURES_DIR, 'orbit-dash', file));

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose path goes on the wire exactly as written (app.inject would normalise `..` and `\`), to a game's host. */
function raw(port: number, host: string, urlPath: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

eachDialect("games: files on the game's origin", (h) => {
  let game: Awaited<ReturnType<typeof publishFixture>>;
  let port = 0;
  beforeAll(async () => {
    game = await publishFixture(h.ctx, 'orbit-dash');
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as AddressInfo).port;
  });
  /** The game's origin: http://<slug>.games.localhost:8080 (the default games_url of a localhost public_url). */
  const origin = (slug = game.slug) => `http://${slug}.games.localhost:8080`;
  const url = (file: string, slug = game.slug) => `${origin(slug)}/${file}`;
  const host = (slug = game.slug) => `${slug}.games.localhost:8080`;
  const session = async (
    options: Parameters<typeof createPlaySession>[3] = {},
    gameId = game.game.id,
    player?: { id: number },
  ) =>
    (
      await createPlaySession(h.ctx, (player ?? (await createPlayer(h.ctx))).id, gameId, {
        status: 'active',
        ...options,
      })
    ).token;

  describe('files', () => {
    it.each([
      ['game.js', /^(text|application)\/javascript; charset=utf-8$/],
      ['style.css', /^text\/css; charset=utf-8$/],
      ['cover.png', /^image\/png$/],
      ['assets/ship.svg', /^image\/svg\+xml$/],
    ])('serves %s with its content type', async (file, type) => {
      const res = await raw(port, host(), `/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
      expect(res.body).toEqual(fixture(file));
    });

    it('lets the portal frame the game and show its cover, and no one else frame it', async () => {
      const res = await h.http.get(url('game.js'));
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['content-security-policy']).toBe(`frame-ancestors 'self' ${h.config.public_origin}`);
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it("answers a game path asked on the portal's origin with a redirect to the game's origin, never with the file", async () => {
      for (const [path, location] of [
        [`/g/${game.slug}/game.js`, url('game.js')],
        [`/g/${game.slug}/~${game.files_dir}/assets/ship.svg?x=1`, url(`~${game.files_dir}/assets/ship.svg?x=1`)],
        [`/g/${game.slug}/index.html?session=ps_x`, url('index.html?session=ps_x')],
      ]) {
        const res = await h.http.get(path!);
        expect(res.status, path).toBe(302);
        expect(res.headers.location).toBe(location);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.text).toBe('');
      }
      expect((await h.http.get(`/g/${game.slug}/../x`)).status).toBe(404);
    });

    it('has the plain URL revalidated (a republish may change it) and answers 304 when unchanged', async () => {
      const res = await h.http.get(url('game.js'));
      expect(res.headers['cache-control']).toBe('public, no-cache');
      expect(res.headers.etag).toBeTruthy();
      const again = await h.http.get(url('game.js'), { headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.status).toBe(304);
    });

    it('caches a plain URL for good when its name carries a content hash (Vite, webpack, Unity), else revalidates it', async () => {
      const built = await publishFixture(h.ctx, 'orbit-dash', {
        files: {
          'assets/index-BqA2ZdGd.js': 'vite bundle',
          'main.3f2a9c1b.js': 'webpack bundle',
          'Build/0a1b2c3d4e5f60718293a4b5c6d7e8f9.wasm': 'unity',
          'assets/player.png': 'not hashed',
        },
      });
      for (const file of [
        'assets/index-BqA2ZdGd.js',
        'main.3f2a9c1b.js',
        'Build/0a1b2c3d4e5f60718293a4b5c6d7e8f9.wasm',
      ]) {
        const res = await h.http.get(url(file, built.slug));
        expect(res.status, file).toBe(200);
        expect(res.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
      }
      for (const file of ['assets/player.png', 'game.js']) {
        expect((await h.http.get(url(file, built.slug))).headers['cache-control'], file).toBe('public, no-cache');
      }
    });

    it('caches the versioned URL for good: its bytes never change', async () => {
      const res = await h.http.get(url(`~${game.files_dir}/game.js`));
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(res.text)).toEqual(fixture('game.js'));
    });

    it('answers HEAD and ranges', async () => {
      const head = await h.http.head(url('game.js'));
      expect(head.status).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(fixture('game.js').length);
      const range = await h.http.get(url('game.js'), { headers: { range: 'bytes=0-9' } });
      expect(range.status).toBe(206);
      expect(range.text).toBe(fixture('game.js').subarray(0, 10).toString());
    });

    it('answers an unknown file with 404 in the JSON envelope, not cached', async () => {
      for (const file of [
        'nope.js',
        'assets',
        'assets/',
        `~${game.files_dir}/nope.js`,
        '~not-a-set/game.js',
        'v1/status',
        'sdk/v2.js',
      ]) {
        const res = await h.http.get(url(file));
        expect(res.status, file).toBe(404);
        expect(res.body.error.code).toBe('not_found');
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it('serves only published and beta games', async () => {
      const beta = await publishFixture(h.ctx, 'orbit-dash', { manifest: { status: 'beta' } });
      expect((await h.http.get(url('game.js', beta.slug))).status).toBe(200);
      for (const status of ['draft', 'retired']) {
        const hidden = await publishFixture(h.ctx, 'orbit-dash', { manifest: { status } });
        const res = await h.http.get(url('game.js', hidden.slug));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      expect((await h.http.get(url('game.js', 'no-such-game'))).status).toBe(404);
    });
  });

  describe('the entry file', () => {
    const refused = (res: { status: number; body: { error: { code: string } }; headers: http.IncomingHttpHeaders }) => {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('play_not_allowed');
      expect(res.headers['cache-control']).toBe('no-store');
    };

    it('is refused without a session, wherever the URL points at it', async () => {
      for (const file of ['index.html', '', '%69ndex.html', `~${game.files_dir}/index.html`, `~${game.files_dir}/`])
        refused(await h.http.get(url(file)));
      refused(await h.http.get(url('index.html'), { query: { session: 'ps_unknown' } }));
      refused(await h.http.get(url('index.html'), { query: { session: 'agp_not-a-session' } }));
    });

    it('redirects with an active session to the versioned URL, which serves it uncached', async () => {
      const token = await session();
      const res = await h.http.get(url('index.html'), { query: { session: token } });
      expect(res.status).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const location = url(`~${game.files_dir}/index.html?session=${token}`);
      expect(res.headers.location).toBe(location);
      expect((await h.http.get(url(''), { query: { session: token } })).headers.location).toBe(location);

      const page = await h.http.get(location);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['content-security-policy']).toMatch(/^frame-ancestors /);
      expect(page.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(Buffer.from(page.text)).toEqual(fixture('index.html'));
    });

    it("is refused with another game's session", async () => {
      const other = await publishFixture(h.ctx, 'orbit-dash');
      refused(
        await h.http.get(url(`~${game.files_dir}/index.html`), {
          query: { session: await session({}, other.game.id) },
        }),
      );
    });

    it('is refused with a closed session', async () => {
      refused(await h.http.get(url('index.html'), { query: { session: await session({ status: 'closed' }) } }));
    });

    it('is refused once the session has been idle for session_idle_timeout', async () => {
      const now = h.clock.now();
      const idle = h.config.session_idle_timeout * 1000;
      const fresh = await session({ lastHeartbeatAt: now - idle + 1000 });
      expect((await h.http.get(url('index.html'), { query: { session: fresh } })).status).toBe(302);
      refused(
        await h.http.get(url('index.html'), { query: { session: await session({ lastHeartbeatAt: now - idle }) } }),
      );
    });

    it('is refused when the player has no time left today, and served to an Unlimited member', async () => {
      const day = dayWindow(h.clock.now(), h.config.reset_timezone).day;
      const free = await createPlayer(h.ctx);
      const member = await createPlayer(h.ctx, { membership_plan: 'unlimited', membership_status: 'active' });
      for (const p of [free, member])
        await h.ctx.db
          .insertInto('daily_usage')
          .values({ player_id: p.id, day, seconds: h.config.free_seconds_per_day })
          .execute();
      refused(await h.http.get(url('index.html'), { query: { session: await session({}, game.game.id, free) } }));
      expect(
        (await h.http.get(url('index.html'), { query: { session: await session({}, game.game.id, member) } })).status,
      ).toBe(302);
    });

    it('is refused to a suspended player', async () => {
      const player = await createPlayer(h.ctx, { status: 'suspended' });
      refused(await h.http.get(url('index.html'), { query: { session: await session({}, game.game.id, player) } }));
    });

    it('of a premium game is refused to a free player and served to an Unlimited member', async () => {
      const premium = await publishFixture(h.ctx, 'quiet-garden');
      const entry = url(`~${premium.files_dir}/play.html`, premium.slug);
      refused(await h.http.get(entry, { query: { session: await session({}, premium.game.id) } }));
      const member = await createPlayer(h.ctx, { membership_plan: 'unlimited', membership_status: 'active' });
      const res = await h.http.get(entry, { query: { session: await session({}, premium.game.id, member) } });
      expect(res.status).toBe(200);
      expect(res.text).toContain('Quiet Garden');
    });
  });

  describe('path traversal', () => {
    const SECRET = 'TOP-SECRET-do-not-serve';
    beforeAll(() => {
      writeFileSync(path.join(h.dataDir, 'secret.txt'), SECRET);
      writeFileSync(path.join(h.dataDir, 'games', 'secret.txt'), SECRET);
    });

    const attempts = () => [
      `/../../../secret.txt`,
      `/assets/../../secret.txt`,
      `/%2e%2e/%2e%2e/%2e%2e/secret.txt`,
      `/%2E%2E%2F%2E%2E%2F%2E%2E%2Fsecret.txt`,
      `/..%2f..%2f..%2fsecret.txt`,
      `/%252e%252e/%252e%252e/%252e%252e/secret.txt`,
      `/%252e%252e%252f%252e%252e%252fsecret.txt`,
      `/..\\..\\..\\secret.txt`,
      `/..%5c..%5c..%5csecret.txt`,
      `/%2fetc%2fpasswd`,
      `//etc/passwd`,
      `/~${game.files_dir}/../../secret.txt`,
      `/~..%2f..%2f/secret.txt`,
      `/~../secret.txt`,
      `/game.js%00.png`,
      `/game.js%00`,
      `/%c0%ae%c0%ae/secret.txt`,
      `/%uff0e%uff0e/secret.txt`,
      `/./game.js`,
      `/game.js/`,
      `/../${game.slug}/game.js`,
      `/g/${game.slug}/game.js`,
    ];

    it('never serves anything outside the game files', async () => {
      // On the game's own host, on a host that names no game, and on a host name that is no slug.
      const hosts = [host(), host('..'), host('a.b'), 'games.localhost:8080', `${game.slug}.games.localhost.:8080`];
      for (const [attempt, on] of [...attempts().map((a) => [a, host()]), ...hosts.map((hh) => ['/secret.txt', hh])]) {
        const res = await raw(port, on!, attempt!);
        expect([400, 404], `${on} ${attempt}`).toContain(res.status);
        expect(res.body.toString(), attempt).not.toContain(SECRET);
        expect(res.body.toString(), attempt).not.toContain('root:');
        expect(JSON.parse(res.body.toString()).ok, attempt).toBe(false);
      }
    });

    it('never serves the entry file under another spelling of its path', async () => {
      for (const attempt of [
        './index.html',
        'assets/../index.html',
        'assets/%2e%2e/index.html',
        '%2e/index.html',
        'index.html/',
        'index.html%00',
        '.%2findex.html',
        `~${game.files_dir}/./index.html`,
      ]) {
        const res = await raw(port, host(), `/${attempt}`);
        expect([400, 403, 404], attempt).toContain(res.status);
        expect(res.body.toString(), attempt).not.toContain('<canvas');
      }
    });

    it('never serves hidden files', async () => {
      const withHidden = await publishFixture(h.ctx, 'orbit-dash');
      writeFileSync(path.join(h.dataDir, 'games', withHidden.slug, withHidden.files_dir, '.env'), SECRET);
      for (const attempt of ['.env', '%2eenv', `~${withHidden.files_dir}/.env`]) {
        const res = await raw(port, host(withHidden.slug), `/${attempt}`);
        expect(res.status, attempt).toBe(404);
        expect(res.body.toString()).not.toContain(SECRET);
      }
    });
  });

  describe('republishing', () => {
    it('lets a read that started finish with the old bytes; the next read gets the new ones', async () => {
      const size = 16 * 1024 * 1024;
      const v1 = await publishFixture(h.ctx, 'orbit-dash', { files: { 'big.bin': Buffer.alloc(size, 'a') } });
      const chunks: Buffer[] = [];
      const done = new Promise<number>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/big.bin', headers: { host: host(v1.slug) } }, (res) => {
          res.once('data', () => res.pause());
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(res.statusCode!));
          res.on('error', reject);
          // Republish twice while the response is paused, so the old file set is deleted under the read.
          res.once('data', () => {
            void (async () => {
              for (const version of ['1.3.0', '1.4.0']) {
                await publishFixture(h.ctx, 'orbit-dash', {
                  manifest: { slug: v1.slug, version },
                  files: { 'big.bin': Buffer.alloc(size, 'b') },
                });
              }
              res.resume();
            })().catch(reject);
          });
        });
        req.on('error', reject);
      });
      expect(await done).toBe(200);
      const body = Buffer.concat(chunks);
      expect(body.length).toBe(size);
      expect(body.equals(Buffer.alloc(size, 'a'))).toBe(true);
      const row = await h.ctx.db
        .selectFrom('games')
        .select(['files_dir', 'previous_files_dir'])
        .where('slug', '=', v1.slug)
        .executeTakeFirstOrThrow();
      expect([row.files_dir, row.previous_files_dir]).not.toContain(v1.files_dir);

      const next = await raw(port, host(v1.slug), '/big.bin');
      expect(next.body.equals(Buffer.alloc(size, 'b'))).toBe(true);
    });

    it('gates the entry file of the replaced version at its plain URL after a republish that renames the entry', async () => {
      const page = `<!doctype html><title>v1</title>${'<p>the first version of the game</p>'.repeat(60)}`;
      const v1 = await publishFixture(h.ctx, 'orbit-dash', {
        manifest: { requires_premium: true },
        files: { 'index.html': page },
      });
      await publishFixture(h.ctx, 'orbit-dash', {
        manifest: { slug: v1.slug, version: '2.0.0', entry: 'start.html', requires_premium: true },
        files: { 'start.html': '<p>v2</p>' },
      });
      for (const file of ['index.html', 'index.html.br', 'index.html.gz']) {
        for (const encoding of ['identity', 'gzip, br']) {
          const res = await h.http.get(url(file, v1.slug), { headers: { 'accept-encoding': encoding } });
          expect(res.status, `${file} ${encoding}`).toBe(403);
          expect(res.body.error.code).toBe('play_not_allowed');
          expect(res.text).not.toContain('the first version');
        }
      }
      // With a valid session it leads to that file in its own set, as before.
      const unlimited = await createPlayer(h.ctx, { role: 'staff' });
      const token = await session({}, v1.game.id, unlimited);
      const res = await h.http.get(url('index.html', v1.slug), { query: { session: token } });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${url(`~${v1.files_dir}/index.html`, v1.slug)}?session=${token}`);
      expect((await h.http.get(res.headers.location!)).text).toBe(page);
    });

    it('keeps serving the replaced file set under its versioned URL, and stops after the next publish', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const old = url(`~${v1.files_dir}`, v1.slug);
      const token = await session({}, v1.game.id);
      await publishFixture(h.ctx, 'orbit-dash', {
        manifest: { slug: v1.slug, version: '2.0.0', entry: 'start.html' },
        files: { 'start.html': '<p>v2</p>', 'game.js': 'v2' },
      });
      expect((await h.http.get(`${old}/game.js`)).text).toBe(fixture('game.js').toString());
      expect((await h.http.get(url('game.js', v1.slug))).text).toBe('v2');
      // the old set's entry is still gated, and still served to an active session
      expect((await h.http.get(`${old}/index.html`)).status).toBe(403);
      expect((await h.http.get(`${old}/index.html`, { query: { session: token } })).status).toBe(200);
      expect((await h.http.get(url('', v1.slug), { query: { session: token } })).headers.location).toMatch(
        /\/start\.html\?session=/,
      );
      await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '3.0.0' } });
      expect((await h.http.get(`${old}/game.js`)).status).toBe(404);
    });
  });
});
