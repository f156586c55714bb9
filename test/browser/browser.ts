// The browser tests' rig: the real app listening on a random port (public_url = that origin) on a manual clock, the demo
// games published, and Debian's Chromium driven by playwright-core with fresh contexts. Never a browser download.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type Request,
  type Response,
} from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { publishDemoGamesIfEmpty } from '../../src/modules/portal/demo-games.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { testConfig } from '../helpers/harness.js';
import { freePort } from '../helpers/ports.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '../../test-artifacts');

/** Why the browser tests do not run here, or null when they do. */
export function skipReason(): string | null {
  if (!enabledDialects().includes('sqlite'))
    return `browser tests run once, on the SQLite pass: skipped because TEST_DIALECTS=${process.env.TEST_DIALECTS}`;
  if (!existsSync(CHROMIUM_PATH))
    return `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  return null;
}

/**
 * A describe block whose tests share one rig, started before them and closed after; skipped, with the reason, where
 * browser tests do not run. `rig` is filled in before the first test (its methods are the started rig's).
 */
export function browserSuite(
  name: string,
  options: { timeout: number; rig?: RigOptions },
  body: (rig: Rig) => void,
): void {
  const reason = skipReason();
  if (reason) {
    console.warn(`\n[browser] ${reason}\n`);
    describe(name, () => {
      it.skip(reason, () => undefined);
    });
    return;
  }
  describe(name, { timeout: options.timeout }, () => {
    const rig = {} as Rig;
    beforeAll(async () => {
      Object.assign(rig, await startRig(options.rig));
    }, 60_000);
    afterAll(async () => {
      await rig.close?.();
    });
    body(rig);
  });
}

/** Settings of the browser run: a small free allowance and a fast heartbeat, so the limit is reached within seconds. */
export const BROWSER_SETTINGS = {
  free_seconds_per_day: 12,
  heartbeat_interval: 5,
  rate_limits: {
    login: { max: 1000 },
    register: { max: 1000 },
    forgot_password: { max: 1000 },
    default: { max: 100000 },
  },
};

export interface Rig {
  app: App;
  /** the server's clock: it stands still unless a test moves it (see `elapse`) */
  clock: ManualClock;
  origin: string;
  /** the context most tests share, on the browser's own clock */
  context: BrowserContext;
  /** console errors and CSP violations seen on any page */
  problems: string[];
  newPage(): Promise<Page>;
  /** A page in a context of its own (a phone's viewport…) whose timers, Date and performance.now move only with `elapse`. */
  clockedPage(options?: BrowserContextOptions): Promise<Page>;
  /** A context of its own (a phone's viewport, touch…) whose pages are watched for problems like the others. */
  watchedContext(options: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * Moves the server's clock and the page's by the same seconds. The page's timers that fall due run at their own
   * moments, the two clocks moving together a second at a time, each second's requests answered before the next: a
   * heartbeat sent at the page's second 5 reaches the server at its second 5. With `jump`, the server's clock moves at
   * once and the page's timers run once at the end, seeing the clock already moved.
   */
  elapse(page: Page, seconds: number, options?: { jump?: boolean }): Promise<void>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export interface RigOptions {
  beforeReady?: (app: App) => void;
  /**
   * The portal's host name (default 127.0.0.1, whose games are on the cross-site *.games.localhost). A `*.localhost`
   * name reaches this machine in Chromium only: Node's DNS does not resolve it, so `page.request` cannot be used then.
   */
  host?: string;
  /** settings over the browser defaults ({port} in a value is the listening port) */
  settings?: Record<string, unknown>;
}

/** Debian's Chromium, headless; launch() gives every context a fresh temporary profile, removed when it closes. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const testDb: TestDatabase = await createTestDatabase('sqlite');
  const port = await freePort();
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const extra = Object.fromEntries(
    Object.entries(options.settings ?? {}).map(([k, v]) => [
      k,
      typeof v === 'string' ? v.replace('{port}', String(port)) : v,
    ]),
  );
  const config = testConfig(testDb.dataDir, testDb.url, {
    settings: { ...BROWSER_SETTINGS, public_url: origin, host: '127.0.0.1', port, ...extra },
  });
  const database: DatabaseHandle = openDatabase(config.database_url);
  await migrateToLatest(database.db);
  const clock = new ManualClock(Date.now());
  const app = await buildApp({ config, database, clock });
  options.beforeReady?.(app);
  await app.ready();
  await publishDemoGamesIfEmpty(app.ctx);
  await app.listen({ port, host: '127.0.0.1' });

  const browser = await launchChromium();
  const newContext = async (options: BrowserContextOptions = {}) => {
    const created = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options, baseURL: origin });
    created.setDefaultTimeout(15_000);
    return created;
  };
  const context = await newContext();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      // An API answering 401/404 is logged by the browser as a failed load: that is the portal working, not a fault.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    return page;
  };

  return {
    app,
    clock,
    origin,
    context,
    problems,
    async newPage() {
      return watch(await context.newPage());
    },
    async clockedPage(options) {
      const own = await newContext(options);
      // The page's clock starts where the server's stands, so dates on the page agree with the API's.
      await own.clock.install({ time: clock.now() });
      await own.clock.pauseAt(clock.now()); // and no time flows on its own
      inFlight.set(own, trackRequests(own));
      return watch(await own.newPage());
    },
    async elapse(page, seconds, { jump = false } = {}) {
      if (jump) {
        clock.advance(seconds);
        await page.clock.fastForward(seconds * 1000);
        return;
      }
      // Moving the server's clock by all the seconds first would let a heartbeat the page sends halfway reach a server
      // already at the end, which credits it the whole span: the page then counts down from a time ahead of its own.
      const pending = inFlight.get(page.context());
      if (!pending)
        throw new Error('elapse() moves the clock of a page from clockedPage(), or of another page in its context');
      for (let leftMs = Math.round(seconds * 1000); leftMs > 0; ) {
        const stepMs = Math.min(1000, leftMs);
        leftMs -= stepMs;
        clock.advance(stepMs / 1000);
        await page.clock.runFor(stepMs);
        await answered(page, pending);
      }
    },
    async watchedContext(options) {
      const own = await newContext(options);
      own.on('page', watch);
      return own;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close().catch(() => undefined);
      await app.close();
      await database.destroy();
      await testDb.drop();
    },
  };
}

/** a clocked context's requests not yet answered in full: its pages share the clock that `elapse` moves */
const inFlight = new WeakMap<BrowserContext, Set<Request>>();

/** The context's requests (of all its pages and frames) not yet answered in full. */
function trackRequests(context: BrowserContext): Set<Request> {
  const pending = new Set<Request>();
  context.on('request', (request) => pending.add(request));
  context.on('requestfinished', (request) => pending.delete(request));
  context.on('requestfailed', (request) => pending.delete(request));
  return pending;
}

/** Waits until every request the context has sent is answered (a round trip first, so that events already sent are in). */
async function answered(page: Page, pending: Set<Request>, timeoutMs = 15_000): Promise<void> {
  await page.evaluate('0');
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0) {
    if (Date.now() > deadline)
      throw new Error(
        `requests still unanswered after ${timeoutMs} ms: ${[...pending].map((r) => `${r.method()} ${r.url()}`).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let registered = 0;

/** A new player with a portal session in the page's context (registered through the API the way the portal does it). */
export async function registerPlayer(rig: Rig, page: Page, options: { unlimited?: boolean } = {}) {
  await page.context().clearCookies();
  const id = `${Date.now().toString(36)}r${++registered}`;
  const player = {
    email: `p${id}@example.com`,
    password: 'correct horse battery',
    display_name: `Player ${id}`,
    username: `p_${id}`,
  };
  const res = await page.request.post('/v1/auth/register', {
    headers: { 'X-Requested-With': 'ServiceSDK' },
    data: player,
  });
  expect(res.status()).toBe(201);
  const { id: playerId } = (await res.json()).data.player as { id: number };
  if (options.unlimited) {
    await rig.app.ctx.db
      .updateTable('players')
      .set({ membership_plan: 'unlimited', membership_status: 'active' })
      .where('id', '=', playerId)
      .execute();
  }
  return { ...player, id: playerId };
}

/** The next answer to a POST on this API path, e.g. `/v1/play/heartbeat`; start waiting before the action that causes it. */
export function nextAnswer(page: Page, apiPath: string): Promise<Response> {
  return page.waitForResponse(
    (response) => response.request().method() !== 'GET' && new URL(response.url()).pathname === apiPath,
  );
}

/** Lets `seconds` pass on both clocks and returns the body of the heartbeat that fell due in them. */
export async function beatAfter(rig: Rig, page: Page, seconds: number) {
  const beat = nextAnswer(page, '/v1/play/heartbeat');
  await rig.elapse(page, seconds);
  return (await beat).json();
}

/** Makes the page report itself hidden or visible, as switching tabs would, and fires `visibilitychange`. */
export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  // A string runs in the page (this project's Node types have no DOM). Headless Chromium keeps every tab visible,
  // so the document's own properties are overridden; the shell reads nothing else.
  await page.evaluate(`(() => {
    const hidden = ${hidden};
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);
}

/** Waits (bounded) for what the DOM says: vitest's expect.poll over a locator read, never a fixed sleep. */
export function until<T>(read: () => Promise<T> | T, timeout = 15_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

export const text = (locator: Locator) => locator.innerText().then((t) => t.trim());

/** Tile Merge's board (its #grid's data-board) once the game has dealt it: the attribute is empty until then. */
export async function dealtBoard(grid: Locator): Promise<string> {
  await until(() => grid.getAttribute('data-board')).not.toBe('');
  return (await grid.getAttribute('data-board'))!;
}
export const isFocused = (locator: Locator) => locator.evaluate((el) => el === el.ownerDocument.activeElement);
export const visible = (locator: Locator, timeout?: number) => locator.waitFor({ state: 'visible', timeout });

/** Form controls on the page with no accessible label (a <label>, aria-label or aria-labelledby): should be none. */
export function unlabelledControls(page: Page): Promise<string[]> {
  // A string runs in the page (this project's Node types have no DOM).
  return page.evaluate(`Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
    .filter((el) => !el.labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
    .map((el) => el.outerHTML.slice(0, 120))`) as Promise<string[]>;
}
