// No progress lost, in Debian's Chromium on a phone (390 px) and a desktop (1366 px): a player signed out from another
// browser while playing logs in over the paused game, which goes on with its board and sends the score it made
// meanwhile once; Continue on the home page resumes the slot it names; Quit lets Tile Merge keep its board.
import type { BrowserContextOptions, FrameLocator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { browserSuite, dealtBoard, nextAnswer, registerPlayer, text, until, visible, type Rig } from './browser.js';

const SIZES: Record<string, BrowserContextOptions> = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1366, height: 768 } },
};

const frameOf = (page: Page): FrameLocator => page.frameLocator('iframe.game-frame');

/** Moves Tile Merge's board until it changed `times` times and, with `scoring`, until the score is above 0. */
async function moveTileMerge(page: Page, times = 2, scoring = false): Promise<string> {
  const grid = frameOf(page).locator('#grid');
  const score = async () => Number(await frameOf(page).locator('#score').innerText());
  let board = await dealtBoard(grid);
  for (let moved = 0; moved < times || (scoring && (await score()) === 0); ) {
    if (moved > 60) throw new Error('no merge in 60 moves');
    let changed = false;
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) {
      await grid.press(key);
      const now = (await grid.getAttribute('data-board'))!;
      if (now !== board) {
        board = now;
        changed = true;
        break;
      }
    }
    if (!changed) throw new Error('no move changed the board');
    moved++;
  }
  return board;
}

/** The player's saves and scores as the API has them (an API token of the player's own, made by logging in). */
async function asPlayer(rig: Rig, login: string, password: string) {
  const res = await fetch(`${rig.origin}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  expect(res.status).toBe(200);
  const { token } = ((await res.json()) as { data: { token: string } }).data;
  const call = async (method: string, path: string): Promise<{ status: number; body: any }> => {
    const answer = await fetch(`${rig.origin}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as any };
  };
  return {
    call,
    /** Signs every browser of the player out, as "Sign out other browsers" from another device does. */
    signOutBrowsers: () => call('DELETE', '/v1/me/sessions'),
    states: async () => (await call('GET', '/v1/games/tile-merge/states')).body.data.states as any[],
    state: async (slot: number) => (await call('GET', `/v1/games/tile-merge/states/${slot}`)).body.data.state,
  };
}

/** axe on a page whose clock stands still: its timers run while it works (a tenth of a second at a time). */
async function accessibleOnClock(page: Page, where: string): Promise<void> {
  let done = false;
  const checked = expectAccessible(page, where).finally(() => {
    done = true;
  });
  while (!done) await page.clock.runFor(100);
  await checked;
}

