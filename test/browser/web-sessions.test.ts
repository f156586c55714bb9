// Signed-in browsers apart from API tokens, in Debian's Chromium: a login that makes room says which browser it signed
// out (never an API token), the account page lists the browsers with this one marked, signs others out, drops the
// new-token box once that token is revoked, and keeps every Revoke and Sign out button on a 390 px phone screen.
import { expect, it } from 'vitest';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';
import { axeViolations } from './axe.js';

const SDK = { 'X-Requested-With': 'ServiceSDK' };

browserSuite('web sessions: in a real browser', { timeout: 90_000 }, (rig) => {
  /** A login as an app (no cookie, an API token) or as another browser (a web session); the answer's data. */
  async function loginElsewhere(login: string, password: string, device: string, web: boolean) {
    const res = await rig.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: web ? SDK : {},
      payload: { login, password, device_name: device },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { token: string };
  }
  const works = async (token: string) =>
    (await rig.app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${token}` } }))
      .statusCode === 200;

  it('tells the player which browser a login signed out to make room, and revokes no API token while a browser can go', async () => {
    const page = await rig.newPage();
    const player = await registerPlayer(rig, page); // browser 1: this context's session, used below
    const apps: string[] = [];
    for (let i = 0; i < 5; i++)
      apps.push((await loginElsewhere(player.username, player.password, `script ${i}`, false)).token);
    const browsers: string[] = [];
    for (let i = 2; i <= 5; i++) {
      browsers.push((await loginElsewhere(player.username, player.password, `Web portal (Firefox ${i})`, true)).token);
      rig.clock.advance(60);
    }
    // Every other browser is used but "Firefox 2", so it is the one that makes room.
    for (const token of browsers.slice(1)) expect(await works(token)).toBe(true);
    expect((await page.request.get('/v1/me', { headers: SDK })).status()).toBe(200);

    await page.context().clearCookies();
    await page.goto('/login?next=/playtime');
    await page.getByLabel('Email or username').fill(player.username);
    await page.getByLabel('Password').fill(player.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await visible(page.getByRole('heading', { name: 'You are logged in' }));
    const notice = await text(page.getByRole('status').filter({ hasText: 'Signing in here' }));
    expect(notice).toMatch(
      /^Signing in here signed out “Web portal \(Firefox 2\)” \(signed in .+ and not used since\): at most 10 browsers and API tokens stay active at once/,
    );
    expect(notice).toContain('Your API tokens are not affected.');
    // The header knows the player is logged in.
    await visible(page.getByRole('link', { name: `Account settings for ${player.display_name}` }));
    expect(await axeViolations(page)).toEqual([]);
    await rig.screenshot(page, 'web-sessions-login-notice');

    expect(await works(browsers[0]!)).toBe(false);
    for (const token of [...apps, ...browsers.slice(1)]) expect(await works(token)).toBe(true);
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/playtime');
    await page.getByRole('link', { name: 'Continue' }).click();
    await until(() => new URL(page.url()).pathname).toBe('/playtime');
    await page.close();
  });

  it('lists the signed-in browsers apart from the API tokens, marks this one, and signs the others out', async () => {
    const page = await rig.newPage();
    const player = await registerPlayer(rig, page);
    const other = await loginElsewhere(player.username, player.password, 'Web portal (Safari)', true);
    const app = await loginElsewhere(player.username, player.password, 'Steam Deck', false);
    await page.goto('/account');

    const browsers = page.getByRole('table', { name: 'Signed-in browsers' });
    const tokens = page.getByRole('table', { name: 'Active tokens' });
    await until(() => browsers.locator('tbody tr').count()).toBe(2);
    const mine = browsers.locator('tbody tr').first();
    expect(await text(mine.locator('th'))).toMatch(/^Web portal \(Chrome\)\s*This browser$/);
    expect(await text(mine.locator('.badge'))).toBe('This browser');
    expect(await text(browsers.locator('tbody tr').nth(1).locator('th'))).toBe('Web portal (Safari)');
    await until(() => tokens.locator('tbody th').allInnerTexts()).toEqual(['Steam Deck']);
    expect(await axeViolations(page)).toEqual([]);
    await rig.screenshot(page, 'web-sessions-account');

    await page.getByRole('button', { name: 'Sign out all other browsers' }).click();
    await page.getByRole('button', { name: 'Confirm: sign out all other browsers' }).click();
    await visible(page.getByText('1 other browser signed out.'));
    await until(() => browsers.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign out all other browsers' }).isHidden()).toBe(true);
    expect(await works(other.token)).toBe(false);
    expect(await works(app.token)).toBe(true);

    // Signing this browser out logs it out.
    await mine.getByRole('button', { name: 'Sign out this browser' }).click();
    await mine.getByRole('button', { name: 'Confirm' }).click();
    await until(() => new URL(page.url()).pathname).toBe('/login');
    expect((await page.request.get('/v1/me', { headers: SDK })).status()).toBe(401);
    await page.close();
  });

  it('drops the new-token box once that token is revoked', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/account');
    await page.getByLabel('Token name').fill('backup script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = page.locator('#new-token');
    await until(() => value.inputValue()).toMatch(/^agp_/);
    const row = page.locator('tr', { hasText: 'backup script' });
    await row.getByRole('button', { name: 'Revoke backup script' }).click();
    await row.getByRole('button', { name: 'Revoke backup script' }).click(); // confirm
    await visible(page.getByText('Token “backup script” revoked.'));
    await until(() => value.count()).toBe(0);
    expect(await page.locator('.token-reveal').isHidden()).toBe(true);
    expect(await page.getByText('shown only once').count()).toBe(0);

    // Revoking another token leaves the box of the new one.
    await page.getByLabel('Token name').fill('first');
    await page.getByRole('button', { name: 'Create token' }).click();
    await until(() => page.locator('tr', { hasText: 'first' }).count()).toBe(1);
    await page.getByLabel('Token name').fill('second');
    await page.getByRole('button', { name: 'Create token' }).click();
    await until(() => page.locator('#new-token').count()).toBe(1);
    await until(() => page.locator('label[for=new-token]').innerText()).toContain('second');
    const first = page.locator('tr', { hasText: 'first' });
    await first.getByRole('button', { name: 'Revoke first' }).click();
    await first.getByRole('button', { name: 'Revoke first' }).click();
    await visible(page.getByText('Token “first” revoked.'));
    expect(await page.locator('#new-token').inputValue()).toMatch(/^agp_/);
    await page.close();
  });

  it('keeps every Revoke and Sign out button on a 390 px phone screen', async () => {
    const phone = await rig.watchedContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    const player = await registerPlayer(rig, page);
    await loginElsewhere(player.username, player.password, 'Web portal (Firefox on a long device name)', true);
    for (const name of ['Nightly leaderboard export script', 'stats']) {
      const res = await page.request.post('/v1/me/tokens', { headers: SDK, data: { name } });
      expect(res.status()).toBe(201);
    }
    await page.goto('/account');
    await until(() =>
      page
        .locator('table.tokens')
        .getByRole('button', { name: /^Revoke / })
        .count(),
    ).toBe(2);
    await until(() =>
      page
        .locator('table.tokens')
        .getByRole('button', { name: /^Sign out / })
        .count(),
    ).toBe(2);
    const viewport = page.viewportSize()!;
    for (const button of await page.locator('table.tokens button').all()) {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      const label = await button.getAttribute('aria-label');
      expect({ label, left: box.x >= 0, right: box.x + box.width <= viewport.width }).toEqual({
        label,
        left: true,
        right: true,
      });
    }
    await rig.screenshot(page, 'web-sessions-account-phone');
    // Neither list scrolls sideways, nor reaches past the screen's edge.
    const overflow = await page.evaluate(
      `Array.from(document.querySelectorAll('.table-wrap')).map((w) => [w.scrollWidth - w.clientWidth, w.getBoundingClientRect().right <= ${viewport.width}])`,
    );
    expect(overflow).toEqual([
      [0, true],
      [0, true],
    ]);
    await phone.close();
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});
