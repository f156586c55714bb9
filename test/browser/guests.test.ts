// Instant play in Debian's Chromium, on a phone (390 px) and a desktop (1366 px): a visitor presses Play and plays as a
// guest; the quiet bar invites an account; registering from the play view keeps today's time, a Tile Merge save and a
// Reflex score; logging in merges the guest without overwriting a save; the limit screen offers an account and says
// Unlimited is not sold here; a premium game says "Unlimited only" before the click; past the per-address cap, Play
// asks for a login.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { dayWindow } from '../../src/time.js';
import { browserSuite, dealtBoard, nextAnswer, text, until, visible, type Rig } from './browser.js';

const SIZES: Record<string, BrowserContextOptions> = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1366, height: 768 } },
};

/** A fresh browser (no cookie, no account) at this size, whose clocks move with rig.elapse. */
const visitor = (rig: Rig, size: BrowserContextOptions) => rig.clockedPage(size);

/** What the page itself gets from the API with its cookie, as the portal asks. */
async function fromPage(page: Page, path: string): Promise<{ status: number; body: any }> {
  return page.evaluate(
    `fetch(${JSON.stringify(path)}, { headers: { 'X-Requested-With': 'ServiceSDK' } }).then(async (r) => ({ status: r.status, body: await r.json() }))`,
  ) as Promise<{ status: number; body: any }>;
}

/** The player the page's cookie stands for (GET /v1/me from the page). */
const whoAmI = async (page: Page) => (await fromPage(page, '/v1/me')).body.data.player;

const boxOf = (page: Page, selector: string) =>
  page.evaluate(
    `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; })()`,
  ) as Promise<{ top: number; bottom: number; left: number; right: number }>;

/** Plays three rounds of Reflex (240, 310, 290 ms): their mean, 280 ms, is submitted; the page shows the rows. */
async function playReflex(rig: Rig, page: Page): Promise<void> {
  const frame = page.frameLocator('iframe.game-frame');
  const pad = frame.locator('#pad');
  await until(() => pad.getAttribute('data-state')).toBe('idle');
  await pad.click();
  for (const ms of [240, 310, 290]) {
    await until(() => pad.getAttribute('data-state')).toBe('wait');
    await rig.elapse(page, 3, { jump: true });
    await until(() => pad.getAttribute('data-state')).toBe('go');
    await rig.elapse(page, ms / 1000);
    await pad.click();
  }
  await until(() => pad.getAttribute('data-state')).toBe('done');
  await until(() => text(frame.locator('#status'))).toContain('Rank #');
}

/** Moves Tile Merge's board and saves it to `slot` (1-based, as the game says); returns the board saved. */
async function saveTileMerge(page: Page, slot: number): Promise<string> {
  const frame = page.frameLocator('iframe.game-frame');
  const grid = frame.locator('#grid');
  await until(() => frame.locator('#slots li').count()).toBe(3);
  const start = await dealtBoard(grid);
  for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft']) {
    await grid.press(key);
    if ((await grid.getAttribute('data-board')) !== start) break;
  }
  const board = (await grid.getAttribute('data-board'))!;
  await frame.getByRole('button', { name: `Save to slot ${slot}`, exact: true }).click();
  await until(() => text(frame.locator('#status'))).toMatch(
    new RegExp(`^Saved to slot ${slot} \\(version \\d+\\)\\.$`),
  );
  return board;
}

