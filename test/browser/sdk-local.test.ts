// The local loop of docs/game-developers.md ("Local mode"), as a developer runs it: the guide's Vite example served by
// Vite's dev server with @gameplatform/sdk installed from its build, and its script-tag example (the package's
// dist/v1.js copied to sdk/v1.js) served by a plain static server, both in Debian's Chromium. game.json is read,
// saves stay local, and ?gp_simulate plays pause, limit and entitlement on the page's clock (and from the panel).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { launchChromium, skipReason, text, until } from './browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const reason = skipReason();

/** The guide's code blocks, by the file name in their info string (```js title="main.js"). */
function guideFiles(): Record<string, string> {
  const guide = readFileSync(path.join(ROOT, 'docs/game-developers.md'), 'utf8');
  const files: Record<string, string> = {};
  for (const match of guide.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)) files[match[1]!] = match[2]!;
  return files;
}

/** A project folder with the guide's files and @gameplatform/sdk as `npm install` leaves it (its package.json and dist/). */
async function project(files: Record<string, string>): Promise<string> {
  const root = tempDir('gp-local-');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  const { execFileSync } = await import('node:child_process');
  const installed = path.join(root, 'node_modules/@gameplatform/sdk');
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(ROOT, 'packages/sdk/package.json'), path.join(installed, 'package.json'));
  // Built straight into the install (the package's own dist/ is npm pack's, rebuilt by sdk-package.test.ts meanwhile).
  execFileSync(process.execPath, [path.join(ROOT, 'packages/sdk/build.mjs'), '--out', path.join(installed, 'dist')], {
    stdio: 'ignore',
  });
  return root;
}

/** Any static server: files as they are, 404 for the rest. */
function staticServer(root: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' };
  const server = createServer((req, res) => {
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const name = file.endsWith('/') ? path.join(file, 'index.html') : file;
    try {
      const body = readFileSync(name);
      res.writeHead(200, { 'Content-Type': types[path.extname(name)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const events = (page: Page) => page.locator('#events li').allInnerTexts();

if (reason) {
  describe('sdk: the local loop', () => {
    it.skip(reason, () => undefined);
  });
} else {
  describe('sdk: the local loop', { timeout: 90_000 }, () => {
    let browser: Browser;
    let vite: { close(): Promise<void> } | undefined;
    let viteUrl: string;
    let plain: Server | undefined;
    let plainUrl: string;
    const problems: string[] = [];

    beforeAll(async () => {
      const files = guideFiles();
      const viteRoot = await project({
        'index.html': files['index.html']!,
        'main.js': files['main.js']!,
        'game.json': files['game.json']!,
      });
      const { createServer: createVite } = await import('vite');
      const server = await createVite({
        root: viteRoot,
        configFile: false,
        logLevel: 'silent',
        server: { host: '127.0.0.1', port: 0 },
      });
      await server.listen();
      vite = server;
      viteUrl = server.resolvedUrls!.local[0]!;

      const scriptRoot = await project({
        'index.html': files['script/index.html']!,
        'game.json': files['game.json']!,
      });
      // The guide's step: the package's script-tag build copied to sdk/v1.js.
      mkdirSync(path.join(scriptRoot, 'sdk'));
      cpSync(path.join(scriptRoot, 'node_modules/@gameplatform/sdk/dist/v1.js'), path.join(scriptRoot, 'sdk/v1.js'));
      plain = await staticServer(scriptRoot);
      plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await vite?.close();
      plain?.close();
    });

    async function open(url: string): Promise<Page> {
      const context = await browser.newContext();
      // The page's clock moves only when the test moves it: the simulated heartbeats come when asked for.
      await context.clock.install();
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      return page;
    }

    it("runs the guide's Vite example as game.json says: its slug, slots and board order, saves kept in the page", async () => {
      const page = await open(viteUrl);
      await until(() => text(page.locator('#game'))).toBe(
        'Local Loop (local-loop): 3 save slots, best is asc, local mode',
      );
      const saved = await page.evaluate(`JSON.parse(localStorage.getItem('gameplatform.local:/')).saves`);
      expect(Object.keys(saved as object)).toEqual(['2']);
      expect(await page.locator('gameplatform-simulation').count()).toBe(0);
      await page.context().close();
    });

    it('plays entitlement, pause and limit on the clock with ?gp_simulate', async () => {
      const page = await open(`${viteUrl}?gp_simulate=entitlement,pause,limit`);
      await until(() => text(page.locator('#game'))).toContain('local mode');
      await page.clock.runFor(5_000);
      await until(() => events(page)).toEqual(['pause: replaced', 'entitlement: 25 s left']);
      await page.clock.runFor(20_000);
      await until(() => events(page)).toEqual([
        'pause: replaced',
        'entitlement: 25 s left',
        'entitlement: 20 s left',
        'entitlement: 15 s left',
        'entitlement: 10 s left',
        'entitlement: 5 s left',
        'pause: limit',
        'limit: the platform removes the game now',
      ]);
      expect(await page.locator('gameplatform-simulation').getAttribute('data-state')).toBe(
        'limit: on the platform the game is removed now',
      );
      await page.context().close();
    });

    it("fires each event from the panel: pause, then resume when 'another tab' lets go", async () => {
      const page = await open(`${viteUrl}?gp_simulate`);
      await until(() => text(page.locator('#game'))).toContain('local mode');
      const panel = page.locator('gameplatform-simulation');
      await panel.getByRole('button', { name: 'pause' }).click();
      await panel.getByRole('button', { name: 'resume' }).click();
      await until(() => events(page)).toEqual(['pause: replaced', 'resume: replaced']);
      await expect(panel.getByRole('status').innerText()).resolves.toBe('resumed');
      // No clock runs without a flag: nothing else came.
      await page.clock.runFor(60_000);
      expect(await events(page)).toEqual(['pause: replaced', 'resume: replaced']);
      await page.context().close();
    });

    it("runs the script-tag example on a plain static server, with the package's sdk/v1.js", async () => {
      const page = await open(`${plainUrl}?gp_simulate=limit`);
      await until(() => text(page.locator('#game'))).toBe('Local Loop: 3 save slots');
      await page.clock.runFor(30_000);
      await until(() => page.locator('body').getAttribute('data-limit')).toBe('seen');
      await page.context().close();
    });

    it('saw no script error', () => {
      expect(problems).toEqual([]);
    });
  });
}
