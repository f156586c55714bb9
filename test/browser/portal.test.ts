// The portal, the play shell, the SDK and the demo games in Debian's Chromium: what a player does, end to end.
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sweepIdleSessions } from '../../src/modules/play/play.service.js';
import {
  beatAfter as beatAfterIn,
  browserSuite,
  dealtBoard,
  isFocused,
  nextAnswer,
  registerPlayer,
  setHidden,
  text,
  unlabelledControls,
  until,
  visible,
} from './browser.js';

browserSuite('portal: in a real browser', { timeout: 60_000 }, (rig) => {
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${++n}`;

  const playerSession = (page: Page, options: { unlimited?: boolean } = {}) => registerPlayer(rig, page, options);

  const shellFrame = (page: Page) => page.frameLocator('iframe.game-frame');

  /** The newest link of this kind mailed to `email` (no SMTP in tests: mail goes to the outbox table). */
  async function mailedLink(email: string, kind: 'verify-email' | 'reset-password'): Promise<string> {
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

  it('browses the catalogue with search and categories, on a phone too', async () => {
    const page = await rig.newPage();
    await page.goto('/');
    await until(() => page.locator('.card').count()).toBe(4);
    await until(() => page.getByRole('link', { name: /All \(4\)/ }).getAttribute('aria-current')).toBe('page');
    expect(await unlabelledControls(page)).toEqual([]);
    await rig.screenshot(page, 'catalogue');
    await page.getByLabel('Search games').fill('merge');
    await until(() => page.locator('.card').count()).toBe(1);
    await until(() => text(page.locator('.card-title'))).toBe('Tile Merge');
    await page.getByLabel('Search games').fill('');
    await page.getByRole('link', { name: /^Arcade/ }).click();
    await until(() => page.locator('.card-title').allInnerTexts()).toEqual(['Comet Snake']);
    expect(page.url()).toContain('category=arcade');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await until(() => page.locator('.card').count()).toBe(4);
    await rig.screenshot(page, 'catalogue-phone');
    await page.close();
  });

  it('registers, logs out and logs in again, with errors next to their fields', async () => {
    await rig.context.clearCookies();
    const page = await rig.newPage();
    const id = unique();
    await page.goto('/register');
    await page.getByLabel('Display name').fill(`Ada ${id}`);
    await page.getByLabel('Email').fill(`ada${id}@example.com`);
    await page.getByLabel('Username (optional)').fill(`ada_${id}`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The browser-side check: the message sits next to the password, which gets focus.
    const password = page.getByLabel('Password');
    await until(() => password.getAttribute('aria-invalid')).toBe('true');
    await until(() => isFocused(password)).toBe(true);
    await until(() => text(page.locator('.field-error:visible'))).toBe('Password must be at least 8 characters');
    expect(await unlabelledControls(page)).toEqual([]);
    await rig.screenshot(page, 'register');
    await password.fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await until(() => text(page.locator('#account-nav'))).toContain(`Ada ${id}`);

    await page.goto('/logout');
    await page.locator('#main').getByRole('button', { name: 'Log out' }).click();
    await until(() => text(page.locator('#account-nav'))).toContain('Log in');

    await page.goto('/login?next=/account');
    await page.getByLabel('Email or username').fill(`ada_${id}`);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await until(() => text(page.getByRole('alert'))).toContain('do not match');
    await rig.screenshot(page, 'login');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/account$/);
    await visible(page.getByRole('heading', { name: 'Account settings' }));

    // A field the server refuses (blank after trimming): its error.fields message lands next to the field.
    const displayName = page.getByLabel('Display name');
    await displayName.fill('   ');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await until(() => displayName.getAttribute('aria-invalid')).toBe('true');
    await until(() => isFocused(displayName)).toBe(true);
    await displayName.fill(`Ada L ${id}`);
    await page.getByLabel('Bio').fill('Counts in base 2.');
    await page.getByLabel('Country').selectOption('GB');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await visible(page.getByText('Profile saved.'));
    await page.close();
  });

  it('verifies the email and resets a forgotten password from the mailed links', async () => {
    const page = await rig.newPage();
    const player = await playerSession(page);
    const link = await mailedLink(player.email, 'verify-email');
    await page.goto(link);
    await visible(page.getByRole('heading', { name: 'Email verified' }));
    await page.goto(link); // the same link again: good news for the player who used it, not an error
    await visible(page.getByRole('heading', { name: 'Email already verified' }));
    await page.goto('/verify-email');
    await visible(page.getByRole('heading', { name: 'Link incomplete' }));
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await until(() => page.url()).toContain('/account');
    await visible(page.getByText('Verified', { exact: true }));

    await rig.context.clearCookies();
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(player.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await until(() => text(page.getByRole('status').filter({ hasText: 'we have sent' }))).toContain(player.email);
    await page.goto(await mailedLink(player.email, 'reset-password'));
    await page.getByLabel(/^New password/).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a different one!');
    await page.getByRole('button', { name: 'Set password' }).click();
    await until(() => page.getByLabel('Repeat the new password').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await visible(page.getByRole('heading', { name: 'Password changed' }));
    await page.getByRole('link', { name: 'Log in' }).last().click();
    await page.getByLabel('Email or username').fill(player.email);
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await until(() => text(page.locator('#account-nav'))).toContain(player.display_name);
    await page.close();
  });

  it('plays Reflex until its score is on the leaderboard (mouse and keyboard)', async () => {
    const page = await rig.clockedPage();
    const player = await playerSession(page, { unlimited: true });
    await page.goto('/games/reflex');
    await visible(page.getByRole('heading', { name: 'Reflex', level: 1 }));
    await visible(page.getByText('No scores yet.'));
    await rig.screenshot(page, 'game-page');
    await page.getByRole('link', { name: 'Play', exact: true }).click();
    await page.waitForURL(/\/play\/reflex$/);

    // The page's clock moves only when told: green is due within 3 s of a round's start; each reaction takes what the test lets pass.
    const frame = shellFrame(page);
    const pad = frame.locator('#pad');
    await until(() => pad.getAttribute('data-state')).toBe('idle');
    await pad.click(); // starts round 1
    for (const [input, ms] of [
      ['mouse', 240],
      ['keyboard', 310],
      ['mouse', 290],
    ] as const) {
      await until(() => pad.getAttribute('data-state')).toBe('wait');
      await rig.elapse(page, 3, { jump: true }); // green shows at the end of the jump
      await until(() => pad.getAttribute('data-state')).toBe('go');
      await rig.elapse(page, ms / 1000);
      if (input === 'mouse') await pad.click();
      else await page.keyboard.press('Space');
    }
    await until(() => pad.getAttribute('data-state')).toBe('done');
    await until(() => text(frame.locator('#status'))).toContain('Rank #1');
    await until(() => text(frame.locator('#rows li').first())).toBe(`${player.display_name}: 280 ms`);
    await rig.screenshot(page, 'play-reflex');

    await page.goto('/games/reflex');
    const row = page.locator('.leaderboard tbody tr').first();
    await until(() => text(row)).toContain(player.display_name);
    await until(() => text(row)).toContain('280 ms');
    await until(() => text(page.locator('.my-rank'))).toContain('Your rank: #1');
    await page.getByLabel('Today').check();
    await until(() => text(page.locator('.leaderboard caption'))).toBe('Today, lowest first');
    await until(() => text(page.locator('.leaderboard tbody tr').first())).toContain(player.display_name);
    expect(await unlabelledControls(page)).toEqual([]);
    await rig.screenshot(page, 'game-leaderboard');

    await page.goto(`/u/${player.username}`);
    await visible(page.getByRole('heading', { name: player.display_name }));
    await until(() => text(page.locator('table'))).toContain('Reflex');
    // The best with its rank and the game's cover; the game played lately, linked.
    const best = page.locator('table tbody tr').first();
    expect(await best.locator('td').allInnerTexts()).toEqual(['Reflex', '280 ms', '#1']);
    expect(await best.locator('img.cover').getAttribute('src')).toMatch(/reflex/);
    const lately = page.getByRole('region', { name: 'Played lately' });
    expect(await lately.getByRole('link', { name: 'Reflex' }).getAttribute('href')).toBe('/games/reflex');
    await rig.screenshot(page, 'profile');
    await page.context().close();
  });

  it('saves a Tile Merge game to a slot and loads it back after a reload', async () => {
    const page = await rig.newPage();
    await playerSession(page, { unlimited: true });
    await page.goto('/play/tile-merge');
    const frame = shellFrame(page);
    const grid = frame.locator('#grid');
    await until(() => frame.locator('#slots li').count()).toBe(3);
    const start = await dealtBoard(grid);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft']) {
      await grid.press(key);
      if ((await grid.getAttribute('data-board')) !== start) break;
    }
    const board = await grid.getAttribute('data-board');
    expect(board).not.toBe(start);
    await frame.getByRole('button', { name: 'Save to slot 2' }).click();
    await until(() => text(frame.locator('#status'))).toBe('Saved to slot 2 (version 1).');
    await until(() => text(frame.locator('li[data-slot="1"]'))).toContain('(v1)');

    await page.reload();
    await frame.getByRole('button', { name: 'New game' }).click();
    await frame.getByRole('button', { name: 'Load slot 2' }).click();
    await until(() => text(frame.locator('#status'))).toBe('Loaded slot 2.');
    await until(() => grid.getAttribute('data-board')).toBe(board!);
    await rig.screenshot(page, 'play-tile-merge');

    // Leaving the page ends the session (fetch with keepalive on pagehide).
    await page.goto('/');
    const sessions = () =>
      rig.app.ctx.db
        .selectFrom('play_sessions')
        .select(['status', 'end_reason'])
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
    await until(sessions).toEqual({ status: 'closed', end_reason: 'navigate' });
    await page.close();
  });

  /** The session's credited seconds and state, as the server has them (the newest session of that game). */
  const lastSession = () =>
    rig.app.ctx.db
      .selectFrom('play_sessions')
      .select(['status', 'end_reason', 'credited_seconds'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();

  const beatAfter = (page: Page, seconds: number) => beatAfterIn(rig, page, seconds);

  it('reaches the free limit: the game gets pause and limit, is removed, and the screen says what Unlimited gives', async () => {
    const page = await rig.clockedPage();
    await playerSession(page);
    await page.goto('/play/tile-merge');
    await until(() => text(page.locator('.time-left'))).toBe('0:12');
    const grid = shellFrame(page).locator('#grid');
    const start = await dealtBoard(grid);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) {
      await grid.press(key);
      if ((await grid.getAttribute('data-board')) !== start) break;
    }
    // 12 seconds of allowance, heartbeats every 5: the shell's own timers end it, on the clocks the test moves.
    expect((await beatAfter(page, 5)).data).toMatchObject({
      credited_seconds: 5,
      entitlement: { remaining_seconds: 7 },
    });
    await until(() => text(page.locator('.time-left'))).toBe('0:07');
    expect((await beatAfter(page, 5)).data).toMatchObject({
      credited_seconds: 10,
      entitlement: { remaining_seconds: 2 },
    });
    // The last beat is due when the time runs out (2 s); the game hears `pause` and `limit` 1.5 s before it and saves.
    const autosave = nextAnswer(page, '/v1/games/tile-merge/states/0');
    await rig.elapse(page, 0.5);
    expect((await autosave).status()).toBeLessThan(300);
    await until(() => shellFrame(page).locator('body.paused').count()).toBe(1);
    expect((await beatAfter(page, 1.5)).data).toMatchObject({
      credited_seconds: 12,
      limit_reached: true,
      entitlement: { remaining_seconds: 0, limit_reached: true },
    });
    expect(await lastSession()).toEqual({ status: 'closed', end_reason: 'limit', credited_seconds: 12 });

    const limit = page.locator('[data-screen="limit"]');
    await visible(limit);
    await until(() => page.locator('iframe').count()).toBe(0);
    await until(() => text(limit.getByRole('heading', { level: 1 }))).toBe('Your free play time for today is used up');
    await visible(limit.getByRole('heading', { name: 'What Unlimited gives you' }));
    await rig.screenshot(page, 'limit-screen');

    // The game heard `pause` before it went: its autosave reached slot 0.
    const states = await page.request.get('/v1/games/tile-merge/states', {
      headers: { 'X-Requested-With': 'ServiceSDK' },
    });
    expect((await states.json()).data.states).toEqual([
      expect.objectContaining({ slot: 0, label: expect.stringMatching(/^Autosave/) }),
    ]);

    // Another game now is refused before anything loads.
    await page.goto('/play/reflex');
    await until(() => text(page.locator('[data-screen="limit"]'))).toContain('No free play time left today');
    await until(() => page.locator('iframe').count()).toBe(0);

    await page.goto('/playtime');
    await until(() => text(page.locator('.stat').filter({ hasText: 'Left today' }))).toContain('0 s');
    await until(() => page.locator('svg.bars rect.bar').count()).toBe(14);
    await rig.screenshot(page, 'playtime');
    await page.context().close();
  });

  it('beats only while the tab is visible; back from a short absence it credits at most max_heartbeat_gap', async () => {
    const page = await rig.clockedPage();
    await playerSession(page, { unlimited: true });
    const beats: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/play/heartbeat') beats.push(request.url());
    });
    await page.goto('/play/tile-merge');
    await visible(shellFrame(page).locator('#grid'));
    expect((await beatAfter(page, 5)).data).toMatchObject({ credited_seconds: 5 });

    await setHidden(page, true);
    await rig.elapse(page, 200); // over the 90-second gap cap, under the 300-second idle timeout
    expect(beats).toHaveLength(1);

    // Visible again: a beat at once, crediting the capped gap, then the regular rhythm.
    const back = nextAnswer(page, '/v1/play/heartbeat');
    await setHidden(page, false);
    expect((await (await back).json()).data).toMatchObject({
      credited_seconds: 5 + rig.app.ctx.config.max_heartbeat_gap,
    });
    expect((await beatAfter(page, 5)).data).toMatchObject({
      credited_seconds: 10 + rig.app.ctx.config.max_heartbeat_gap,
    });
    expect(beats).toHaveLength(3);
    await page.context().close();
  });

  it('starts a new session without reloading the game when the idle sweep closed the old one while the tab was hidden', async () => {
    const page = await rig.clockedPage();
    await playerSession(page, { unlimited: true });
    await page.goto('/play/tile-merge');
    const grid = shellFrame(page).locator('#grid');
    await visible(grid);
    const board = await dealtBoard(grid);
    const first = await lastSession();

    await setHidden(page, true);
    await rig.elapse(page, rig.app.ctx.config.session_idle_timeout + 1);
    expect(await sweepIdleSessions(rig.app.ctx)).toBeGreaterThanOrEqual(1);
    expect((await lastSession()).status).toBe('closed');

    const ended = nextAnswer(page, '/v1/play/heartbeat');
    const restarted = nextAnswer(page, '/v1/play/start');
    await setHidden(page, false);
    expect((await ended).status()).toBe(410);
    expect((await restarted).status()).toBe(200);
    await until(() => lastSession().then((s) => s.status)).toBe('active');
    expect(first.status).toBe('active');
    // The same game, undisturbed, and the new session beats.
    expect(await grid.getAttribute('data-board')).toBe(board);
    expect((await beatAfter(page, 5)).data).toMatchObject({ credited_seconds: 5 });
    await page.context().close();
  });

  it('refuses a premium game to a free player before loading it, and plays it with Unlimited', async () => {
    const page = await rig.newPage();
    await playerSession(page);
    await page.goto('/games/comet-snake');
    await visible(page.getByText('This game is for Unlimited members.'));
    await page.goto('/play/comet-snake');
    const premium = page.locator('[data-screen="premium"]');
    await until(() => text(premium.getByRole('heading', { level: 1 }))).toBe('Comet Snake is for Unlimited members');
    await until(() => text(premium)).toContain('What Unlimited gives you');
    await until(() => page.locator('iframe').count()).toBe(0);
    await rig.screenshot(page, 'premium-refusal');

    await playerSession(page, { unlimited: true });
    await page.goto('/play/comet-snake');
    const frame = shellFrame(page);
    await frame.getByRole('button', { name: 'Start' }).click();
    await until(() => text(frame.locator('#status'))).toBe('Go!');
    await page.close();
  });

  it('uploads an avatar after showing a preview', async () => {
    const page = await rig.newPage();
    await playerSession(page);
    await page.goto('/account');
    const before = await page.getByAltText('Your current avatar').getAttribute('src');
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#e11d48' } })
      .png()
      .toBuffer();
    await page.getByLabel('New picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await visible(page.getByAltText('Preview of the new avatar'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await visible(page.getByText('Avatar updated.'));
    const after = await page.getByAltText('Your current avatar').getAttribute('src');
    expect(after).not.toBe(before);
    const image = await page.request.get(after!);
    expect(image.status()).toBe(200);
    expect((await sharp(await image.body()).metadata()).width).toBe(256);
    expect(await unlabelledControls(page)).toEqual([]);
    await rig.screenshot(page, 'account');
    await page.close();
  });

  it('creates an API token, shows it once, and revokes it', async () => {
    const page = await rig.newPage();
    await playerSession(page);
    await page.goto('/account');
    await page.getByLabel('Token name').fill('stats script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = page.locator('#new-token');
    await until(() => value.inputValue()).toMatch(/^agp_/);
    await until(() => isFocused(value)).toBe(true);
    const token = await value.inputValue();
    const asScript = () =>
      rig.app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${token}` } });
    expect((await asScript()).statusCode).toBe(200);
    const row = page.locator('tr', { hasText: 'stats script' });
    await row.getByRole('button', { name: 'Revoke stats script' }).click();
    await row.getByRole('button', { name: 'Revoke stats script' }).click(); // confirm
    await visible(page.getByText('Token “stats script” revoked.'));
    await until(() => page.locator('tr', { hasText: 'stats script' }).count()).toBe(0);
    expect((await asScript()).statusCode).toBe(401);
    await page.close();
  });

  it('serves a real 404 page, the SDK guide, and the API docs under their CSP', async () => {
    const page = await rig.newPage();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await visible(page.getByRole('heading', { name: 'Page not found' }));
    await rig.screenshot(page, 'not-found');
    await page.goto('/docs/sdk');
    await visible(page.getByRole('heading', { name: 'Game SDK', level: 1 }));
    await rig.screenshot(page, 'sdk-guide');
    await page.goto('/docs');
    await visible(page.getByRole('heading', { name: /Game Platform API/, level: 1 })); // server-rendered: no bundle to wait for
    await visible(page.locator('#register'));
    await page.close();
  });

  it("keeps a visitor's console clean: no page asks who is logged in without a session cookie", async () => {
    const page = await (await rig.watchedContext({})).newPage(); // a browser of its own: no cookie from the tests before
    const errors: string[] = [];
    const asked: string[] = [];
    // (The 404 page's own status is logged against the page itself: that one is the page, not a question.)
    page.on(
      'console',
      (m) => m.type() === 'error' && m.location().url !== page.url() && errors.push(`${page.url()}: ${m.text()}`),
    );
    page.on('request', (request) => new URL(request.url()).pathname === '/v1/me' && asked.push(page.url()));
    for (const path of ['/', '/games/reflex', '/login', '/register', '/docs/sdk', '/no-such-page', '/play/reflex']) {
      await page.goto(path);
      await until(() => page.locator('#account-nav a[href="/login"], h1').first().isVisible()).toBe(true);
    }
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    // Logged in, the same pages do ask, and the header shows the player.
    const player = await playerSession(page);
    await page.goto('/games/reflex');
    await until(() => text(page.locator('#account-nav'))).toContain(player.display_name);
    expect(asked.length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});