browserSuite(
  'guests: play without an account, in a real browser',
  { timeout: 120_000, rig: { settings: { free_seconds_per_day: 600 } } },
  (rig) => {
    let n = 0;
    const unique = () => `${Date.now().toString(36)}g${++n}`;

    for (const [size, options] of Object.entries(SIZES)) {
      it(`lets a visitor play Reflex at once, in its frame on the game's origin, and counts the time (${size})`, async () => {
        const page = await visitor(rig, options);
        const started = nextAnswer(page, '/v1/play/start');
        const guest = nextAnswer(page, '/v1/auth/guest');
        await page.goto('/play/reflex');
        expect((await guest).status()).toBe(201);
        expect((await started).status()).toBe(200);
        const frame = page.locator('iframe.game-frame');
        await visible(page.frameLocator('iframe.game-frame').locator('#pad'));
        const src = new URL((await frame.getAttribute('src'))!);
        expect(src.origin).not.toBe(rig.origin);
        expect(src.hostname).toMatch(/^reflex\.games\.localhost$/);
        expect((await fromPage(page, '/v1/me/entitlement')).status).toBe(200);
        expect(await whoAmI(page)).toMatchObject({ guest: true, email: null });

        // The quiet bar: above the game, never over it.
        const bar = page.locator('.guest-bar');
        await until(() => text(bar)).toContain('Create a free account to keep your progress on every device');
        expect(await page.locator('[role="dialog"], [role="alertdialog"], dialog[open]').count()).toBe(0);
        const [barBox, frameBox] = [await boxOf(page, '.guest-bar'), await boxOf(page, 'iframe.game-frame')];
        expect(barBox.bottom).toBeLessThanOrEqual(frameBox.top);
        expect(barBox.bottom - barBox.top).toBeLessThanOrEqual(48); // two short lines on a phone, one on a desktop
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          options.viewport!.width,
        );
        await rig.screenshot(page, `guest-play-reflex-${size}`);

        // The daily counter moves: 10 minutes a day here, 5 s heartbeats.
        await until(() => text(page.locator('.time-left'))).toBe('10:00');
        const beat = nextAnswer(page, '/v1/play/heartbeat');
        await rig.elapse(page, 5);
        expect((await (await beat).json()).data.entitlement.used_seconds).toBe(5);
        await until(() => text(page.locator('.time-left'))).toBe('9:55');
        expect((await fromPage(page, '/v1/me/entitlement')).body.data.used_seconds).toBe(5);

        // "Not now" hides the bar for the visit; the header, on the other pages, says who plays and how to keep it.
        await page.getByRole('button', { name: 'Not now' }).click();
        await until(() => bar.count()).toBe(0);
        await page.goto('/games/reflex');
        const nav = page.locator('#account-nav');
        await visible(nav.getByRole('link', { name: 'Create account' }));
        await visible(nav.getByRole('link', { name: 'Log in' }));
        expect(await text(nav)).not.toContain('Log out');
        await page.context().close();
      });

      it(`keeps today's time, a Tile Merge save and a Reflex score when the guest registers from the play view (${size})`, async () => {
        const page = await visitor(rig, options);
        await page.goto('/play/reflex');
        await playReflex(rig, page);
        const guest = await whoAmI(page);
        await page.goto('/play/tile-merge');
        const board = await saveTileMerge(page, 2);
        await rig.elapse(page, 5);
        const usedBefore = (await fromPage(page, '/v1/me/entitlement')).body.data.used_seconds as number;
        expect(usedBefore).toBeGreaterThan(0);

        // Home: "Continue playing" holds the guest's games.
        await page.goto('/');
        await until(() => text(page.locator('.shelf').first())).toContain('Continue playing');
        await until(() => text(page.locator('.shelf').first())).toContain('Tile Merge');

        await page.goto('/play/tile-merge');
        await page.locator('.guest-bar').getByRole('link', { name: 'Create a free account' }).click();
        await page.waitForURL(/\/register\?next=%2Fplay%2Ftile-merge$/);
        await until(() => text(page.locator('.guest-note'))).toContain('Your new account keeps everything');
        const id = unique();
        await page.getByLabel('Display name').fill(`Kept ${id}`);
        await page.getByLabel('Email').fill(`kept${id}@example.com`);
        await page.getByLabel('Password').fill('a long enough password');
        await rig.screenshot(page, `guest-register-${size}`);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL(/\/play\/tile-merge$/);

        const account = await whoAmI(page);
        expect(account).toMatchObject({ id: guest.id, guest: false, display_name: `Kept ${id}` });
        await until(() => page.locator('.guest-bar').count()).toBe(0);
        const frame = page.frameLocator('iframe.game-frame');
        await until(() => text(frame.locator('li[data-slot="1"]'))).toContain('(v1)');
        await frame.getByRole('button', { name: 'Load slot 2', exact: true }).click();
        await until(() => frame.locator('#grid').getAttribute('data-board')).toBe(board);
        expect((await fromPage(page, '/v1/me/entitlement')).body.data.used_seconds).toBeGreaterThanOrEqual(usedBefore);

        await page.goto('/games/reflex');
        const mine = page.locator('.leaderboard tbody tr.me');
        await until(() => text(mine)).toContain(`Kept ${id}`);
        await until(() => text(mine)).toContain('280 ms');
        await page.context().close();
      });

      it(`merges the guest into an existing account at login, never over a save of the account (${size})`, async () => {
        // The account, made elsewhere, with a Tile Merge game in slot 1.
        const id = unique();
        const made = await rig.app.inject({
          method: 'POST',
          url: '/v1/auth/register',
          payload: { email: `owner${id}@example.com`, password: 'a long enough password', display_name: `Owner ${id}` },
        });
        const { token, player } = made.json().data;
        const accountState = {
          format: 1,
          cells: [2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
          score: 8,
          moves: 3,
          over: false,
        };
        const saved = await rig.app.inject({
          method: 'PUT',
          url: '/v1/games/tile-merge/states/0',
          headers: { authorization: `Bearer ${token}` },
          payload: { state: accountState, label: 'the account’s game' },
        });
        expect(saved.statusCode).toBe(201);

        // The guest plays Tile Merge and saves to slots 1 and 2.
        const page = await visitor(rig, options);
        await page.goto('/play/tile-merge');
        await saveTileMerge(page, 1);
        const second = await saveTileMerge(page, 2);

        await page.locator('.guest-bar').getByRole('link', { name: 'Log in' }).click();
        await page.waitForURL(/\/login\?next=%2Fplay%2Ftile-merge$/);
        await until(() => text(page.locator('.guest-note'))).toContain(
          'A slot your account already uses keeps its save',
        );
        await page.getByLabel('Email or username').fill(player.username);
        await page.getByLabel('Password').fill('a long enough password');
        await page.getByRole('button', { name: 'Log in' }).click();
        const status = page.getByRole('status');
        await until(() => text(status)).toContain('Your guest progress is now in your account: 1 save');
        await until(() => text(status)).toContain('1 guest save was left out: your account already used that slot');
        await rig.screenshot(page, `guest-merged-${size}`);
        await page.getByRole('link', { name: 'Continue' }).click();
        await page.waitForURL(/\/play\/tile-merge$/);

        expect(await whoAmI(page)).toMatchObject({ id: player.id, guest: false });
        const slot1 = await fromPage(page, '/v1/games/tile-merge/states/0');
        expect(slot1.body.data.state).toMatchObject({ state: accountState, version: 1, label: 'the account’s game' });
        const frame = page.frameLocator('iframe.game-frame');
        await frame.getByRole('button', { name: 'Load slot 2', exact: true }).click();
        await until(() => frame.locator('#grid').getAttribute('data-board')).toBe(second);
        await page.context().close();
      });
    }

    it('offers a guest at the limit an account, and says plainly that Unlimited is not sold here and when time comes back', async () => {
      const page = await visitor(rig, SIZES.desktop!);
      await page.goto('/play/reflex');
      await visible(page.frameLocator('iframe.game-frame').locator('#pad'));
      const guest = await whoAmI(page);
      const day = dayWindow(rig.clock.now(), rig.app.ctx.config.reset_timezone).day;
      await rig.app.ctx.db
        .updateTable('daily_usage')
        .set({ seconds: 600 })
        .where('player_id', '=', guest.id)
        .where('day', '=', day)
        .execute();
      await page.goto('/play/tile-merge');
      const limit = page.locator('[data-screen="limit"]');
      await visible(limit);
      await until(() => text(limit)).toMatch(
        /Unlimited is not sold on this site\. As a free player, come back when your free time resets in \d+ (h \d+ )?min/,
      );
      await visible(limit.getByRole('link', { name: 'Create a free account' }));
      await visible(limit.getByRole('link', { name: 'Log in' }));
      expect(await limit.getByRole('link', { name: 'Get Unlimited' }).count()).toBe(0);
      await rig.screenshot(page, 'guest-limit-screen');
      await page.context().close();
    });

    it('marks a premium game "Unlimited only" on its card and page before any click, for a visitor', async () => {
      const context = await rig.watchedContext(SIZES.phone!);
      const page = await context.newPage();
      await page.goto('/');
      const card = page.locator('.card', { hasText: 'Comet Snake' });
      await until(() => text(card)).toContain('Unlimited only');
      await page.goto('/games/comet-snake');
      const note = page.locator('[data-upsell="premium"]');
      await until(() => text(note)).toContain('Unlimited only.');
      await until(() => text(note)).toContain('Unlimited is not sold on this site.');
      expect(await page.getByRole('link', { name: 'Play', exact: true }).count()).toBe(0);
      // Nobody was made a guest by looking.
      expect((await context.cookies()).some((c) => c.name === 'gp_session')).toBe(false);
      await rig.screenshot(page, 'premium-game-visitor');
      await context.close();
    });

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);

browserSuite(
  'guests: past the cap of new guests per address',
  { timeout: 90_000, rig: { settings: { 'guests.per_ip_per_day': 1 } } },
  (rig) => {
    it('asks the next visitor from the same address to log in, and plays once it has', async () => {
      const first = await (await rig.watchedContext(SIZES.desktop!)).newPage();
      await first.goto('/play/reflex');
      await visible(first.frameLocator('iframe.game-frame').locator('#pad'));

      const page = await (await rig.watchedContext(SIZES.phone!)).newPage();
      const refused = nextAnswer(page, '/v1/auth/guest');
      await page.goto('/play/reflex');
      expect((await refused).status()).toBe(429);
      const screen = page.locator('[data-screen="login"]');
      await visible(screen);
      await until(() => text(screen.getByRole('heading', { level: 1 }))).toBe('Log in to play Reflex');
      expect(await page.locator('iframe').count()).toBe(0);
      await rig.screenshot(page, 'guest-cap-login');

      const made = await rig.app.inject({
        method: 'POST',
        url: '/v1/auth/register',
        payload: { email: 'capped@example.com', password: 'a long enough password', display_name: 'Capped' },
      });
      await screen.getByRole('link', { name: 'Log in' }).click();
      await page.getByLabel('Email or username').fill(made.json().data.player.username);
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/play\/reflex$/);
      await visible(page.frameLocator('iframe.game-frame').locator('#pad'));
      await page.context().close();
      await first.context().close();
    });

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);
