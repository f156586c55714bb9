// What players read and touch, in a real browser: the game page's details in their words, the leaderboard's period
// switch on one row of a phone, the playtime chart's dates, the countdown's spoken time, the welcome after
// registering, and the account page's navigation, avatar and deletion buttons.
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { beatAfter, browserSuite, registerPlayer, text, until, visible } from './browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A box of an element on the page. */
interface Box {
  top: number;
  left: number;
  right: number;
  bottom: number;
  height: number;
}

browserSuite('player words: in a real browser', { timeout: 60_000 }, (rig) => {
  let phone: BrowserContext;

  beforeAll(async () => {
    phone = await rig.watchedContext(PHONE);
  }, 60_000);

  /** The boxes of the elements matching `selector` (a string runs in the page: the Node types have no DOM). */
  const boxes = (page: Page, selector: string) =>
    page.evaluate(`Array.from(document.querySelectorAll(${JSON.stringify(selector)})).map((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, left: r.left, right: r.right, bottom: r.bottom, height: r.height };
    })`) as Promise<Box[]>;

  /** The element is scrolled to: at the top of the window, or in it with the page scrolled to its end. */
  const reached = (page: Page, id: string) =>
    page.evaluate(`(() => {
      const top = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect().top;
      const end = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1;
      return Math.abs(top) <= 10 || (end && top >= 0 && top < window.innerHeight);
    })()`) as Promise<boolean>;

  const details = async (page: Page) =>
    Object.fromEntries(
      await page
        .locator('.details dt')
        .evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    ) as Record<string, string>;

  it("tells a game's screen and saves in a player's words, and does not name the only board", async () => {
    const page = await rig.newPage();
    await page.goto('/games/star-catcher');
    await visible(page.getByRole('heading', { name: 'Details' }));
    expect(await details(page)).toMatchObject({ Screen: 'Best held sideways (landscape)', Saves: 'No saves' });
    expect(await text(page.locator('.details'))).not.toMatch(/Orientation|Save slots/);
    expect(await text(page.locator('.description'))).not.toMatch(/Phaser|loader|origin/);
    await visible(page.getByText('No scores yet.'));
    expect(await page.locator('.board-form').isVisible()).toBe(false);
    expect(await text(page.locator('.leaderboard'))).not.toContain('main');

    await page.goto('/games/tile-merge');
    await visible(page.getByRole('heading', { name: 'Details' }));
    expect(await details(page)).toMatchObject({ Screen: 'Plays in any orientation', Saves: '3 save slots' });
    await page.close();
  });

  it("keeps the leaderboard's period switch on one row at 390 px", async () => {
    const page = await phone.newPage();
    await page.goto('/games/reflex');
    await visible(page.getByLabel('This month'));
    const labels = await boxes(page, '.leaderboard .segmented label');
    expect(labels).toHaveLength(4);
    expect(new Set(labels.map((l) => Math.round(l.top))).size).toBe(1);
    const [panel] = await boxes(page, '.leaderboard');
    expect(Math.max(...labels.map((l) => l.right))).toBeLessThanOrEqual(panel!.right);
    const [group] = await boxes(page, '.leaderboard .segmented');
    expect(group!.height).toBeLessThanOrEqual(80); // the legend and one row of 40px choices
    const widths = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(widths.scroll).toBe(widths.client);
    await rig.screenshot(page, 'leaderboard-period-phone');
    await page.close();
  });

  it("dates the playtime chart as the site does, its labels apart at 390 px, and today's figures to the second", async () => {
    const page = await phone.newPage();
    await registerPlayer(rig, page);
    for (const days of [7, 14, 30, 90]) {
      await page.goto(`/playtime?days=${days}`);
      await until(() => page.locator('svg.bars rect.bar').count()).toBe(days);
      // The day labels: the axis texts other than the minutes ("15m") up the side, left to right.
      const placed = (await page.evaluate(`Array.from(document.querySelectorAll('svg.bars text.axis'))
        .filter((el) => !/m$/.test(el.textContent))
        .map((el) => ({ word: el.textContent, left: el.getBoundingClientRect().left, right: el.getBoundingClientRect().right }))
        .sort((a, b) => a.left - b.left)`)) as Array<{ word: string; left: number; right: number }>;
      expect(placed.length, `${days} days`).toBeGreaterThanOrEqual(Math.min(days, 3));
      for (let i = 1; i < placed.length; i++)
        expect(placed[i]!.left, `${days} days: ${placed[i]!.word}`).toBeGreaterThan(placed[i - 1]!.right);
      if (days === 30) await rig.screenshot(page, 'playtime-phone');
      for (const { word } of placed) expect(word).toMatch(/^\d{1,2} [A-Z][a-z]{2,3}$/);
      const [chart] = await boxes(page, 'svg.bars');
      expect(placed.at(-1)!.right).toBeLessThanOrEqual(chart!.right);
    }
    await page.locator('summary', { hasText: 'Show the numbers' }).click();
    expect(await text(page.locator('.chart-table tbody td').first())).toMatch(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
    const stat = (label: string) => text(page.locator('.stat').filter({ hasText: label }).locator('.stat-value'));
    expect([await stat('Played today'), await stat('Left today'), await stat('Daily allowance')]).toEqual([
      '0 s',
      '12 s',
      '12 s',
    ]);
    await page.close();
  });

  it('says the same time to screen readers as the countdown shows', async () => {
    const page = await rig.clockedPage();
    await registerPlayer(rig, page);
    await page.goto('/play/tile-merge');
    await until(() => text(page.locator('.time-left'))).toBe('0:12');
    expect(await page.locator('.time-box .visually-hidden:not([role])').textContent()).toBe('12 seconds');
    expect((await beatAfter(rig, page, 5)).data).toMatchObject({ entitlement: { remaining_seconds: 7 } });
    await until(() => text(page.locator('.time-left'))).toBe('0:07');
    await until(() => page.locator('.time-box .visually-hidden:not([role])').textContent()).toBe('7 seconds');
    await page.context().close();
  });

  it('welcomes a new player by name on the page after registering, once', async () => {
    const page = await rig.newPage();
    await page.context().clearCookies();
    const id = Date.now().toString(36);
    await page.goto('/register?next=%2Fplaytime');
    await page.locator('[name=display_name]').fill('Newcomer Nia');
    await page.locator('[name=email]').fill(`nia-${id}@example.com`);
    await page.locator('[name=password]').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/playtime/);
    const welcome = page.getByRole('status').filter({ hasText: 'Welcome, Newcomer Nia!' });
    await visible(welcome);
    expect(await page.locator('[role=dialog], dialog').count()).toBe(0);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Your playtime' }));
    expect(await welcome.count()).toBe(0);
    await page.close();
  });

  it('offers "Remove picture" only for an uploaded picture', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/account');
    await visible(page.getByLabel('New picture'));
    const remove = page.getByRole('button', { name: 'Remove picture' });
    expect(await remove.isVisible()).toBe(false);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#33aa55' } })
      .png()
      .toBuffer();
    await page.getByLabel('New picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    await visible(page.getByText('Avatar updated.'));
    await visible(remove);
    await page.reload();
    await visible(remove);
    await remove.click();
    await visible(page.getByText('Avatar removed: your initials are shown instead.'));
    expect(await remove.isVisible()).toBe(false);
    await page.close();
  });

  it('makes the last "Delete my account" a red button and "Keep my account" the primary one', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/account');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const look = (name: string) =>
      page
        .getByRole('button', { name, exact: true })
        .evaluate(
          new Function('el', 'const s = getComputedStyle(el); return [s.backgroundColor, s.color];') as (
            el: unknown,
          ) => [string, string],
        );
    const [accent, danger] = (await page.evaluate(`(() => {
      const s = getComputedStyle(document.documentElement);
      const probe = document.createElement('i');
      document.body.append(probe);
      const color = (v) => { probe.style.color = s.getPropertyValue(v); return getComputedStyle(probe).color; };
      const result = [color('--accent'), color('--danger')];
      probe.remove();
      return result;
    })()`)) as [string, string];
    expect((await look('Delete my account'))[0]).toBe(danger);
    expect((await look('Keep my account'))[0]).toBe(accent);
    await page.close();
  });

  it('leads to the parts of the account page (Profile, Security, Your data) on a phone and a laptop', async () => {
    for (const page of [await phone.newPage(), await rig.newPage()]) {
      await registerPlayer(rig, page);
      await page.goto('/account');
      const nav = page.getByRole('navigation', { name: 'On this page' });
      await visible(nav);
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Profile', 'Security', 'Your data']);
      await rig.screenshot(page, 'account-nav');
      for (const [name, id] of [
        ['Security', 'security'],
        ['Your data', 'your-data'],
        ['Profile', 'profile'],
      ] as const) {
        await nav.getByRole('link', { name }).click();
        await until(() => page.evaluate(`location.hash`)).toBe(`#${id}`);
        await until(() => reached(page, id)).toBe(true);
      }
      expect(await page.locator('#security').getByRole('heading', { name: 'Change password' }).count()).toBe(1);
      expect(await page.locator('#your-data').getByRole('heading', { name: 'Delete account' }).count()).toBe(1);
      // Straight to a part from elsewhere: the page goes there once its sections are drawn.
      await page.goto('/account#your-data');
      await until(() => reached(page, 'your-data')).toBe(true);
      await page.close();
    }
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});
