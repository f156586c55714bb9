// Sharing, link previews, the leaderboard view and the Unlimited pitch, in Debian's Chromium: what a player sees on a
// game's and a profile's page.
import { expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { addUsage } from '../../src/modules/play/usage.repository.js';
import { createPlayerWithToken } from '../helpers/factories.js';
import { browserSuite, isFocused, registerPlayer, text, unlabelledControls, until, visible } from './browser.js';
import { axeViolations } from './axe.js';

const SDK = { 'X-Requested-With': 'ServiceSDK' };

/** Replaces the Web Share API before any script of the page runs: absent, or a stub that records what it was given. */
const WITHOUT_SHARE = `Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value: undefined });`;
const WITH_SHARE = `window.__shared = [];
Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value: function (data) { window.__shared.push(data); return Promise.resolve(); } });`;

browserSuite('sharing and leaderboards: in a real browser', { timeout: 90_000 }, (rig) => {
  /** A context of its own that may read and write the clipboard, with the Web Share API replaced as `share` says. */
  async function sharingContext(share: string): Promise<BrowserContext> {
    const context = await rig.watchedContext({});
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.origin });
    await context.addInitScript(share);
    return context;
  }

  it('shows a crawler the title, description, cover and link preview of a game and a profile before any script runs', async () => {
    const context = await rig.watchedContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/games/reflex');
    await visible(page.getByRole('heading', { name: 'Reflex', level: 1 }));
    await visible(page.locator('main .tagline'));
    await visible(page.locator('main .description'));
    const cover = page.getByAltText('Cover of Reflex');
    await until(() =>
      cover.evaluate((el) => {
        const img = el as unknown as { complete: boolean; naturalWidth: number };
        return img.complete && img.naturalWidth > 0;
      }),
    ).toBe(true);
    const og = (key: string) => page.locator(`meta[property="${key}"]`).getAttribute('content');
    expect(await og('og:title')).toBe('Reflex');
    expect(await og('og:url')).toBe(`${rig.origin}/games/reflex`);
    // The link preview is the PNG card rendered from the cover (a preview renderer ignores SVG covers).
    expect(await og('og:image')).toMatch(new RegExp(`^${rig.origin}/games/reflex/preview\\.png\\?v=`));
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${rig.origin}/games/reflex`);
    await rig.screenshot(page, 'game-page-without-script');

    const player = await createPlayerWithToken(rig.app.ctx, {
      username: 'shown_player',
      display_name: 'Shown & <Player>',
    });
    await page.goto(`/u/${player.player.username}`);
    await visible(page.getByRole('heading', { name: 'Shown & <Player>', level: 1 }));
    expect(await og('og:type')).toBe('profile');
    // An initials avatar is SVG, which preview renderers ignore: the profile's card is the site's PNG share image.
    expect(await og('og:image')).toBe(`${rig.origin}/share.png`);
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary');
    await context.close();
  });

  it('copies the link of a game and of a profile when the browser has no share sheet, and says so', async () => {
    const context = await sharingContext(WITHOUT_SHARE);
    const page = await context.newPage();
    await page.goto('/games/tile-merge');
    await visible(page.getByRole('heading', { name: 'Tile Merge', level: 1 }));
    await page.getByRole('button', { name: 'Share' }).click();
    await until(() => text(page.getByRole('status').filter({ hasText: 'Link' }))).toBe('Link copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${rig.origin}/games/tile-merge`);

    const player = await registerPlayer(rig, page);
    await page.goto(`/u/${player.username}`);
    await visible(page.getByRole('heading', { name: player.display_name, level: 1 }));
    await page.getByRole('button', { name: 'Share' }).click();
    await until(() => text(page.locator('.share-status'))).toBe('Link copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${rig.origin}/u/${player.username}`);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it("uses the system's share sheet (Web Share API) where there is one", async () => {
    const context = await sharingContext(WITH_SHARE);
    const page = await context.newPage();
    await page.goto('/games/reflex');
    await page.evaluate('navigator.clipboard.writeText("before")');
    await page.getByRole('button', { name: 'Share' }).click();
    await until(() => page.evaluate('window.__shared')).toEqual([
      { title: 'Reflex', url: `${rig.origin}/games/reflex` },
    ]);
    // the share sheet took the link: nothing copied, nothing said
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('before');
    expect(await text(page.locator('.share-status'))).toBe('');
    await context.close();
  });

  it("pages through a leaderboard picked from the game's boards, and jumps to the page around the player", async () => {
    // 25 others on Reflex (lower is better: 200, 210 … 440 ms), three on a second board.
    const submit = (token: string, score: number, board = 'main') =>
      rig.app.inject({
        method: 'POST',
        url: '/v1/games/reflex/scores',
        headers: { authorization: `Bearer ${token}` },
        payload: { score, board },
      });
    for (let i = 0; i < 25; i++) {
      const other = await createPlayerWithToken(rig.app.ctx, { username: `lb_other_${i}`, display_name: `Other ${i}` });
      expect((await submit(other.token, 200 + i * 10)).statusCode).toBe(201);
      if (i < 3) expect((await submit(other.token, 900 - i, 'hard_mode')).statusCode).toBe(201);
    }
    await rig.app.ctx.db.updateTable('games').set({ playtime_seconds: 720 }).where('slug', '=', 'reflex').execute();

    const context = await rig.watchedContext({});
    const page = await context.newPage();
    const player = await registerPlayer(rig, page);
    // 365 ms: behind 200 … 360 (17 players), so rank 18, on the second page of ten.
    const mine = await page.request.post('/v1/games/reflex/scores', { headers: SDK, data: { score: 365 } });
    expect(mine.status()).toBe(201);

    await page.goto('/games/reflex');
    const board = page.getByLabel('Board', { exact: true });
    await until(() => board.locator('option').allInnerTexts()).toEqual(['main', 'hard_mode']);
    expect(await page.locator('input[name="board"]').count()).toBe(0); // no free-text field any more
    const rows = page.locator('.leaderboard tbody tr');
    const info = page.locator('.leaderboard .page-info');
    await until(() => text(info)).toBe('Ranks 1–10 of 26');
    expect(await rows.count()).toBe(10);
    await until(() => text(page.locator('.my-rank'))).toBe('Your rank: #18 with 365 ms');
    const previous = page.getByRole('button', { name: '← Previous' });
    const next = page.getByRole('button', { name: 'Next →' });
    expect(await previous.isDisabled()).toBe(true);

    await next.click();
    await until(() => text(info)).toBe('Ranks 11–20 of 26');
    expect(new URL(page.url()).searchParams.get('offset')).toBe('10');
    await next.click();
    await until(() => text(info)).toBe('Ranks 21–26 of 26');
    expect(await rows.count()).toBe(6);
    await until(() => next.isDisabled()).toBe(true);
    // The button that went disabled had the focus: it moved to Previous, not to <body>.
    await until(() => isFocused(previous)).toBe(true);
    await previous.click();
    await previous.click();
    await until(() => text(info)).toBe('Ranks 1–10 of 26');
    expect(await page.locator('.leaderboard tr.me').count()).toBe(0);

    await page.getByRole('button', { name: 'Around me' }).click();
    await until(() => text(info)).toBe('Ranks 11–20 of 26');
    const me = page.locator('.leaderboard tr.me');
    await until(() => text(me)).toContain(player.display_name);
    expect(await me.getAttribute('aria-current')).toBe('true');
    expect(await text(me.locator('td').first())).toBe('#18');
    await rig.screenshot(page, 'leaderboard-around-me');
    expect(await axeViolations(page)).toEqual([]);

    // Another board: its own rows, from its first page; the period switch keeps the board.
    await board.selectOption('hard_mode');
    await until(() => text(page.locator('.leaderboard caption'))).toContain('Board “hard_mode”');
    await until(() => rows.count()).toBe(3);
    await until(() => text(page.locator('.my-rank'))).toBe('You have no score on this board for this period yet.');
    await until(() => page.locator('.leaderboard .pager').isVisible()).toBe(false); // one page: no pager
    await page.getByLabel('Today').check();
    await until(() => text(page.locator('.leaderboard caption'))).toBe('Board “hard_mode”, today, lowest first');
    const url = new URL(page.url());
    expect([url.searchParams.get('board'), url.searchParams.get('period'), url.searchParams.get('offset')]).toEqual([
      'hard_mode',
      'day',
      null,
    ]);

    // A link to a page of a board opens there.
    await page.goto('/games/reflex?board=main&period=all&offset=20');
    await until(() => text(info)).toBe('Ranks 21–26 of 26');
    await until(() => board.inputValue()).toBe('main');

    // One word for one thing, a human duration, one date format.
    const headers = await page.locator('.leaderboard thead th').allInnerTexts();
    expect(headers).toContain('Scores submitted');
    expect(headers).not.toContain('Plays');
    const detail = (term: string) =>
      text(page.locator('.details dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]'));
    expect(await page.locator('.details dt').allInnerTexts()).not.toContain('Hours played');
    expect(await detail('Time played')).toBe('12 min');
    const dateFormat = /^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/;
    expect(await detail('Released')).toMatch(dateFormat);
    expect(await text(rows.first().locator('td').last())).toMatch(dateFormat);
    expect(await unlabelledControls(page)).toEqual([]);

    // On a phone: the picker, the pages and the table fit the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Around me' }).click();
    await until(() => text(info)).toBe('Ranks 11–20 of 26');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await rig.screenshot(page, 'leaderboard-phone');
    await context.close();
  });

  it("offers a free player the Unlimited pitch instead of Play on a premium game, and says when today's free time is used up", async () => {
    const context = await rig.watchedContext({});
    const page = await context.newPage();
    const player = await registerPlayer(rig, page);
    await page.goto('/games/comet-snake');
    const pitch = page.locator('[data-upsell="premium"]');
    await visible(pitch);
    await until(() => text(pitch)).toContain('What Unlimited gives you');
    expect(await page.getByRole('link', { name: 'Play', exact: true }).count()).toBe(0);
    expect(await page.locator('.game-intro .button.primary').count()).toBe(0);
    // upgrade_url is unset on this service: no link to nowhere.
    expect(await page.getByRole('link', { name: 'Get Unlimited' }).count()).toBe(0);
    await rig.screenshot(page, 'premium-game-free-player');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto('/play/comet-snake');
    await visible(page.locator('[data-screen="premium"]'));
    expect(await page.getByRole('link', { name: 'Get Unlimited' }).count()).toBe(0);

    // A game anyone may play: Play is the main button while there is time left…
    await page.goto('/games/tile-merge');
    await visible(page.locator('.game-intro a.button.primary', { hasText: 'Play' }));
    expect(await page.locator('[data-upsell]').count()).toBe(0);

    // …and once today's free time is used up, the page says so and when it comes back, and Play steps back.
    const { day, allowance_seconds } = (await (await page.request.get('/v1/me/entitlement', { headers: SDK })).json())
      .data as { day: string; allowance_seconds: number };
    await addUsage(rig.app.ctx.db, player.id, day, allowance_seconds, allowance_seconds);
    await page.reload();
    const limit = page.locator('[data-upsell="limit"]');
    await visible(limit);
    await until(() => text(limit)).toMatch(
      /Your free play time for today \(12 s\) is used up\. It comes back in .+, at midnight\./,
    );
    expect(await page.locator('.game-intro .button.primary').count()).toBe(0);
    await visible(page.getByRole('link', { name: 'Play', exact: true }));

    // An Unlimited member sees Play on the premium game, and no pitch.
    await registerPlayer(rig, page, { unlimited: true });
    await page.goto('/games/comet-snake');
    await visible(page.locator('.game-intro a.button.primary', { hasText: 'Play' }));
    expect(await page.locator('[data-upsell]').count()).toBe(0);
    await context.close();
  });

  it('saw no script error and no CSP violation on any page', () => {
    expect(rig.problems).toEqual([]);
  });
});

