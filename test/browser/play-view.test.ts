// The play view in Debian's Chromium: the game fills the screen below one slim bar on a desktop and a phone held
// either way, full screen keeps the time and a way out, the last free minute is urgent, and the frame follows the
// game's orientation. The demo games fit their frame without scrolling.
import { beforeAll, expect, it } from 'vitest';
import type { BrowserContextOptions, Frame, Page } from 'playwright-core';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { dayWindow } from '../../src/time.js';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

/** Three screens: a laptop, a phone upright and the same phone on its side. */
const VIEWPORTS: Record<string, BrowserContextOptions> = {
  desktop: { viewport: { width: 1366, height: 768 } },
  'phone-portrait': { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 },
  'phone-landscape': { viewport: { width: 844, height: 390 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 },
};

/** What must be in view, inside each demo game's frame, for it to be played (Star Catcher draws everything in its Phaser canvas). */
const MUST_SEE: Record<string, string[]> = {
  reflex: ['#pad', '#status', '#board li:last-child'],
  'tile-merge': [
    '#score',
    '#submit',
    '#grid',
    '.arrows [data-dir="right"]',
    '#status',
    '#slots li:last-child button:last-child',
  ],
  'comet-snake': ['#score', '#start', '#space', '.arrows [data-dir="down"]', '#status'],
  'star-catcher': ['#stage canvas'],
};

/** The slim bar's most height in CSS pixels (it was 107 px of site header and bar before). */
const BAR_MAX = 44;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

interface Layout {
  vw: number;
  vh: number;
  scrollWidth: number;
  scrollHeight: number;
  bar: Box;
  frame: Box;
}

const BOX = `const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height }; };`;

/** Where the bar and the frame are on the portal page, and whether the page scrolls. A string runs in the page. */
function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(`(() => { ${BOX}
    const root = document.documentElement;
    return { vw: innerWidth, vh: innerHeight, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight,
      bar: box(document.querySelector('.shell-bar')), frame: box(document.querySelector('iframe.game-frame')) };
  })()`) as Promise<Layout>;
}

/** Inside the game's frame: its viewport, its scroll size, and the selectors whose box is not wholly in view. */
function fitInside(frame: Frame, selectors: string[]) {
  return frame.evaluate(`(() => { ${BOX}
    const root = document.documentElement;
    const out = ${JSON.stringify(selectors)}.filter((s) => {
      const el = document.querySelector(s);
      if (!el) return true;
      const b = box(el);
      return b.height === 0 || b.top < -0.5 || b.left < -0.5 || b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5;
    });
    return { w: innerWidth, h: innerHeight, scrollWidth: Math.max(root.scrollWidth, document.body.scrollWidth), scrollHeight: Math.max(root.scrollHeight, document.body.scrollHeight), out };
  })()`) as Promise<{ w: number; h: number; scrollWidth: number; scrollHeight: number; out: string[] }>;
}

