// The operator console (/admin) in Chromium, on a phone (390×844) and a desktop: a player sees "not allowed"; an
// operator finds a player, suspends them from the keyboard, and reads games, the mail outbox and the audit log;
// every view is axe-clean and fits the phone's width.
import { expect, it } from 'vitest';
import { createGame, createPlayer } from '../helpers/factories.js';
import { expectAccessible } from './axe.js';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 800 } },
};

browserSuite('admin: the operator console in a real browser', { timeout: 120_000 }, (rig) => {
  for (const [size, options] of Object.entries(SIZES)) {
    it(`works at the ${size} size, from the keyboard, axe-clean`, async () => {
      const context = await rig.watchedContext(options);
      const page = await context.newPage();
      const fits = async (where: string) => {
        expect(
          await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
          where,
        ).toBe(true);
      };
      const operator = await registerPlayer(rig, page);
      await page.goto('/admin');
      await visible(page.getByRole('heading', { level: 1, name: 'Not allowed' }));
      await expectAccessible(page, `${size} not allowed`);

      await rig.app.ctx.db.updateTable('players').set({ role: 'staff' }).where('id', '=', operator.id).execute();
      const target = await createPlayer(rig.app.ctx, { username: `target_${size}` });
      await createGame(rig.app.ctx, { status: 'published' });

      await page.goto('/admin');
      await visible(page.getByRole('heading', { level: 1, name: 'Operator console' }));
      await page.getByLabel('Username, email or id').fill(`target_${size}`);
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: `target_${size}` }).click();
      await visible(page.getByRole('heading', { level: 2, name: new RegExp(`target_${size}`) }));
      await expectAccessible(page, `${size} player detail`);
      await fits(`${size} player detail`);
      await page.getByLabel('Reason (kept in the audit log)').fill('spam in chat');
      await page.getByRole('button', { name: 'Suspend' }).focus();
      await page.keyboard.press('Enter');
      await until(() => text(page.getByRole('status'))).toContain('is suspended');
      const row = await rig.app.ctx.db
        .selectFrom('players')
        .select('status')
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('suspended');

      for (const [view, heading] of [
        ['games', 'Games'],
        ['mail', 'Mail outbox'],
        ['audit', 'Audit log'],
      ]) {
        await page.goto(`/admin?view=${view}`);
        await visible(page.getByRole('heading', { level: 2, name: heading }));
        await expectAccessible(page, `${size} ${view}`);
        await fits(`${size} ${view}`);
      }
      // Games: feature one on the home page from its row, then it says so.
      await page.goto('/admin?view=games');
      const feature = page.getByRole('button', { name: /^Feature Reflex on the home page$/ });
      await feature.click();
      await until(() => text(page.getByRole('status'))).toContain('Reflex is featured on the home page.');
      await visible(page.getByRole('button', { name: 'Stop featuring Reflex on the home page' }));
      await page.getByRole('button', { name: 'Stop featuring Reflex on the home page' }).click();
      await until(() => text(page.getByRole('status'))).toContain('Reflex is no longer featured.');
      await page.goto('/admin?view=audit');
      await page.getByLabel('Words').fill('spam in chat');
      await page.getByRole('button', { name: 'Search' }).click();
      await until(() => text(page.locator('table'))).toContain('player.suspend');
      await context.close();
    });
  }
});
