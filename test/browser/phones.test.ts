// Phones: at 390×844 held upright and turned to 844×390. Star Catcher (game.json `orientation: landscape`) asks an
// upright phone to turn, offers full screen there and in the bar, and full screen asks the browser to lock landscape;
// turned, the game fills the screen below the bar. A game for any orientation asks nothing. Where the page cannot go
// full screen (iPhone Safari), neither button shows and the notice only asks to turn.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { browserSuite, registerPlayer, text, until, visible, type Rig } from './browser.js';

const UPRIGHT = { width: 390, height: 844 };
const TURNED = { width: 844, height: 390 };
const PHONE: BrowserContextOptions = { viewport: UPRIGHT, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/** Records what the shell asks of screen.orientation (headless Chromium has no screen to turn). */
const RECORD_LOCKS = `(() => {
  window.__orientation = [];
  const proto = ScreenOrientation.prototype;
  const lock = proto.lock;
  proto.lock = function (orientation) {
    window.__orientation.push('lock ' + orientation);
    return lock ? lock.call(this, orientation) : Promise.reject(new Error('no lock'));
  };
  const unlock = proto.unlock;
  proto.unlock = function () {
    window.__orientation.push('unlock');
    return unlock && unlock.call(this);
  };
})();`;

/** iPhone Safari: full screen exists for videos only, never for a page. */
const NO_FULL_SCREEN = `Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false });`;

browserSuite('phones: orientation and full screen', { timeout: 90_000 }, (rig: Rig) => {
  async function phone(script: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await rig.watchedContext(PHONE);
    await context.addInitScript(script);
    const page = await context.newPage();
    await registerPlayer(rig, page, { unlimited: true });
    return { context, page };
  }

  const layout = (page: Page) =>
    page.evaluate(`(() => {
      const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, width: r.width, height: r.height }; };
      return { vw: innerWidth, vh: innerHeight, bar: box(document.querySelector('.shell-bar')), frame: box(document.querySelector('iframe.game-frame')) };
    })()`) as Promise<{
      vw: number;
      vh: number;
      bar: { top: number; height: number };
      frame: { top: number; width: number; height: number };
    }>;

  it('asks an upright phone to turn for Star Catcher, and lets it fill the screen once turned', async () => {
    const { context, page } = await phone(RECORD_LOCKS);
    await page.goto('/play/star-catcher');
    const hint = page.locator('.rotate-hint');
    await visible(hint);
    expect(await text(hint.locator('p'))).toBe('Turn your device sideways to play Star Catcher.');
    await visible(hint.getByRole('button', { name: 'Full screen' }));
    await visible(page.locator('.shell-bar').getByRole('button', { name: 'Full screen' }));
    await rig.screenshot(page, 'phone-star-catcher-upright');

    await page.setViewportSize(TURNED);
    await until(() => hint.isVisible()).toBe(false);
    const turned = await layout(page);
    expect(turned.frame).toEqual({
      top: turned.bar.height,
      width: turned.vw,
      height: turned.vh - turned.bar.height,
    });
    await rig.screenshot(page, 'phone-star-catcher-turned');
    await context.close();
  });

  it("goes full screen from the notice and asks for the game's orientation, and lets go when it ends", async () => {
    const { context, page } = await phone(RECORD_LOCKS);
    await page.goto('/play/star-catcher');
    await page.locator('.rotate-hint').getByRole('button', { name: 'Full screen' }).click();
    await until(() => page.evaluate('document.fullscreenElement && document.fullscreenElement.className')).toBe(
      'shell',
    );
    await until(() => page.evaluate('window.__orientation')).toEqual(['lock landscape']);
    await page.locator('.shell-bar').getByRole('button', { name: 'Exit full screen' }).click();
    await until(() => page.evaluate('document.fullscreenElement')).toBeNull();
    await until(() => page.evaluate('window.__orientation')).toEqual(['lock landscape', 'unlock']);
    await context.close();
  });

  it('asks nothing of a phone for a game of any orientation, held either way', async () => {
    const { context, page } = await phone(RECORD_LOCKS);
    await page.goto('/play/reflex');
    await visible(page.frameLocator('iframe.game-frame').locator('#pad'));
    expect(await page.locator('.rotate-hint').count()).toBe(0);
    const upright = await layout(page);
    expect(upright.frame.height).toBe(upright.vh - upright.bar.height);
    await page.setViewportSize(TURNED);
    await until(() => layout(page).then((l) => l.frame.width)).toBe(TURNED.width);
    const turned = await layout(page);
    expect(turned.frame.height).toBe(turned.vh - turned.bar.height);
    await page.locator('.shell-bar').getByRole('button', { name: 'Full screen' }).click();
    await until(() => page.evaluate('Boolean(document.fullscreenElement)')).toBe(true);
    expect(await page.evaluate('window.__orientation')).toEqual([]);
    await context.close();
  });

  it('offers no full screen where the page cannot have it (iPhone Safari), and still asks to turn', async () => {
    const { context, page } = await phone(NO_FULL_SCREEN);
    await page.goto('/play/star-catcher');
    const hint = page.locator('.rotate-hint');
    await visible(hint);
    expect(await hint.getByRole('button').allInnerTexts()).toEqual(['Play anyway']);
    expect(await page.getByRole('button', { name: 'Full screen' }).count()).toBe(0);
    await hint.getByRole('button', { name: 'Play anyway' }).click();
    await until(() => hint.isVisible()).toBe(false);
    await context.close();
  });

  it('saw no script error', () => {
    expect(rig.problems).toEqual([]);
  });
});