async function gameFrame(page: Page): Promise<Frame> {
  const frame = await (await page.locator('iframe.game-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('no game frame');
  return frame;
}

browserSuite(
  'play view: in a real browser',
  { timeout: 90_000, rig: { settings: { free_seconds_per_day: 100 } } },
  (rig) => {
    beforeAll(async () => {
      // 100 s a day: a free player starts with more than the urgent last minute.
      // Reflex shows this week's five fastest: five players' times, so the board is as long as it gets.
      for (const ms of [301, 302, 303, 304, 305]) {
        const { token } = await createPlayerWithToken(rig.app.ctx, { display_name: `Fast player ${ms}` });
        const res = await rig.app.inject({
          method: 'POST',
          url: '/v1/games/reflex/scores',
          headers: { authorization: `Bearer ${token}` },
          payload: { score: ms },
        });
        expect(res.statusCode).toBe(201);
      }
    }, 60_000);

    const newContext = (options: BrowserContextOptions) => rig.watchedContext(options);

    for (const [name, options] of Object.entries(VIEWPORTS)) {
      it(`fills the ${name} screen (${options.viewport!.width}×${options.viewport!.height}) below one slim bar, each demo game without scrolling`, async () => {
        const context = await newContext(options);
        const page = await context.newPage();
        await registerPlayer(rig, page, { unlimited: true });
        // Tile Merge at its longest: three saved slots, each with Save, Load and Delete.
        for (const slot of [0, 1, 2]) {
          const res = await page.request.put(`/v1/games/tile-merge/states/${slot}`, {
            headers: { 'X-Requested-With': 'ServiceSDK' },
            data: {
              state: { format: 1, cells: Array(16).fill(0), score: 0, moves: 0, over: false },
              label: `A long label for slot ${slot + 1}`,
            },
          });
          expect(res.status()).toBe(201);
        }
        for (const slug of Object.keys(MUST_SEE)) {
          // Star Catcher is landscape: an upright phone is asked to turn, its frame letterboxed (phones.test.ts).
          if (slug === 'star-catcher' && name === 'phone-portrait') continue;
          await page.goto(`/play/${slug}`);
          await visible(page.frameLocator('iframe.game-frame').locator(MUST_SEE[slug]!.at(-1)!));
          const { vw, vh, scrollWidth, scrollHeight, bar, frame } = await layoutOf(page);
          // One slim bar at the top, the frame edge to edge below it, and nothing of the page to scroll.
          expect(bar.top).toBe(0);
          expect(bar.height).toBeLessThanOrEqual(BAR_MAX);
          expect(frame).toEqual({
            top: bar.bottom,
            bottom: vh,
            left: 0,
            right: vw,
            width: vw,
            height: vh - bar.bottom,
          });
          expect(scrollHeight).toBeLessThanOrEqual(vh);
          expect(scrollWidth).toBeLessThanOrEqual(vw);
          // Inside: no scrolling, and what the game needs is in view.
          const inside = await fitInside(await gameFrame(page), MUST_SEE[slug]!);
          expect({ slug, ...inside }).toEqual({
            slug,
            w: frame.width,
            h: frame.height,
            scrollWidth: frame.width,
            scrollHeight: frame.height,
            out: [],
          });
          await rig.screenshot(page, `play-view-${slug}-${name}`);
        }
        await context.close();
      });
    }

    it('full screen takes the bar with it: the time left and Quit stay in view, and it can be left', async () => {
      const page = await rig.newPage();
      await registerPlayer(rig, page);
      await page.goto('/play/tile-merge');
      await visible(page.frameLocator('iframe.game-frame').locator('#grid'));
      await page.getByRole('button', { name: 'Full screen' }).click();
      const inFullScreen = () =>
        page.evaluate(`(() => {
        const full = document.fullscreenElement;
        if (!full) return null;
        const shown = (selector) => { const el = document.querySelector(selector); return !!el && full.contains(el) && el.getBoundingClientRect().height > 0; };
        return { shell: full.classList.contains('shell'), timeLeft: shown('.time-left'), quit: shown('.shell-bar .quit'), frame: shown('iframe.game-frame') };
      })()`);
      await until(inFullScreen).toEqual({ shell: true, timeLeft: true, quit: true, frame: true });
      await page.getByRole('button', { name: 'Exit full screen' }).click();
      await until(inFullScreen).toBe(null);
      await visible(page.getByRole('button', { name: 'Full screen' }));
      await page.close();
    });

    it('makes the last minute of free time visibly urgent', async () => {
      const page = await rig.clockedPage();
      const player = await registerPlayer(rig, page);
      const today = dayWindow(rig.clock.now(), rig.app.ctx.config.reset_timezone).day;
      await rig.app.ctx.db
        .insertInto('daily_usage')
        .values({ player_id: player.id, day: today, seconds: 25, sessions: 1 })
        .execute();
      await page.goto('/play/reflex');
      const box = page.locator('.time-box');
      await until(() => text(page.locator('.time-left'))).toBe('1:15');
      expect(await box.getAttribute('data-urgent')).toBe('false');
      const background = () => page.evaluate(`getComputedStyle(document.querySelector('.time-box')).backgroundColor`);
      const calm = await background();
      await rig.elapse(page, 10);
      await until(() => text(page.locator('.time-left'))).toBe('1:05');
      expect(await box.getAttribute('data-urgent')).toBe('false');
      await rig.elapse(page, 5);
      await until(() => text(page.locator('.time-left'))).toBe('1:00');
      expect(await box.getAttribute('data-urgent')).toBe('true');
      expect(await background()).not.toBe(calm);
      await until(() => text(page.getByRole('status').filter({ hasText: 'minute' }))).toBe(
        'One minute of free play left today.',
      );
      await rig.screenshot(page, 'play-view-urgent');
      await page.context().close();
    });

    it("follows the game's orientation: a portrait game is letterboxed on a wide screen, a phone held the wrong way is asked to turn", async () => {
      const { slug: landscape } = await publishFixture(rig.app.ctx, 'orbit-dash');
      const { slug: portrait } = await publishFixture(rig.app.ctx, 'orbit-dash', {
        manifest: { orientation: 'portrait', name: 'Tall Dash' },
      });

      const desktop = await newContext(VIEWPORTS.desktop!);
      const page = await desktop.newPage();
      await registerPlayer(rig, page, { unlimited: true });
      await page.goto(`/play/${landscape}`);
      await visible(page.locator('iframe.game-frame'));
      let layout = await layoutOf(page);
      expect(layout.frame).toMatchObject({ left: 0, width: layout.vw, bottom: layout.vh });
      await page.goto(`/play/${portrait}`);
      await visible(page.locator('iframe.game-frame'));
      layout = await layoutOf(page);
      // The whole height below the bar, three quarters of it wide, centred.
      expect(layout.frame).toMatchObject({
        top: layout.bar.bottom,
        bottom: layout.vh,
        width: (layout.vh - layout.bar.bottom) * 0.75,
      });
      expect(layout.frame.left).toBeCloseTo((layout.vw - layout.frame.width) / 2, 0);
      expect(await page.locator('.rotate-hint').isVisible()).toBe(false); // a laptop is not turned
      await rig.screenshot(page, 'play-view-portrait-game-desktop');
      await desktop.close();

      const phone = await newContext(VIEWPORTS['phone-portrait']!);
      const held = await phone.newPage();
      await registerPlayer(rig, held, { unlimited: true });
      await held.goto(`/play/${landscape}`);
      const hint = held.locator('.rotate-hint');
      await visible(hint);
      expect(await text(hint)).toContain('Turn your device sideways');
      await rig.screenshot(held, 'play-view-rotate-hint');
      await hint.getByRole('button', { name: 'Play anyway' }).click();
      await until(() => hint.isVisible()).toBe(false);
      layout = await layoutOf(held);
      expect(layout.frame).toMatchObject({ left: 0, width: layout.vw, height: layout.vw * 0.75 });
      await held.goto(`/play/${portrait}`);
      await visible(held.locator('iframe.game-frame'));
      expect(await held.locator('.rotate-hint').isVisible()).toBe(false);
      await phone.close();
    });

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);
