// The studio console's Numbers and Leaderboards views in Chromium, on a phone (390×844) and a desktop (1366×768): a
// studio member sees the game's charts (uPlot's canvases) with tables that say what the API says, picks another period,
// downloads the CSV, and removes a score with a reason from the keyboard: the row leaves the board and the studio's
// audit log lists the removal. Every view is axe-clean and fits the phone's width.
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createPlayerWithToken } from '../helpers/factories.js';
import { addMember, createStudio, createStudioGame } from '../helpers/studios.js';
import { expectAccessible } from './axe.js';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1366, height: 768 } },
};
const SDK = { 'X-Requested-With': 'ServiceSDK' };
const DAY_MS = 86_400_000;

browserSuite('studio console: numbers and leaderboards in a real browser', { timeout: 180_000 }, (rig) => {
  const s = {} as { studio: { id: number; slug: string }; slug: string; players: Array<{ id: number; name: string }> };

  beforeAll(async () => {
    const { ctx } = rig.app;
    const studio = await createStudio(ctx);
    s.studio = studio;
    const game = await createStudioGame(ctx, studio.id, { status: 'published', files_dir: 'x', cover: 'c.png' });
    s.slug = game.slug;
    s.players = [];
    const now = rig.clock.now();
    for (let i = 0; i < 4; i++) {
      const { player, token } = await createPlayerWithToken(ctx);
      s.players.push({ id: player.id, name: player.username });
      // plays on some of the last six days: a few players a day, one of them back
      for (const daysAgo of [0, 1, 3, 5].slice(0, i + 1)) {
        const at = now - daysAgo * DAY_MS - 60_000;
        await ctx.db
          .insertInto('play_sessions')
          .values({
            token_hash: `studio-console-${game.id}-${i}-${daysAgo}`,
            player_id: player.id,
            game_id: game.id,
            status: 'closed',
            started_at: at,
            last_heartbeat_at: at + 30_000 * (i + 1),
            credited_until: at + 30_000 * (i + 1),
            credited_seconds: 30 * (i + 1),
            ended_at: at + 30_000 * (i + 1),
            end_reason: i === 3 ? 'limit' : 'quit',
            continues_play: 0,
          })
          .execute();
      }
      // one score each, best first: 90, 80, 70, 60
      const res = await rig.app.inject({
        method: 'POST',
        url: `/v1/games/${game.slug}/scores`,
        headers: { authorization: `Bearer ${token}` },
        payload: { score: 90 - 10 * i },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  /** The rows of the table of the chart titled `title`, as shown (the details opened from the keyboard). */
  async function tableOf(page: Page, title: string): Promise<string[][]> {
    const panel = page.locator('section.studio-chart-panel', { has: page.getByRole('heading', { name: title }) });
    const details = panel.locator('details');
    if ((await details.getAttribute('open')) === null) {
      await panel.locator('summary').focus();
      await page.keyboard.press('Enter');
    }
    const rows = panel.locator('.table-wrap tbody tr');
    await visible(rows.first());
    const cells: string[][] = [];
    for (let i = 0; i < (await rows.count()); i++) cells.push(await rows.nth(i).locator('td').allInnerTexts());
    return cells;
  }

  for (const [size, options] of Object.entries(SIZES)) {
    it(`numbers at the ${size} size: charts, tables matching the API, a CSV, axe-clean`, async () => {
      const context = await rig.watchedContext({ ...options, acceptDownloads: true });
      const page = await context.newPage();
      const fits = async (where: string) => {
        expect(
          await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
          where,
        ).toBe(true);
      };
      const member = await registerPlayer(rig, page);
      await addMember(rig.app.ctx, s.studio.id, member.id, 'developer');

      await page.goto(`/studio?game=${s.slug}&view=numbers`);
      await visible(page.getByRole('heading', { level: 2, name: 'Numbers' }));
      expect(await page.getByRole('link', { name: 'Numbers' }).getAttribute('aria-current')).toBe('page');
      await until(() => page.locator('.studio-chart canvas').count()).toBe(8);
      // the portal's own bundle carries no uPlot: the studio page loaded its script
      expect(await page.evaluate('typeof window.gpCharts')).toBe('object');

      const api = async (days: number) => {
        const res = await page.request.get(`/v1/studio/games/${s.slug}/numbers?days=${days}`, { headers: SDK });
        expect(res.status()).toBe(200);
        return (await res.json()).data as { days: Array<Record<string, number | string | null>> };
      };
      const numbers = await api(30);
      expect(numbers.days).toHaveLength(30);
      expect(numbers.days.reduce((sum, d) => sum + Number(d.plays), 0)).toBe(10);
      expect(await tableOf(page, 'Plays and players')).toEqual(
        numbers.days.map((d) => [d.day, String(d.plays), String(d.players)]),
      );
      expect(await tableOf(page, 'Scores and saves')).toEqual(
        numbers.days.map((d) => [d.day, String(d.scores_submitted), String(d.saves_written)]),
      );
      await expectAccessible(page, `${size} numbers`);
      await fits(`${size} numbers`);

      await page.getByLabel('Period').selectOption('7');
      await until(() => page.locator('.studio-charts .table-wrap tbody').first().locator('tr').count()).toBe(7);
      expect(new URL(page.url()).searchParams.get('days')).toBe('7');
      await until(() => page.locator('.studio-chart canvas').count()).toBe(8);
      const week = await api(7);
      expect(await tableOf(page, 'Sessions ended by the free limit')).toEqual(
        week.days.map((d) => [
          d.day,
          String(d.sessions),
          String(d.limit_ended_sessions),
          `${(Number(d.limit_share) * 100).toFixed(1)}%`,
        ]),
      );

      const csv = await page.request.get(`/v1/studio/games/${s.slug}/numbers.csv?days=7`, { headers: SDK });
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download all numbers (CSV)' }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toBe(`${s.slug}-numbers-7d.csv`);
      expect(await readFile((await file.path())!, 'utf8')).toBe(await csv.text());
      await until(() => text(page.getByRole('main').getByRole('status'))).toContain(`${s.slug}-numbers-7d.csv`);

      const oneChart = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download as CSV: Plays and players' }).click();
      const chartFile = await oneChart;
      expect(chartFile.suggestedFilename()).toBe(`${s.slug}-plays-7d.csv`);
      expect((await readFile((await chartFile.path())!, 'utf8')).split('\r\n')[0]).toBe('day,plays,players');
      await rig.screenshot(page, `studio-numbers-${size}`);
      await expectAccessible(page, `${size} numbers, 7 days`);
      await fits(`${size} numbers, 7 days`);
      await context.close();
    });

    it(`leaderboards at the ${size} size: a score removed with a reason, the board reloaded, the audit log`, async () => {
      const context = await rig.watchedContext(options);
      const page = await context.newPage();
      const member = await registerPlayer(rig, page);
      await addMember(rig.app.ctx, s.studio.id, member.id, 'developer');

      await page.goto(`/studio?game=${s.slug}&view=leaderboards`);
      await visible(page.getByRole('heading', { level: 2, name: 'Leaderboards' }));
      const table = page.getByRole('table');
      await visible(table);
      const rows = await table.locator('tbody tr').count();
      const firstRow = await text(table.locator('tbody tr').first().locator('td').nth(1));
      const removed = s.players.find((p) => firstRow.includes(p.name))!;
      expect(removed, firstRow).toBeDefined();
      await expectAccessible(page, `${size} leaderboards`);

      const remove = page.getByRole('button', { name: new RegExp(`^Remove .*${removed.name}`) });
      await remove.focus();
      await page.keyboard.press('Enter');
      await visible(page.getByRole('heading', { level: 3, name: /^Remove .*score$/ }));
      await rig.screenshot(page, `studio-removal-${size}`);
      await expectAccessible(page, `${size} removal form`);
      await page.getByLabel('Reason (kept in the audit log)').fill(`impossible run ${size}`);
      await page.getByRole('button', { name: 'Remove', exact: true }).focus();
      await page.keyboard.press('Enter');
      await until(() => text(page.getByRole('main').getByRole('status'))).toContain(`Removed 1 score of`);
      await until(() => table.locator('tbody tr').count()).toBe(rows - 1);
      expect(await text(table)).not.toContain(removed.name);
      expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(
        true,
      );

      const audit = await page.request.get(`/v1/studio/studios/${s.studio.slug}/audit?q=${size}`, { headers: SDK });
      expect(audit.status()).toBe(200);
      const entries = (await audit.json()).data.entries as Array<{ action: string; reason: string }>;
      expect(entries.map((e) => [e.action, e.reason])).toEqual([['score.remove', `impossible run ${size}`]]);
      await context.close();
    });
  }

  it('ends a board season: the live board starts empty, the ended season reads back with its ranks', async () => {
    const context = await rig.watchedContext(SIZES.phone);
    const page = await context.newPage();
    const member = await registerPlayer(rig, page);
    await addMember(rig.app.ctx, s.studio.id, member.id, 'developer');
    await page.goto(`/studio?game=${s.slug}&view=leaderboards`);
    const table = page.getByRole('table');
    await visible(table);
    const standing = await table.locator('tbody tr').allInnerTexts();
    expect(standing.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Start a new season' }).click();
    await visible(page.getByRole('heading', { level: 3, name: 'End season 1 of the board main?' }));
    await expectAccessible(page, 'the season end question');
    await page.getByRole('button', { name: 'End season 1' }).click();
    await until(() => text(page.getByRole('main').getByRole('status'))).toContain(
      `Season 1 of main ended with ${standing.length} ${standing.length === 1 ? 'player' : 'players'}; season 2 has begun.`,
    );
    await until(() => table.locator('tbody tr').count()).toBe(0);

    // The ended season, picked from the list, shows the standings as they were, without removal.
    await page.getByLabel('Season', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Show' }).click();
    await visible(page.getByRole('heading', { level: 3, name: /^main, season 1: / }));
    await until(() => table.locator('tbody tr').allInnerTexts()).toEqual(
      standing.map((row) => row.replace(/\s*Remove\s*$/, '')),
    );
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start a new season' }).count()).toBe(0);
    await expectAccessible(page, 'an ended season');
    await context.close();
  });

  it('logged no console errors or CSP violations', () => {
    expect(rig.problems).toEqual([]);
  });
});
