// The account page's self-service in a real browser: resend verification, change password and email (confirmed from
// the mailed link), download my data, delete the account and cancel that by logging in; errors at their fields; axe.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, isFocused, registerPlayer, text, unlabelledControls, until } from './browser.js';
import { axeViolations } from './axe.js';

browserSuite('account self-service: in a real browser', { timeout: 60_000 }, (rig) => {
  /** The newest link of this kind mailed to `email` (no SMTP here: mail stays in the outbox table). */
  async function mailedLink(email: string, kind: string): Promise<string> {
    await rig.app.ctx.mailer.idle(); // a mail is written to the outbox after the answer, in the background
    const mails = await rig.app.ctx.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', email)
      .orderBy('id', 'desc')
      .execute();
    for (const mail of mails) {
      const match = new RegExp(`${rig.origin}/${kind}\\?token=[^\\s]+`).exec(mail.text_body);
      if (match) return match[0];
    }
    throw new Error(`no ${kind} mail to ${email}`);
  }

  const fieldError = (page: Page) => text(page.locator('.field-error:visible'));

  it('resends the verification mail, changes the password with errors at the fields, on a phone too', async () => {
    const page = await rig.newPage();
    const player = await registerPlayer(rig, page);
    await page.goto('/account');
    const resend = page.getByRole('button', { name: 'Resend verification email' });
    await resend.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await resend.click();
    await until(() => text(page.getByText(/^Sent: check/))).toBe(`Sent: check ${player.email} for the new link.`);
    await rig.app.ctx.mailer.idle();
    const mails = await rig.app.ctx.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', player.email)
      .execute();
    expect(mails.map((m) => m.subject)).toEqual(['Confirm your email address', 'Confirm your email address']);
    await page.goto(await mailedLink(player.email, 'verify-email'));
    await until(() => text(page.locator('h1'))).toBe('Email verified');
    await page.goto('/account');
    await until(() => page.locator('.badge.ok').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Resend verification email' }).count()).toBe(0);

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByRole('textbox', { name: 'New password', exact: true }).fill('a brand new password');
    await form.getByLabel('Repeat the new password').fill('a brand new password');
    await form.getByRole('button', { name: 'Change password' }).click();
    const current = form.getByLabel('Current password');
    await until(() => current.getAttribute('aria-invalid')).toBe('true');
    await until(() => isFocused(current)).toBe(true);
    await until(() => fieldError(page)).toBe('Current password is not right');
    expect(await form.locator('.form-error').isHidden()).toBe(true);

    await current.fill(player.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await until(() => text(form.getByRole('status'))).toBe('Password changed. You stay logged in here.');
    expect(await current.getAttribute('aria-invalid')).toBeNull();
    // still logged in with the session of this browser; the new password works
    expect((await page.request.get('/v1/me', { headers: { 'X-Requested-With': 'ServiceSDK' } })).status()).toBe(200);
    const other = await rig.context.browser()!.newContext({ baseURL: rig.origin });
    const login = await other.request.post('/v1/auth/login', {
      data: { login: player.username, password: 'a brand new password' },
    });
    expect(login.status()).toBe(200);
    await other.close();

    expect(await unlabelledControls(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    // a long email address wraps instead of widening the page
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await rig.screenshot(page, 'account-self-service-phone');
    await page.close();
  });

  it('changes the email once the new address confirms the link; a taken address is told at the field', async () => {
    const page = await rig.newPage();
    const taken = await registerPlayer(rig, page);
    const player = await registerPlayer(rig, page);
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Change email' });
    await form.getByLabel('New email address').fill(taken.email);
    await form.getByLabel('Your password').fill(player.password);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    const address = form.getByLabel('New email address');
    await until(() => address.getAttribute('aria-invalid')).toBe('true');
    await until(() => fieldError(page)).toBe('New email address is used by another account');
    await until(() => isFocused(address)).toBe(true);
    expect(await form.locator('.form-error').isHidden()).toBe(true);

    await form.getByLabel('Your password').fill('wrong password');
    const fresh = `moved${Date.now().toString(36)}@example.com`;
    await address.fill(fresh);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    await until(() => fieldError(page)).toBe('Your password is not right');

    await form.getByLabel('Your password').fill(player.password);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    await until(() => text(form.getByRole('status'))).toContain(`open the link we sent to ${fresh}`);
    await page.goto(await mailedLink(fresh, 'confirm-email'));
    await until(() => text(page.locator('h1'))).toBe('Email changed');
    expect(await text(page.getByRole('status'))).toBe(`Your account now uses ${fresh}. Log in with it from now on.`);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto('/account');
    await until(() => page.locator('dd', { hasText: fresh }).count()).toBe(1);
    expect(await page.locator('dd', { hasText: player.email }).count()).toBe(0);
    // the link works once
    await page.goto(await mailedLink(fresh, 'confirm-email'));
    await until(() => text(page.locator('h1'))).toBe('Email not changed');
    await page.close();
  });

  it('downloads my data as a JSON file', async () => {
    const page = await rig.newPage();
    const player = await registerPlayer(rig, page);
    await page.request.post('/v1/games/tile-merge/favorite', { headers: { 'X-Requested-With': 'ServiceSDK' } });
    await page.goto('/account');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^gameplatform-${player.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
    );
    const body = JSON.parse(readFileSync((await file.path())!, 'utf8'));
    expect(body.data.player).toMatchObject({ username: player.username, email: player.email });
    expect(body.data.favorites.map((f: { game: string }) => f.game)).toEqual(['tile-merge']);
    expect(JSON.stringify(body)).not.toMatch(/password_hash|token_hash|\$argon2/);
    await until(() => text(page.getByText('Your data is downloaded as a JSON file.'))).toBe(
      'Your data is downloaded as a JSON file.',
    );

    // A refused export says what the service said, in the portal's words (here: the rate limit's wait).
    await page.route('**/v1/me/export', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          ok: false,
          error: { code: 'rate_limited', message: 'Too many requests', retry_after: 30 },
        }),
      }),
    );
    await page.getByRole('button', { name: 'Download my data' }).click();
    const status = page.getByRole('region', { name: 'Download my data' }).getByRole('status');
    await until(() => text(status)).toMatch(/30 seconds/);
    await page.close();
  });

  it('deletes the account after typing the password, and a login within the grace period cancels it', async () => {
    const page = await rig.newPage();
    const player = await registerPlayer(rig, page);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Delete account' });
    expect(await text(section)).toContain('Your account is deleted 30 days after you confirm.');
    expect(await text(section)).toContain('Log in within those 30 days and the deletion is cancelled.');
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    const password = section.getByLabel('Type your password to confirm');
    await until(() => isFocused(password)).toBe(true);
    await password.fill('not my password');
    await section.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await until(() => fieldError(page)).toBe('Your password is not right');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    await password.fill(player.password);
    await section.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await until(() => text(page.locator('h1'))).toBe('Your account will be deleted');
    expect((await page.request.get('/v1/me', { headers: { 'X-Requested-With': 'ServiceSDK' } })).status()).toBe(401);
    expect((await page.request.get(`/v1/players/${player.username}`)).status()).toBe(404);

    await page.goto('/login');
    await page.getByLabel('Email or username').fill(player.username);
    await page.getByLabel('Password').fill(player.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await until(() => text(page.locator('h1'))).toBe('Welcome back');
    expect(await text(page.getByRole('status'))).toContain('Logging in has cancelled that');
    expect((await page.request.get(`/v1/players/${player.username}`)).status()).toBe(200);
    await page.close();
  });
});
