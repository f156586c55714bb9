// The game page's thumbs up and down, screenshot gallery and "More like this", in Debian's Chromium.
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { browserSuite, isFocused, registerPlayer, text, until, visible } from './browser.js';
import { axeViolations } from './axe.js';

browserSuite('game page: ratings, screenshots and more like this, in a real browser', { timeout: 90_000 }, (rig) => {
  /** Gives the game `count` stored screenshots (WebP of different shapes), as the studio's uploads leave them. */
  async function screenshots(slug: string, count: number): Promise<void> {
    const game = await rig.app.ctx.db
      .selectFrom('games')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    const files: string[] = [];
    for (let i = 0; i < count; i++) {
      const file = `games/${game.id}/shot${String(i).padStart(12, '0')}.webp`;
      const picture = await sharp({
        create: { width: 320 + i * 100, height: 180, channels: 3, background: { r: 40 * i, g: 120, b: 200 } },
      })
        .webp()
        .toBuffer();
      await rig.app.ctx.storage.put(`media/${file}`, picture, { contentType: 'image/webp' });
      files.push(file);
    }
    await rig.app.ctx.db
      .updateTable('games')
      .set({ screenshots: JSON.stringify(files) })
      .where('id', '=', game.id)
      .execute();
  }

  it('shows at least three other games as cards under "More like this", never the game itself, premium marked', async () => {
    const page = await rig.newPage();
    await page.goto('/games/tile-merge');
    await visible(page.getByRole('heading', { name: 'Tile Merge', level: 1 }));
    const section = page.locator('section.related');
    await visible(section.getByRole('heading', { name: 'More like this', level: 2 }));
    const cards = section.locator('li.card');
    await until(() => section.locator('ul.cards[aria-busy]').count()).toBe(0);
    expect(await cards.count()).toBeGreaterThanOrEqual(3);
    const links = await section.locator('a.card-link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).not.toContain('/games/tile-merge');
    expect(await cards.filter({ has: page.locator('a[href="/games/comet-snake"]') }).innerText()).toContain(
      'Unlimited only',
    );
    await page.close();
  });

  it('shows the screenshots as a gallery: alt text with the position, lazy, sized, and the arrow keys step', async () => {
    await screenshots('star-catcher', 3);
    const page = await rig.newPage();
    await page.goto('/games/star-catcher');
    const gallery = page.locator('section.gallery');
    await visible(gallery.getByRole('heading', { name: 'Screenshots' }));
    const large = gallery.locator('img.gallery-picture');
    expect(await large.getAttribute('alt')).toBe('Star Catcher, screenshot 1 of 3');
    expect(await large.getAttribute('loading')).toBe('lazy');
    expect([await large.getAttribute('width'), await large.getAttribute('height')]).toEqual(['1280', '720']);
    for (const thumb of await gallery.locator('.gallery-thumb img').all()) {
      expect(await thumb.getAttribute('loading')).toBe('lazy');
      expect(await thumb.getAttribute('width')).toBe('160');
    }
    // The box is reserved before the picture arrives: its height does not change once it has loaded.
    const box = await large.boundingBox();
    await large.scrollIntoViewIfNeeded();
    await until(() => large.evaluate((el) => (el as unknown as { complete: boolean }).complete)).toBe(true);
    expect((await large.boundingBox())!.height).toBeCloseTo(box!.height, 0);

    await gallery.getByRole('button', { name: 'Next →' }).click();
    expect(await large.getAttribute('alt')).toBe('Star Catcher, screenshot 2 of 3');
    const third = gallery.getByRole('button', { name: 'Show screenshot 3 of 3' });
    await third.focus();
    await page.keyboard.press('Enter');
    expect(await large.getAttribute('alt')).toBe('Star Catcher, screenshot 3 of 3');
    expect(await third.getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await large.getAttribute('alt')).toBe('Star Catcher, screenshot 1 of 3');
    expect(await isFocused(gallery.getByRole('button', { name: 'Show screenshot 1 of 3' }))).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await text(gallery.locator('.gallery-position'))).toBe('Screenshot 3 of 3');
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
    expect(rig.problems).toEqual([]);
    await page.close();
  });

  it('votes with pressed buttons: up, changed to down, taken back; a visitor votes as a new guest', async () => {
    const page = await rig.newPage();
    await page.context().clearCookies();
    await page.goto('/games/reflex');
    const like = page.getByRole('button', { name: '👍 Like' });
    const dislike = page.getByRole('button', { name: '👎 Dislike' });
    const summary = page.locator('.rating-summary');
    await visible(like);
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    await until(() => like.getAttribute('aria-pressed')).toBe('true');
    expect(await text(summary)).toBe('Not enough votes for a rating yet (1 vote)');
    const guest = await page.request.get('/v1/me', { headers: { 'X-Requested-With': 'ServiceSDK' } });
    expect((await guest.json()).data.player.guest).toBe(true);

    await registerPlayer(rig, page);
    await page.reload();
    await visible(like);
    await dislike.click();
    await until(() => dislike.getAttribute('aria-pressed')).toBe('true');
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    expect(await text(summary)).toBe('Not enough votes for a rating yet (2 votes)');
    await page.reload();
    await until(() => dislike.getAttribute('aria-pressed')).toBe('true');
    await dislike.click();
    await until(() => dislike.getAttribute('aria-pressed')).toBe('false');
    expect(await text(summary)).toBe('Not enough votes for a rating yet (1 vote)');
    expect(rig.problems).toEqual([]);
    await page.close();
  });
});
