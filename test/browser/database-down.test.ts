// The header while the database is out of reach, in a real browser: the page is served with the account area empty,
// the script leaves it so while /v1/me answers 503 (no "Log in" for a player who is logged in), and draws the player
// once the API answers again.
import { expect, it } from 'vitest';
import { databaseOutage } from '../helpers/outage.js';
import { browserSuite, registerPlayer, text, until } from './browser.js';

browserSuite('the header with the database out of reach: in a real browser', { timeout: 60_000 }, (rig) => {
  it('keeps the account area empty while the API cannot say, then shows the player', async () => {
    const page = await rig.clockedPage();
    const player = await registerPlayer(rig, page);
    const outage = databaseOutage({ dialect: rig.app.ctx.dialect, config: rig.app.ctx.config });
    await outage.start();
    try {
      const asked = page.waitForResponse((res) => new URL(res.url()).pathname === '/v1/me');
      const served = await page.goto('/docs/sdk');
      expect(served?.status()).toBe(200);
      expect(served?.headers()['cache-control']).toBe('private, no-store');
      expect((await asked).status()).toBe(503);
      // A second on, the answer handled: still empty.
      await rig.elapse(page, 1);
      expect(await text(page.locator('#account-nav'))).toBe('');
      expect(await page.locator('body').getAttribute('data-session')).toBeNull();
    } finally {
      await outage.end();
    }
    // The script asks again 5 seconds after the first answer, and the API answers.
    await rig.elapse(page, 4);
    await until(() => text(page.locator('#account-nav'))).toContain(player.display_name);
    expect(await text(page.locator('#account-nav'))).not.toContain('Log in');
    await page.close();
  });
});
