// axe-core on every portal page, logged out and logged in, on a laptop (1366×768) and a phone (390×844): no violation
// of impact serious or critical.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, type AxeViolation } from './axe.js';
import { browserSuite, registerPlayer, until } from './browser.js';

const VIEWPORTS = {
  laptop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** Every page of the portal; `ready` is what shows once the page has filled itself in. */
const PAGES: Array<{ path: string | ((username: string) => string); ready: string }> = [
  { path: '/', ready: '.card' },
  { path: '/games/reflex', ready: 'main h1' },
  { path: '/play/reflex', ready: 'main h1, .shell-title' },
  { path: (username) => `/u/${username}`, ready: 'main h1' },
  { path: '/login', ready: 'main h1' },
  { path: '/register', ready: 'main h1' },
  { path: '/account', ready: 'main h1' },
  { path: '/playtime', ready: 'main h1' },
  { path: '/forgot-password', ready: 'main h1' },
  { path: '/reset-password?token=not-a-token', ready: 'main h1' },
  { path: '/reset-password', ready: 'main h1' },
  { path: '/verify-email?token=not-a-token', ready: 'main h1' },
  { path: '/confirm-email?token=not-a-token', ready: 'main h1' },
  { path: '/confirm-email', ready: 'main h1' },
  { path: '/docs', ready: 'main h1' },
  { path: '/docs/sdk', ready: 'main h1' },
  { path: '/no-such-page', ready: 'main h1' },
];

browserSuite('axe on every portal page', { timeout: 180_000 }, (rig) => {
  let profileOf = '';

  beforeAll(async () => {
    const page = await rig.newPage();
    profileOf = (await registerPlayer(rig, page)).username;
    await page.close();
  }, 60_000);

  /** Every page's serious and critical violations, all of them reported at once. */
  async function checkAll(page: Page, label: string) {
    const found: Array<{ where: string } & AxeViolation> = [];
    for (const entry of PAGES) {
      const path = typeof entry.path === 'function' ? entry.path(profileOf) : entry.path;
      await page.goto(path);
      await until(() => page.locator(entry.ready).first().isVisible()).toBe(true);
      await until(() => page.locator('main .loading').count()).toBe(0);
      for (const violation of await axeViolations(page)) found.push({ where: `${label} ${path}`, ...violation });
    }
    // A form showing its errors (red text on the panel) too.
    await page.goto('/forgot-password');
    await page.locator('main form button[type=submit]').click();
    await until(() => page.locator('.field-error:visible').count()).toBeGreaterThan(0);
    for (const violation of await axeViolations(page))
      found.push({ where: `${label} /forgot-password with errors`, ...violation });
    expect(found).toEqual([]);
  }

  for (const [name, options] of Object.entries(VIEWPORTS)) {
    it(`finds nothing serious on any page logged out, on a ${name}`, async () => {
      const page = await (await rig.watchedContext(options)).newPage();
      await checkAll(page, `logged out, ${name}:`);
      await page.context().close();
    });

    it(`finds nothing serious on any page logged in, on a ${name}`, async () => {
      const page = await (await rig.watchedContext(options)).newPage();
      await registerPlayer(rig, page);
      await checkAll(page, `logged in, ${name}:`);
      await page.context().close();
    });
  }

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});
