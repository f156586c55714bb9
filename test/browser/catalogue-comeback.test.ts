// Finding and coming back, in Debian's Chromium: the catalogue's URL and history (Back restores the previous filter),
// its sort, a search without results, the loading state, keyboard focus on chips and on the favourite button, and the
// featured games and the player's own rows (continue playing, favourites) on the home and account pages.
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserSuite, isFocused, registerPlayer, text, unlabelledControls, until, visible } from './browser.js';
import { axeViolations } from './axe.js';

const SDK = { 'X-Requested-With': 'ServiceSDK' };

browserSuite('catalogue and coming back: in a real browser', { timeout: 60_000 }, (rig) => {
  const cards = (page: Page) => page.locator('ul.cards[aria-label="Games"] .card-title');
  const chip = (page: Page, name: RegExp) =>
    page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name });
  const search = (page: Page) => page.getByLabel('Search games');
  const sort = (page: Page) => page.getByLabel('Sort by');
  const path = (page: Page) => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };

  it('shows the featured games first, in a "Featured" row, served and kept by the script', async () => {
    await rig.context.clearCookies();
    const db = rig.app.ctx.db;
    await db.updateTable('games').set({ featured_at: Date.now() }).where('slug', '=', 'reflex').execute();
    try {
      const page = await rig.newPage();
      await page.goto('/');
      await until(() => cards(page).count()).toBe(4);
      const featured = page.getByRole('region', { name: 'Featured' });
      await until(() => featured.locator('.card-title').allInnerTexts()).toEqual(['Reflex']);
      const headings = await page.locator('main h2').allInnerTexts();
      expect(headings.indexOf('Featured')).toBe(0);
      expect(headings).toContain('All games');
      await page.close();
    } finally {
      await db.updateTable('games').set({ featured_at: null }).where('slug', '=', 'reflex').execute();
    }
  });

  it('keeps the filter in a shareable URL, and Back returns to the previous filter', async () => {
    await rig.context.clearCookies();
    const page = await rig.newPage();
    await page.goto('/');
    await until(() => cards(page).count()).toBe(4);

    await chip(page, /^Puzzle/).click();
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);
    expect(path(page)).toBe('/?category=puzzle');
    await sort(page).selectOption('name');
    await until(() => path(page)).toBe('/?category=puzzle&sort=name');
    await chip(page, /^All/).click();
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake', 'Reflex', 'Star Catcher', 'Tile Merge']);
    expect(path(page)).toBe('/?sort=name');

    // Typing: the first pause pushes an entry, the letters after it replace that entry.
    await search(page).pressSequentially('com');
    await until(() => path(page)).toBe('/?q=com&sort=name');
    await search(page).pressSequentially('et');
    await until(() => path(page)).toBe('/?q=comet&sort=name');
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake']);

    await page.goBack();
    await until(() => path(page)).toBe('/?sort=name');
    await until(() => cards(page).count()).toBe(4);
    expect(await search(page).inputValue()).toBe('');
    await page.goBack();
    await until(() => path(page)).toBe('/?category=puzzle&sort=name');
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);
    expect(await chip(page, /^Puzzle/).getAttribute('aria-current')).toBe('page');
    expect(await sort(page).inputValue()).toBe('name');
    await page.goBack();
    await until(() => path(page)).toBe('/?category=puzzle');
    expect(await sort(page).inputValue()).toBe('relevance');
    await page.goBack();
    await until(() => path(page)).toBe('/');
    await until(() => cards(page).count()).toBe(4);
    await page.goForward();
    await until(() => path(page)).toBe('/?category=puzzle');
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);

    // A shared link opens the same view.
    await page.goto('/?q=snake&category=arcade&sort=new');
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake']);
    expect(await search(page).inputValue()).toBe('snake');
    expect(await sort(page).inputValue()).toBe('new');
    expect(await chip(page, /^Arcade/).getAttribute('aria-current')).toBe('page');
    expect(await unlabelledControls(page)).toEqual([]);
    await page.close();
  });

  it('sorts by newest and by name', async () => {
    const page = await rig.newPage();
    await page.goto('/?sort=new');
    // The demo games are published at the first start on a clock that stands still (the same first-publish time):
    // the newer release date, Star Catcher's, comes first.
    await until(() => cards(page).first().innerText()).toBe('Star Catcher');
    await sort(page).selectOption('name');
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake', 'Reflex', 'Star Catcher', 'Tile Merge']);
    await page.close();
  });

  it('keeps the chips when a search finds nothing, says so, and clears the search', async () => {
    const page = await rig.newPage();
    await page.goto('/?q=zzzz');
    await visible(page.getByText('No games match “zzzz”.'));
    await until(() => page.getByRole('navigation', { name: 'Categories' }).getByRole('link').allTextContents()).toEqual(
      ['All (0)', 'Action (0)', 'Arcade (0)', 'Puzzle (0)', 'Reflex (0)'],
    );
    expect(await cards(page).count()).toBe(0);
    await rig.screenshot(page, 'catalogue-no-results');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Clear search' }).click();
    await until(() => cards(page).count()).toBe(4);
    expect(path(page)).toBe('/');
    expect(await isFocused(search(page))).toBe(true);
    expect(await page.getByText('No games match').count()).toBe(0);

    // Chips and badges spell a category alike.
    await until(() => chip(page, /^Arcade/).textContent()).toBe('Arcade (1)');
    expect(await page.locator('.card', { hasText: 'Comet Snake' }).locator('.badge').first().innerText()).toBe(
      'Arcade',
    );

    // A search that matches elsewhere, inside a category without a match: the way out names the matches.
    await page.goto('/?q=merge&category=arcade');
    await visible(page.getByText('No games match “merge” in Arcade.'));
    await until(() => chip(page, /^Puzzle/).textContent()).toBe('Puzzle (1)');
    await page.getByRole('button', { name: 'Show all 1 match' }).click();
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);
    expect(path(page)).toBe('/?q=merge');

    // A search for a category's name ("arcade"): q searches the games' own text, so the way out is the category.
    await page.goto('/?q=ARCADE');
    await visible(page.getByText('No games match “ARCADE”.'));
    await page.getByRole('button', { name: 'Show the Arcade category' }).click();
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake']);
    expect(path(page)).toBe('/?category=arcade');
    expect(await page.getByRole('button', { name: 'Show the Arcade category' }).count()).toBe(0);
    await page.close();
  });

  it('shows that the list is loading (aria-busy) until it arrives', async () => {
    // The first page arrives with its cards (served-catalogue.test.ts); a change of filter loads from the API.
    const page = await rig.newPage();
    await page.goto('/');
    await until(() => page.locator('ul.cards:not([data-served])').count()).toBe(1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/v1/games',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await chip(page, /^Puzzle/).click();
    const list = page.locator('ul.cards[aria-label="Games"]');
    await until(() => list.getAttribute('aria-busy')).toBe('true');
    expect(await text(page.getByRole('status').filter({ hasText: 'Loading' }))).toBe('Loading games…');
    release();
    await until(() => list.getAttribute('aria-busy')).toBe('false');
    await until(() => cards(page).count()).toBe(1);
    expect(await page.getByText('Loading games…').count()).toBe(0);
    await page.close();
  });

  it('counts a chip pressed while the list loads and released after it arrived', async () => {
    const page = await rig.newPage();
    await page.goto('/');
    await until(() => cards(page).count()).toBe(4);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/v1/games',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const list = page.locator('ul.cards[aria-label="Games"]');
    await sort(page).selectOption('name');
    await until(() => list.getAttribute('aria-busy')).toBe('true');
    const puzzle = await chip(page, /^Puzzle/).boundingBox();
    await page.mouse.move(puzzle!.x + puzzle!.width / 2, puzzle!.y + puzzle!.height / 2);
    await page.mouse.down();
    release(); // the answer to the sort lands between the press and the release, and updates the chips
    await until(() => list.getAttribute('aria-busy')).toBe('false');
    await page.mouse.up();
    await until(() => path(page)).toBe('/?category=puzzle&sort=name');
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);
    expect(await chip(page, /^Puzzle/).getAttribute('aria-current')).toBe('page');
    expect(await chip(page, /^All/).getAttribute('href')).toBe('/?sort=name');
    await page.close();
  });

  it('keeps the keyboard focus on a chip pressed with Enter or Space', async () => {
    const page = await rig.newPage();
    await page.goto('/');
    await until(() => cards(page).count()).toBe(4);
    await chip(page, /^Puzzle/).focus();
    await page.keyboard.press('Enter');
    await until(() => cards(page).allInnerTexts()).toEqual(['Tile Merge']);
    expect(path(page)).toBe('/?category=puzzle');
    await until(() => isFocused(chip(page, /^Puzzle/))).toBe(true);

    await page.keyboard.press('Shift+Tab'); // to the chip before: Arcade
    expect(await isFocused(chip(page, /^Arcade/))).toBe(true);
    await page.keyboard.press(' ');
    await until(() => cards(page).allInnerTexts()).toEqual(['Comet Snake']);
    expect(path(page)).toBe('/?category=arcade');
    await until(() => isFocused(chip(page, /^Arcade/))).toBe(true);
    expect(await page.evaluate('window.scrollY')).toBe(0); // Space pressed the chip rather than scrolling the page
    await page.close();
  });

  it('shows favourites and recently played games, with Continue to the last save, on home and on the account page', async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);

    // Favourite Reflex from its page with the keyboard: the focus stays on the button through each press.
    await page.goto('/games/reflex');
    const favourite = page.getByRole('button', { name: /favourite/i });
    await favourite.focus();
    await page.keyboard.press('Enter');
    await until(() => favourite.getAttribute('aria-pressed')).toBe('true');
    expect(await isFocused(favourite)).toBe(true);
    await page.keyboard.press(' ');
    await until(() => favourite.getAttribute('aria-pressed')).toBe('false');
    expect(await isFocused(favourite)).toBe(true);
    await page.keyboard.press('Enter');
    await until(() => favourite.getAttribute('aria-pressed')).toBe('true');
    await until(() => isFocused(favourite)).toBe(true);
    // A toggle that fails says so next to the button, which keeps showing what is stored.
    await page.route('**/v1/games/reflex/favorite', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          ok: false,
          error: { code: 'unavailable', message: 'The service is restarting; try again shortly' },
        }),
      }),
    );
    await page.keyboard.press('Enter');
    await until(() => text(page.locator('.favourite-status'))).toBe(
      'Favourites not changed: The service is restarting; try again shortly',
    );
    expect(await favourite.getAttribute('aria-pressed')).toBe('true');
    await page.unroute('**/v1/games/reflex/favorite');

    // Play Tile Merge and save in slot 1 (what the game does through the SDK).
    const start = await page.request.post('/v1/play/start', { headers: SDK, data: { game: 'tile-merge' } });
    expect(start.status()).toBe(200);
    const saved = await page.request.put('/v1/games/tile-merge/states/1', {
      headers: SDK,
      data: { state: { level: 3 }, label: 'Level 3' },
    });
    expect(saved.status()).toBe(201);

    await page.goto('/');
    const continueRow = page.getByRole('region', { name: 'Continue playing' });
    await visible(continueRow);
    expect(await continueRow.locator('.card-title').allInnerTexts()).toEqual(['Tile Merge']);
    expect(await text(continueRow.locator('.card-note').filter({ hasText: 'Last save' }))).toMatch(
      /^Last save: Level 3, saved \d/,
    );
    // Continue names the slot saved last (slot index 1), for the game to load it (init()'s `continue`).
    expect(await continueRow.getByRole('link', { name: 'Continue Tile Merge' }).getAttribute('href')).toBe(
      '/play/tile-merge?continue=1',
    );
    const favouritesRow = page.getByRole('region', { name: 'Your favourites' });
    expect(await favouritesRow.locator('.card-title').allInnerTexts()).toEqual(['Reflex']);
    await until(() => cards(page).count()).toBe(4); // the whole catalogue still follows
    await rig.screenshot(page, 'catalogue-come-back');
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await rig.screenshot(page, 'catalogue-come-back-phone');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1200, height: 900 });

    await page.goto('/account');
    const yours = page.getByRole('region', { name: 'Your games' });
    await visible(yours.getByRole('link', { name: 'Continue Tile Merge' }));
    expect(await text(yours)).toContain('Level 3, saved');
    expect(await yours.getByRole('link', { name: 'Reflex' }).getAttribute('href')).toBe('/games/reflex');

    await continueRowGone(page);
    await page.close();
  });

  /** A visitor who is not logged in sees the catalogue alone. */
  async function continueRowGone(page: Page): Promise<void> {
    await page.context().clearCookies();
    await page.goto('/');
    await until(() => cards(page).count()).toBe(4);
    const rows: Locator = page.getByRole('region', { name: /Continue playing|Your favourites/ });
    expect(await rows.count()).toBe(0);
  }

  it('saw no console errors and no CSP violations', () => {
    expect(rig.problems).toEqual([]);
  });
});
