// Engine games in the play shell, in Debian's Chromium: the Phaser demo's loader, a default Vite build (modules,
// fetch, WebAssembly by streaming, localStorage, IndexedDB), cross-origin isolation on request, the HTTP cache across a
// reload; and what a game's frame can never do to the portal or to another game.
// The deployment is the default one (docs/operations.md, "Where games live: storage and cookies"): the portal on gameplatform.localhost, each
// game on its own origin {slug}.games.gameplatform.localhost, the same site (so that browsers blocking third-party
// storage, as Chromium does in these incognito contexts, still let games keep theirs). Isolation is tested there, where
// the cookie is same-site.
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { isolationProbe, viteSources, writeGameJson } from './engine-fixtures.js';
import { browserSuite, text, until, visible } from './browser.js';

interface Served {
  host: string;
  path: string;
  status: number;
  encoding: string | undefined;
}

/** every response the server sent, in order (the HTTP cache is proven by what never reaches the server) */
const served: Served[] = [];

browserSuite(
  'engines: in a real browser',
  {
    timeout: 90_000,
    rig: {
      host: 'gameplatform.localhost',
      beforeReady: (app) =>
        app.addHook('onResponse', async (request, reply) => {
          const encoding = reply.getHeader('content-encoding');
          served.push({
            host: request.hostname,
            path: request.originalUrl.split('?')[0]!,
            status: reply.statusCode,
            encoding: encoding === undefined ? undefined : String(encoding),
          });
        }),
    },
  },
  (rig) => {
    let n = 0;

    beforeAll(async () => {
      const { build } = await import('vite');
      const sources = viteSources();
      const out = path.join(sources, 'dist');
      await build({ root: sources, configFile: false, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
      writeGameJson(out, 'vite-probe');
      await publishGame(rig.app.ctx, out);
      await publishGame(rig.app.ctx, isolationProbe('threads', true));
      await publishGame(rig.app.ctx, isolationProbe('no-threads', false));
    }, 120_000);

    /** A new player logged in to the portal, registered from a portal page as the portal does it (Node cannot resolve the host). */
    async function playerSession(page: Page) {
      await page.context().clearCookies();
      await page.goto('/login');
      const id = `${Date.now().toString(36)}${++n}`;
      const body = JSON.stringify({
        email: `e${id}@example.com`,
        password: 'correct horse battery',
        display_name: `Engine ${id}`,
      });
      const status = await page.evaluate(
        `fetch('/v1/auth/register', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'ServiceSDK' }, body: ${JSON.stringify(body)} }).then((r) => r.status)`,
      );
      expect(status).toBe(201);
      return `Engine ${id}`;
    }

    const gameHost = (slug: string) => `${slug}.games.gameplatform.localhost`;

    /** The game's frame once its document has loaded (a cross-origin frame: Playwright reaches into it). */
    async function gameFrame(page: Page, slug: string): Promise<Frame> {
      await visible(page.locator('iframe.game-frame'));
      const handle = await page.locator('iframe.game-frame').elementHandle();
      const frame = (await handle!.contentFrame())!;
      await frame.waitForLoadState('load');
      expect(new URL(frame.url()).origin).toBe(`http://${gameHost(slug)}:${new URL(rig.origin).port}`);
      return frame;
    }

    const resultOf = async (frame: Frame) => {
      await until(() => frame.locator('body').getAttribute('data-result')).not.toBeNull();
      return JSON.parse((await frame.locator('body').getAttribute('data-result'))!);
    };

    it("runs the Phaser demo: its loader fetches the atlas, the sky and the sounds from the game's origin", async () => {
      const page = await rig.newPage();
      await playerSession(page);
      const from = served.length;
      await page.goto('/play/star-catcher');
      const frame = await gameFrame(page, 'star-catcher');
      await until(() => frame.locator('body').getAttribute('data-state'), 30_000).toBe('ready');
      expect(JSON.parse((await frame.locator('body').getAttribute('data-assets'))!)).toEqual({
        frames: ['basket', 'gem', 'rock', 'star'],
        sky: true,
        sounds: ['catch', 'bump'],
      });
      const assets = served.slice(from).filter((s) => s.host === gameHost('star-catcher'));
      for (const file of ['atlas.json', 'atlas.png', 'sky.png', 'catch.wav', 'bump.wav']) {
        expect(
          assets.find((s) => s.path.endsWith(`/assets/${file}`)),
          file,
        ).toMatchObject({ status: 200 });
      }
      // The 1.4 MB bundle goes out as the build's own .br copy.
      expect(assets.find((s) => s.path.endsWith('/game.js'))).toMatchObject({ status: 200, encoding: 'br' });
      await page.locator('iframe.game-frame').focus();
      await page.keyboard.press('Space');
      await until(() => frame.locator('body').getAttribute('data-state')).toBe('playing');
      await rig.screenshot(page, 'play-star-catcher');
      await page.close();
    });

    it('runs a default Vite build: module scripts, a dynamic import, fetch, WebAssembly.instantiateStreaming, localStorage, IndexedDB and the Cache API', async () => {
      const page = await rig.newPage();
      const player = await playerSession(page);
      await page.goto('/play/vite-probe');
      let result = await resultOf(await gameFrame(page, 'vite-probe'));
      expect(result).toEqual({
        module: 'ok',
        lazy: 'loaded',
        json: 'level one',
        wasm: 5,
        visits: 1,
        indexeddb: 'kept',
        cache: 'cached',
        player,
      });
      const wasm = served.filter((s) => s.host === gameHost('vite-probe') && s.path === '/add.wasm');
      expect(wasm.at(-1)).toMatchObject({ status: 200 });

      // Storage is the game's to keep: the next visit finds it.
      await page.goto('/');
      await page.goto('/play/vite-probe');
      result = await resultOf(await gameFrame(page, 'vite-probe'));
      expect(result.visits).toBe(2);
      await page.close();
    });

    it('lets the game go full screen, lock the pointer, read gamepads and play sound, and nothing more', async () => {
      const page = await rig.newPage();
      await playerSession(page);
      await page.goto('/play/no-threads');
      const frame = await gameFrame(page, 'no-threads');
      expect(await frame.evaluate('document.fullscreenEnabled')).toBe(true);
      const features = [
        'fullscreen',
        'gamepad',
        'autoplay',
        'camera',
        'microphone',
        'geolocation',
        'payment',
        'cross-origin-isolated',
      ];
      const allowed = await frame.evaluate(
        `${JSON.stringify(features)}.filter((f) => document.featurePolicy.allowsFeature(f))`,
      );
      expect(allowed).toEqual(['fullscreen', 'gamepad', 'autoplay']);
      const sandbox = (await page.locator('iframe.game-frame').getAttribute('sandbox'))!.split(' ');
      expect(sandbox).toEqual(
        expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-pointer-lock', 'allow-orientation-lock']),
      );
      expect(sandbox.filter((token) => token.startsWith('allow-top-navigation'))).toEqual([]);
      await page.close();
    });

    it('makes the frame cross-origin isolated for a game that asks for it, and only for it', async () => {
      const page = await rig.newPage();
      await playerSession(page);
      await page.goto('/play/threads');
      expect(await resultOf(await gameFrame(page, 'threads'))).toEqual({ isolated: true, sab: 8 });
      expect(await page.evaluate('self.crossOriginIsolated')).toBe(true);
      expect(await page.locator('iframe.game-frame').getAttribute('allow')).toContain('cross-origin-isolated');

      await page.goto('/play/no-threads');
      expect(await resultOf(await gameFrame(page, 'no-threads'))).toEqual({ isolated: false, sab: false });
      expect(await page.locator('iframe.game-frame').getAttribute('allow')).not.toContain('cross-origin-isolated');
      await page.close();
    });

    it('loads a game again from the browser cache on a reload: only the entry file, and no redirect', async () => {
      const page = await rig.newPage();
      await playerSession(page);
      await page.goto('/play/reflex');
      await visible((await gameFrame(page, 'reflex')).locator('#pad'));
      const from = served.length;
      await page.reload();
      await visible((await gameFrame(page, 'reflex')).locator('#pad'));
      const game = served.slice(from).filter((s) => s.host === gameHost('reflex'));
      expect(game.map((s) => [s.path.replace(/~[^/]+/, '~set'), s.status])).toEqual([['/~set/index.html', 200]]);
      await page.close();
    });

    it('saw no script error in the engine games', () => {
      expect(rig.problems).toEqual([]);
    });

    describe('what a game can never do', () => {
      let page: Page;
      let frame: Frame;
      beforeAll(async () => {
        page = await rig.newPage();
        await playerSession(page);
        await page.goto('/play/vite-probe');
        await page.evaluate(`localStorage.setItem('portal-secret', 'the portal keeps this')`);
        frame = await gameFrame(page, 'vite-probe');
        await frame.waitForFunction('document.body.dataset.result');
      });

      it("cannot read the portal's cookie, storage or page", async () => {
        expect((await page.context().cookies(rig.origin)).map((c) => c.name)).toContain('gp_session');
        expect(await frame.evaluate('document.cookie')).not.toContain('gp_session');
        expect(await frame.evaluate(`localStorage.getItem('portal-secret')`)).toBeNull();
        expect(
          await frame.evaluate(`(() => { try { return parent.document.title; } catch (e) { return e.name; } })()`),
        ).toBe('SecurityError');
      });

      it("cannot call /v1 with the player's credentials, neither on the portal nor on its own origin", async () => {
        const sessions = () =>
          rig.app.ctx.db
            .selectFrom('play_sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
        const before = Number((await sessions()).n);
        const outcome = await frame.evaluate(`(async (portal) => {
          const attempt = (p) => p.then((r) => r.type + ':' + r.status, (e) => e.name);
          return {
            me: await attempt(fetch(portal + '/v1/me', { credentials: 'include', headers: { 'X-Requested-With': 'ServiceSDK' } })),
            plain: await attempt(fetch(portal + '/v1/me', { credentials: 'include' })),
            start: await attempt(fetch(portal + '/v1/play/start', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{"game":"vite-probe"}' })),
            own: await attempt(fetch('/v1/me')),
          };
        })(${JSON.stringify(rig.origin)})`);
        // start: the refusal carries Cross-Origin-Resource-Policy: same-origin, so not even its opaque answer reaches the game
        expect(outcome).toEqual({ me: 'TypeError', plain: 'TypeError', start: 'TypeError', own: 'basic:404' });
        expect(Number((await sessions()).n)).toBe(before);
        // The one request that reached the portal was refused for its Origin.
        expect(served.filter((s) => s.path === '/v1/play/start').at(-1)).toMatchObject({ status: 403 });
      });

      it("cannot navigate the portal's window", async () => {
        const shell = page.url();
        const tried = await frame.evaluate(
          `(() => { try { top.location.href = 'https://example.com/'; return 'navigated'; } catch (e) { return e.name; } })()`,
        );
        expect(tried).toBe('SecurityError');
        expect(
          await frame.evaluate(
            `(() => { try { return String(open('https://example.com/', '_top')); } catch (e) { return e.name; } })()`,
          ),
        ).toBe('null');
        expect(
          await frame.evaluate(
            `(() => { try { parent.location.assign('https://example.com/'); return 'navigated'; } catch (e) { return e.name; } })()`,
          ),
        ).toBe('SecurityError');
        // The shell is still there and still hosts the game.
        expect(await page.evaluate('location.href')).toBe(shell);
        expect(await frame.evaluate('location.origin')).toBe(new URL(frame.url()).origin);
      });

      it("cannot read another game's storage", async () => {
        expect(await frame.evaluate(`localStorage.getItem('visits')`)).not.toBeNull();
        await page.goto('/play/reflex');
        const other = await gameFrame(page, 'reflex');
        expect(await other.evaluate(`localStorage.getItem('visits')`)).toBeNull();
        expect(await other.evaluate(`indexedDB.databases().then((dbs) => dbs.map((d) => d.name))`)).toEqual([]);
        expect(await other.evaluate('caches.keys()')).toEqual([]);
        expect(await text(other.locator('#big'))).toBe('Reflex');
      });
    });
  },
);