browserSuite(
  'no lost progress: signed out, Continue and Quit, in a real browser',
  { timeout: 120_000, rig: { settings: { free_seconds_per_day: 600 } } },
  (rig) => {
    for (const [size, options] of Object.entries(SIZES)) {
      it(`covers the paused game with a login form when the player is signed out elsewhere, and goes on with the same board and the held score once (${size})`, async () => {
        const page = await rig.clockedPage(options);
        const player = await registerPlayer(rig, page);
        const elsewhere = await asPlayer(rig, player.username, player.password);
        await page.goto('/play/tile-merge');
        const frame = frameOf(page);
        await until(() => frame.locator('#slots li').count()).toBe(3);
        const board = await moveTileMerge(page, 2, true);

        // Another device signs every browser out; the game ends its round and submits its score meanwhile.
        expect((await elsewhere.signOutBrowsers()).body.data.revoked).toBe(1);
        const refused = nextAnswer(page, '/v1/games/tile-merge/scores');
        await frame.getByRole('button', { name: 'End & submit' }).click();
        expect((await refused).status()).toBe(401);

        const notice = page.locator('[data-screen="signed-out"]');
        await visible(notice);
        expect(await text(notice.getByRole('heading'))).toBe('You were signed out');
        await until(() => frame.locator('body.paused').count()).toBe(1);
        expect(await text(frame.locator('#status'))).toContain('log in again');
        // Heartbeats stop while signed out: time passes without one.
        let beats = 0;
        page.on('request', (r) => {
          if (new URL(r.url()).pathname === '/v1/play/heartbeat') beats++;
        });
        await rig.elapse(page, 15);
        expect(beats).toBe(0);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          options.viewport!.width,
        );
        await accessibleOnClock(page, `the signed-out notice (${size})`);
        await rig.screenshot(page, `signed-out-${size}`);

        // A wrong password says so and keeps the form; the right one logs in here, without leaving the page.
        await notice.getByLabel('Email or username').fill(player.username);
        await notice.getByLabel('Password').fill('not the password');
        await notice.getByRole('button', { name: 'Log in and play on' }).click();
        await until(() => text(notice)).toContain('do not match an account');
        const restarted = nextAnswer(page, '/v1/play/start');
        const resent = nextAnswer(page, '/v1/games/tile-merge/scores');
        await notice.getByLabel('Password').fill(player.password);
        await notice.getByRole('button', { name: 'Log in and play on' }).click();
        expect((await restarted).status()).toBe(200);
        expect((await resent).status()).toBe(201);
        await until(() => notice.count()).toBe(0);
        await until(() => frame.locator('body.paused').count()).toBe(0);
        await until(() => text(frame.locator('#status'))).toMatch(/points: rank #\d+, a personal best!$/);
        // The same game went on: the board is the one played before the sign-out (the game was never reloaded).
        expect(await frame.locator('#grid').getAttribute('data-board')).toBe(board);

        // The held score was submitted once, with the new session; heartbeats go on.
        const scores = await elsewhere.call('GET', '/v1/games/tile-merge/leaderboard?around=me');
        expect(scores.body.data.me.best).toBeGreaterThan(0);
        const mine = await rig.app.ctx.db
          .selectFrom('scores')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('player_id', '=', player.id)
          .executeTakeFirstOrThrow();
        expect(Number(mine.n)).toBe(1);
        const beat = nextAnswer(page, '/v1/play/heartbeat');
        await rig.elapse(page, 5);
        expect((await beat).status()).toBe(200);
        await page.context().close();
      });

      it(`resumes the slot that Continue names, and keeps the board at Quit (${size})`, async () => {
        const page = await rig.clockedPage(options);
        const player = await registerPlayer(rig, page);
        const api = await asPlayer(rig, player.username, player.password);
        await page.goto('/play/tile-merge');
        const frame = frameOf(page);
        await until(() => frame.locator('#slots li').count()).toBe(3);
        const saved = await moveTileMerge(page);
        await frame.getByRole('button', { name: 'Save to slot 2', exact: true }).click();
        await until(() => text(frame.locator('#status'))).toMatch(/^Saved to slot 2 \(version \d+\)\.$/);

        // Home: "Continue playing" names slot 2; Continue opens the game on that board, not a new one.
        await page.goto('/');
        const shelf = page.getByRole('region', { name: 'Continue playing' });
        const cont = shelf.getByRole('link', { name: 'Continue Tile Merge' });
        expect(await cont.getAttribute('href')).toBe('/play/tile-merge?continue=1');
        await cont.click();
        await until(() => text(frameOf(page).locator('#status'))).toBe('Loaded slot 2.');
        expect(await frameOf(page).locator('#grid').getAttribute('data-board')).toBe(saved);

        // Quit: the game saves its board before it goes (the shell waited for it), then the game's page.
        const board = await moveTileMerge(page, 1);
        const autosave = nextAnswer(page, '/v1/games/tile-merge/states/0');
        await page.locator('.shell-bar').getByRole('button', { name: 'Quit' }).click();
        expect((await autosave).status()).toBeLessThan(300);
        await page.waitForURL('**/games/tile-merge');
        // The session ended as a quit (the shell's keepalive call, sent as the page left).
        const reasons = () =>
          rig.app.ctx.db
            .selectFrom('play_sessions')
            .select('end_reason')
            .where('player_id', '=', player.id)
            .execute()
            .then((rows) => rows.map((r) => r.end_reason).join(','));
        await until(reasons).toMatch(/quit$/);
        const kept = await api.state(0);
        expect(kept.state.cells.join(',')).toBe(board);
        const slot0 = (await api.states()).find((s) => s.slot === 0);
        expect(slot0.label).toMatch(/^Autosave: \d+ points$/);
        await page.context().close();
      });
    }

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);
