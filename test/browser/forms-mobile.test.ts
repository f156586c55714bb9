// Forms that speak the portal's words at the right field, the portal on a phone (390×844), and the smaller rough edges:
// an avatar that is no image, the header after a profile change, the play shell when the API is unavailable.
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

browserSuite('forms and mobile: in a real browser', { timeout: 60_000 }, (rig) => {
  let phone: BrowserContext;

  beforeAll(async () => {
    phone = await rig.watchedContext(PHONE);
  }, 60_000);

  /** The error shown for a control: the text of the elements its aria-describedby names, other than its hint. */
  // (A string runs in the page: this project's Node types have no DOM.)
  const describedError = (page: Page, name: string) =>
    page.locator(`[name="${name}"]`).evaluate(
      new Function(
        'el',
        `return (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id))
          .filter((e) => e && !e.hidden && e.classList.contains('field-error')).map((e) => e.textContent).join(' ')`,
      ) as (el: unknown) => string,
    );

  it("explains a field's problem in the portal's words, apart from its label", async () => {
    const page = await rig.newPage();
    await page.goto('/register');
    await page.locator('[name=display_name]').fill('Somebody');
    await page.locator('[name=email]').fill('somebody@example.com');
    await page.getByLabel('Username (optional)').fill('no spaces');
    await page.locator('[name=password]').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(() => describedError(page, 'username')).toBe('Use 3–32 letters, digits or _');
    // The label is still just the label: no validation text glued onto the field's name.
    expect(
      await page
        .getByLabel('Username (optional)')
        .evaluate(new Function('el', 'return el.labels[0].textContent') as (el: unknown) => string),
    ).toBe('Username (optional)');
    await page.locator('[name=email]').fill('not an email');
    await page.getByLabel('Username (optional)').fill('');
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(() => describedError(page, 'email')).toBe('Enter an email address, like name@example.com');
    expect(await describedError(page, 'username')).toBe('');
    await page.close();
  });

  it('shows "email taken" and "username taken" at their fields, on register and on the account page', async () => {
    const page = await rig.newPage();
    const taken = await registerPlayer(rig, page);
    await page.context().clearCookies();
    await page.goto('/register');
    await page.locator('[name=display_name]').fill('Somebody Else');
    await page.locator('[name=email]').fill(taken.email);
    await page.locator('[name=password]').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(() => describedError(page, 'email')).toMatch(/already/);
    expect(await page.locator('[name=email]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.form-error').isVisible()).toBe(false);
    await page.locator('[name=email]').fill(`other-${taken.email}`);
    await page.getByLabel('Username (optional)').fill(taken.username.toUpperCase());
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(() => describedError(page, 'username')).toMatch(/taken/);
    expect(await page.locator('.form-error').isVisible()).toBe(false);

    await registerPlayer(rig, page);
    await page.goto('/account');
    await page.locator('[name=username]').fill(taken.username);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await until(() => describedError(page, 'username')).toMatch(/taken/);
    expect(await page.locator('.form-error').first().isVisible()).toBe(false);
    await page.close();
  });

  it('shows the new name and avatar in the header right after a profile change', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/account');
    await page.locator('[name=display_name]').fill('Renamed Player');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await visible(page.getByText('Profile saved.'));
    await until(() => text(page.locator('#account-nav .account-name'))).toBe('Renamed Player');
    const headerAvatar = () => page.locator('#account-nav img.avatar').getAttribute('src');
    const before = await headerAvatar();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3355aa' } })
      .png()
      .toBuffer();
    await page.getByLabel('New picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    await visible(page.getByText('Avatar updated.'));
    await until(headerAvatar).not.toBe(before);
    await page.close();
  });

  it('does not offer to upload a file that is no image, whatever its name says', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/account');
    const input = page.getByLabel('New picture');
    await input.setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some text, not a picture\n'),
    });
    await until(() => describedError(page, 'avatar')).toMatch(/cannot be read as an image/);
    expect(await page.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    expect(await page.locator('img.avatar.preview').isVisible()).toBe(false);
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#aa3355' } })
      .png()
      .toBuffer();
    await input.setInputFiles({ name: 'real.png', mimeType: 'image/png', buffer: png });
    await until(() => page.getByRole('button', { name: 'Upload' }).isEnabled()).toBe(true);
    expect(await describedError(page, 'avatar')).toBe('');
    await visible(page.locator('img.avatar.preview'));
    await page.close();
  });

  it('keeps the header on one row on a phone, logged out and logged in', async () => {
    const page = await phone.newPage();
    const rowHeight = () => page.locator('.header-row').evaluate((el) => el.getBoundingClientRect().height);
    await page.goto('/games/reflex');
    await visible(page.locator('#account-nav a[href^="/login"]'));
    expect(await rowHeight()).toBeLessThanOrEqual(64);
    await registerPlayer(rig, page);
    await page.goto('/games/reflex');
    await visible(page.locator('#account-nav .account-link'));
    expect(await rowHeight()).toBeLessThanOrEqual(64);
    // The account link keeps its name for screen readers even where the display name is not shown.
    await visible(page.getByRole('link', { name: /Account settings for/ }));
    await page.close();
  });

  it('lets the SDK guide and the API reference fit a phone: only code blocks and tables scroll sideways', async () => {
    const page = await phone.newPage();
    for (const path of ['/docs/sdk', '/docs']) {
      await page.goto(path);
      await visible(page.locator('h1').first());
      const widths = (await page.evaluate(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      )) as { scroll: number; client: number };
      expect({ path, ...widths }).toEqual({ path, scroll: widths.client, client: 390 });
    }
    await page.close();
  });

  it("draws the playtime chart's labels at a readable size on a phone", async () => {
    const page = await phone.newPage();
    await registerPlayer(rig, page);
    await page.goto('/playtime');
    await visible(page.locator('svg.bars'));
    const sizes = (await page.evaluate(`Array.from(document.querySelectorAll('svg.bars .axis')).map((label) => {
        const chart = label.ownerSVGElement;
        return parseFloat(getComputedStyle(label).fontSize) * (chart.getBoundingClientRect().width / chart.viewBox.baseVal.width);
      })`)) as number[];
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
    await page.close();
  });

  it('offers Full screen on a phone (its icon only) and on a laptop', async () => {
    const page = await phone.newPage();
    await registerPlayer(rig, page);
    await page.goto('/play/reflex');
    await visible(page.getByRole('button', { name: 'Quit' }));
    await visible(page.getByRole('button', { name: 'Full screen' }));
    expect(await page.locator('.full-screen-words').boundingBox()).toMatchObject({ width: 1, height: 1 });
    await page.close();
    const laptop = await rig.newPage();
    await registerPlayer(rig, laptop);
    await laptop.goto('/play/reflex');
    await visible(laptop.getByRole('button', { name: 'Full screen' }));
    await laptop.close();
  });

  it('offers Retry and Back when the service is unavailable at the start of a game', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    let unavailable = true;
    await page.route('**/v1/play/start', (route) =>
      unavailable
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              ok: false,
              error: { code: 'service_unavailable', message: 'The service is unavailable; try again shortly' },
            }),
          })
        : route.continue(),
    );
    await page.goto('/play/reflex');
    await visible(page.getByRole('heading', { name: 'Reflex could not start' }));
    await visible(page.getByRole('link', { name: 'Back to Reflex' }));
    unavailable = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByRole('button', { name: 'Quit' }));
    await page.close();
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});
