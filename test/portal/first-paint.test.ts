// The first paint over real HTTP: the portal's scripts and stylesheets go out precompressed (brotli or gzip by
// Accept-Encoding, Vary: Accept-Encoding), and the served header already matches the session cookie (a player, a
// guest or a visitor), cached per cookie.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledDialects } from '../helpers/dialects.js';
import { createGame, createPlayer, createToken } from '../helpers/factories.js';
import { liveApp, type LiveApp } from '../helpers/live.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** the bytes as sent (compressed ones stay compressed) */
  raw: Buffer;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'GET', path, agent: false, headers: { Host: 'localhost:8080', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const nav = (html: string) => /<div id="account-nav" class="account-nav">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';

for (const dialect of enabledDialects()) {
  describe(`portal: first paint over HTTP [${dialect}]`, { timeout: 60_000 }, () => {
    let live: LiveApp;
    let port: number;
    let script: string;
    let style: string;

    beforeAll(async () => {
      live = await liveApp(dialect);
      port = live.port;
      const page = (await get(port, '/')).raw.toString();
      script = /\/assets\/(portal-[A-Z0-9]+\.js)/.exec(page)![1]!;
      style = /\/assets\/(styles-[A-Z0-9]+\.css)/.exec(page)![1]!;
    });
    afterAll(async () => {
      await live?.close();
    });

    it('sends the bundle and the stylesheet brotli- or gzip-compressed by Accept-Encoding, the same bytes once decoded', async () => {
      for (const file of [script, style]) {
        const plain = await get(port, `/assets/${file}`);
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
        expect(plain.headers['cache-control']).toContain('immutable');

        const br = await get(port, `/assets/${file}`, { 'accept-encoding': 'gzip, deflate, br' });
        expect(br.headers['content-encoding']).toBe('br');
        expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
        expect(br.headers['cache-control']).toContain('immutable');
        expect(br.headers['content-type']).toMatch(file.endsWith('.js') ? /javascript/ : /text\/css/);
        expect(brotliDecompressSync(br.raw).equals(plain.raw)).toBe(true);

        const gz = await get(port, `/assets/${file}`, { 'accept-encoding': 'gzip' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.raw).equals(plain.raw)).toBe(true);

        // Precompressed at build at the best settings: brotli well under a third, gzip under 40 % of the plain file.
        expect(br.raw.length).toBeLessThan(plain.raw.length / 3);
        expect(gz.raw.length).toBeLessThan(plain.raw.length * 0.4);
        expect(br.raw.length).toBeLessThan(gz.raw.length);
      }
    });

    it('sends the SDK script compressed too, with its origin written in', async () => {
      const br = await get(port, '/sdk/v1.js', { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      const plain = await get(port, '/sdk/v1.js', { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(brotliDecompressSync(br.raw).equals(plain.raw)).toBe(true);
      expect(br.raw.length).toBeLessThan(plain.raw.length / 3);
      const gz = await get(port, '/sdk/v1.js', { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gz.raw).equals(plain.raw)).toBe(true);
    });

    const session = (token: string) => ({ cookie: `gp_session=${live.app.signCookie(token)}` });

    it("serves a logged-in player's header with their name, picture and account links, privately and per cookie", async () => {
      const player = await createPlayer(live.app.ctx, { display_name: 'Ada <Lovelace>' });
      const { token } = await createToken(live.app.ctx, player.id);
      for (const path of ['/', '/playtime', '/docs']) {
        const res = await get(port, path, session(token));
        const html = res.raw.toString();
        const header = nav(html);
        expect(header).toContain('href="/account"');
        expect(header).toContain('aria-label="Account settings for Ada &lt;Lovelace&gt;"');
        expect(header).toContain('<span class="account-name">Ada &lt;Lovelace&gt;</span>');
        expect(header).toMatch(/<img class="avatar" src="[^"]+\/avatars\/initials\/\d+\/AL\.svg"/);
        expect(header).toContain('href="/playtime"');
        expect(header).toContain('Log out');
        expect(header).not.toContain('Log in');
        expect(html).not.toContain('data-session="none"');
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(String(res.headers.vary)).toMatch(/cookie/i);
      }
    });

    it('serves a guest the guest header, and on the play view the bar that offers a free account', async () => {
      const guest = await createPlayer(live.app.ctx, { display_name: 'Brave Otter' });
      await live.app.ctx.db.updateTable('players').set({ guest: 1 }).where('id', '=', guest.id).execute();
      const { token } = await createGame(live.app.ctx, { slug: 'painted' }).then(() =>
        createToken(live.app.ctx, guest.id),
      );
      const res = await get(port, '/play/painted', session(token));
      expect(res.status).toBe(200);
      const html = res.raw.toString();
      const header = nav(html);
      expect(header).toContain('Brave Otter (guest)');
      expect(header).toContain('href="/login?next=%2Fplay%2Fpainted"');
      expect(header).toContain('href="/register?next=%2Fplay%2Fpainted">Create account</a>');
      expect(html).toMatch(/<aside class="guest-bar"[^>]*>.*Create a free account<\/a> to keep your progress/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      // Not on other pages: the bar belongs to the play view.
      expect((await get(port, '/', session(token))).raw.toString()).not.toContain('guest-bar');
    });

    it('serves a visitor, and a cookie that names nobody, "Log in · Register", cacheable per cookie', async () => {
      const player = await createPlayer(live.app.ctx);
      const revoked = await createToken(live.app.ctx, player.id, { revoked: true });
      const cases: Array<[string, Record<string, string>]> = [
        ['no cookie', {}],
        ['a revoked token', session(revoked.token)],
        ['an unsigned cookie', { cookie: 'gp_session=agp_forged' }],
      ];
      for (const [label, headers] of cases) {
        const res = await get(port, '/playtime', headers);
        const html = res.raw.toString();
        expect(nav(html), label).toBe(
          '<a href="/login?next=%2Fplaytime">Log in</a> <a class="button small" href="/register">Register</a>',
        );
        // The page knows nobody is logged in: the script need not ask /v1/me.
        expect(html, label).toContain('data-session="none"');
        expect(String(res.headers.vary), label).toMatch(/cookie/i);
      }
      const visitor = await get(port, '/');
      expect(visitor.headers['cache-control']).toBe('no-cache');
      expect(nav(visitor.raw.toString())).toBe(
        '<a href="/login">Log in</a> <a class="button small" href="/register">Register</a>',
      );
    });

    it('serves a suspended player the visitor header', async () => {
      const player = await createPlayer(live.app.ctx, { status: 'suspended', display_name: 'Gone Player' });
      const { token } = await createToken(live.app.ctx, player.id);
      const html = (await get(port, '/', session(token))).raw.toString();
      expect(html).not.toContain('Gone Player');
      expect(nav(html)).toContain('Log in');
    });
  });
}
