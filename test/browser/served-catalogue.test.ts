// The served catalogue in Debian's Chromium: the page arrives with its cards (crawlers and readers without script see
// them), and the page script takes them over without a second request, a blank moment or a duplicate card.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe.js';
import { browserSuite, until } from './browser.js';

browserSuite('served catalogue: the script takes the served cards over', { timeout: 60_000 }, (rig) => {
  const titles = (page: Page) => page.locator('ul.cards[aria-label="Games"] .card-title').allInnerTexts();

  /** Counts the cards at every change of <main> from the first parse on: the lowest count once cards were there. */
  const watchCards = (page: Page) =>
    page.addInitScript(`
      window.__cardCounts = [];
      new MutationObserver(() => {
        const main = document.getElementById('main');
        if (main) window.__cardCounts.push(main.querySelectorAll('ul.cards .card').length);
      }).observe(document, { childList: true, subtree: true });
    `);

  it('shows the served cards, then the script owns them: no duplicate, no blank list, no extra request', async () => {
    await rig.context.clearCookies();
    const page = await rig.newPage();
    await watchCards(page);
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/games') listRequests.push(request.url());
    });
    const served = await (await page.request.get('/')).text();
    expect(served).toContain('<span class="card-title">Reflex</span>');

    await page.goto('/');
    // The script's list replaces the served one (which carries data-served).
    await until(() => page.locator('ul.cards:not([data-served])').count()).toBe(1);
    expect(await page.locator('ul.cards[data-served]').count()).toBe(0);
    const shown = await titles(page);
    expect(shown).toHaveLength(4);
    expect(new Set(shown).size).toBe(4);
    expect(await page.locator('main .card').count()).toBe(4);
    const counts = (await page.evaluate('window.__cardCounts')) as number[];
    const fromFirst = counts.slice(counts.findIndex((n) => n > 0));
    expect(Math.min(...fromFirst)).toBe(4);
    expect(Math.max(...fromFirst)).toBe(4);
    expect(listRequests).toEqual([]);
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /games?$/ })
        .first()
        .innerText(),
    ).toBe('4 games');

    // The chips the script built from the served ones filter as before.
    await page
      .getByRole('navigation', { name: 'Categories' })
      .getByRole('link', { name: /^Puzzle/ })
      .click();
    await until(() => titles(page)).toEqual(['Tile Merge']);
    expect(new URL(page.url()).search).toBe('?category=puzzle');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('takes over a served category and a served search the same way', async () => {
    const page = await rig.newPage();
    await page.goto('/?category=puzzle');
    await until(() => page.locator('ul.cards:not([data-served])').count()).toBe(1);
    expect(await titles(page)).toEqual(['Tile Merge']);
    expect(
      await page
        .getByRole('navigation', { name: 'Categories' })
        .getByRole('link', { name: /^Puzzle/ })
        .getAttribute('aria-current'),
    ).toBe('page');

    await page.goto('/?q=comet');
    await until(() => page.locator('ul.cards:not([data-served])').count()).toBe(1);
    await until(() => titles(page)).toEqual(['Comet Snake']);
    expect(await page.getByLabel('Search games').inputValue()).toBe('comet');
    expect(rig.problems).toEqual([]);
  });
});
