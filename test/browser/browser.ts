// The browser tests' rig: the real app listening on a random port (public_url = that origin), the demo games published,
// and Debian's Chromium driven by playwright-core with a fresh profile. Never a browser download.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { publishDemoGamesIfEmpty } from '../../src/modules/portal/demo-games.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { testConfig } from '../helpers/harness.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '../../test-artifacts');

/** Why the browser tests do not run here, or null when they do. */
export function skipReason(): string | null {
  if (!enabledDialects().includes('sqlite')) return `browser tests run once, on the SQLite pass: skipped because TEST_DIALECTS=${process.env.TEST_DIALECTS}`;
  if (!existsSync(CHROMIUM_PATH)) return `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  return null;
}

/** Settings of the browser run: a small free allowance and a fast heartbeat, so the limit is reached within seconds. */
export const BROWSER_SETTINGS = {
  free_seconds_per_day: 12,
  heartbeat_interval: 5,
  rate_limits: { login: { max: 1000 }, register: { max: 1000 }, forgot_password: { max: 1000 }, default: { max: 100000 } },
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Rig {
  app: App;
  origin: string;
  context: BrowserContext;
  /** console errors and CSP violations seen on any page */
  problems: string[];
  newPage(): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startRig(options: { beforeReady?: (app: App) => void } = {}): Promise<Rig> {
  const testDb: TestDatabase = await createTestDatabase('sqlite');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = testConfig(testDb.dataDir, testDb.url, { settings: { ...BROWSER_SETTINGS, public_url: origin, host: '127.0.0.1', port } });
  const database: DatabaseHandle = openDatabase(config.database_url);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  options.beforeReady?.(app);
  await app.ready();
  await publishDemoGamesIfEmpty(app.ctx);
  await app.listen({ port, host: '127.0.0.1' });

  const profile = mkdtempSync(path.join(tmpdir(), 'gp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
    baseURL: origin,
  });
  context.setDefaultTimeout(15_000);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const problems: string[] = [];

  return {
    app,
    origin,
    context,
    problems,
    async newPage() {
      const page = await context.newPage();
      page.on('console', (message) => {
        // An API answering 401/404 is logged by the browser as a failed load: that is the portal working, not a fault.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
      return page;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close().catch(() => undefined);
      await app.close();
      await database.destroy();
      await testDb.drop();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits (bounded) for what the DOM says: vitest's expect.poll over a locator read, never a fixed sleep. */
export function until<T>(read: () => Promise<T> | T, timeout = 15_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

export const text = (locator: Locator) => locator.innerText().then((t) => t.trim());
export const isFocused = (locator: Locator) => locator.evaluate((el) => el === el.ownerDocument.activeElement);
export const visible = (locator: Locator, timeout?: number) => locator.waitFor({ state: 'visible', timeout });

/** Form controls on the page with no accessible label (a <label>, aria-label or aria-labelledby): should be none. */
export function unlabelledControls(page: Page): Promise<string[]> {
  // A string runs in the page (this project's Node types have no DOM).
  return page.evaluate(`Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
    .filter((el) => !el.labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.outerHTML.slice(0, 120))`) as Promise<string[]>;
}