const SHOP = 'https://shop.example.com/unlimited?from=portal';

browserSuite(
  'the Unlimited pitch with upgrade_url set: in a real browser',
  { timeout: 90_000, rig: { settings: { upgrade_url: SHOP } } },
  (rig) => {
    const getUnlimited = (page: Page) => page.getByRole('link', { name: 'Get Unlimited' });

    it('links "Get Unlimited" to upgrade_url on the premium game page and on the premium and limit screens of the play shell', async () => {
      const page = await rig.newPage();
      await registerPlayer(rig, page);
      await page.goto('/games/comet-snake');
      await visible(getUnlimited(page));
      expect(await getUnlimited(page).getAttribute('href')).toBe(SHOP);
      expect(await getUnlimited(page).getAttribute('class')).toContain('primary');

      await page.goto('/play/comet-snake');
      const premium = page.locator('[data-screen="premium"]');
      await visible(premium);
      expect(await premium.getByRole('link', { name: 'Get Unlimited' }).getAttribute('href')).toBe(SHOP);

      const player = await registerPlayer(rig, page);
      const { day, allowance_seconds } = (await (await page.request.get('/v1/me/entitlement', { headers: SDK })).json())
        .data as { day: string; allowance_seconds: number };
      await addUsage(rig.app.ctx.db, player.id, day, allowance_seconds, allowance_seconds);
      await page.goto('/play/tile-merge');
      const limit = page.locator('[data-screen="limit"]');
      await visible(limit);
      expect(await limit.getByRole('link', { name: 'Get Unlimited' }).getAttribute('href')).toBe(SHOP);
      await rig.screenshot(page, 'limit-screen-get-unlimited');

      // Unlimited members are not pitched.
      await registerPlayer(rig, page, { unlimited: true });
      await page.goto('/games/comet-snake');
      await visible(page.locator('.game-intro a.button.primary', { hasText: 'Play' }));
      expect(await getUnlimited(page).count()).toBe(0);
      await page.close();
    });

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);
