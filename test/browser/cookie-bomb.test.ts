// A hostile game in the default layout (the portal on gameplatform.localhost, games on its sibling names) sets 180
// cookies of 4 KB on every domain it can: its own host, the games' domain and the portal's. Then the portal, the API and
// another game still load and play, the player is still signed in, and the first answers have expired the bomb
// (docs/operations.md, "Cookie bombs").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { tempDir } from '../helpers/temp.js';
import { browserSuite, text, until, visible, type Rig } from './browser.js';
import { gameJson } from './engine-fixtures.js';

/** Every parent domain of its host the page can name, then its own host: 180 cookies of 4,096 bytes on each. */
const BOMB = `const labels = location.hostname.split('.');
const domains = labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
let n = 0;
for (const domain of ['', ...domains]) {
  for (let i = 0; i < 180; i++) {
    const name = 'bomb' + (n++);
    document.cookie = name + '=' + 'x'.repeat(4096 - name.length - 1) + '; path=/; max-age=31536000' + (domain ? '; domain=' + domain : '');
  }
}
document.body.dataset.result = JSON.stringify({ tried: n, bytes: document.cookie.length });
`;

function hostileGame(): string {
  const root = tempDir('gp-bomb-');
  writeFileSync(path.join(root, 'game.json'), gameJson('bomber'));
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bomber</title></head><body><p>Bomber</p><script src="bomb.js"></script></body></html>',
  );
  writeFileSync(path.join(root, 'bomb.js'), BOMB);
  writeFileSync(path.join(root, 'cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"/>');
  return root;
}

browserSuite(
  'cookie bombs: in a real browser',
  { timeout: 90_000, rig: { host: 'gameplatform.localhost' } },
  (rig: Rig) => {
    const bombs = async (page: Page) =>
      (await page.context().cookies()).filter((c) => c.name.startsWith('bomb')).map((c) => c.domain);

    async function gameFrame(page: Page): Promise<Frame> {
      const handle = await page.locator('iframe.game-frame').elementHandle();
      const frame = (await handle!.contentFrame())!;
      await frame.waitForLoadState('load');
      return frame;
    }

    it('leaves the portal, the API and another game playable, the player signed in, and the bomb expired', async () => {
      await publishGame(rig.app.ctx, hostileGame());
      const page = await rig.newPage();
      await page.goto('/login');
      const status = await page.evaluate(
        `fetch('/v1/auth/register', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'ServiceSDK' }, body: JSON.stringify({ email: 'bombed@example.com', password: 'correct horse battery', display_name: 'Bombed Player' }) }).then((r) => r.status)`,
      );
      expect(status).toBe(201);

      await page.goto('/play/bomber');
      const hostile = await gameFrame(page);
      await until(() => hostile.locator('body').getAttribute('data-result')).not.toBeNull();
      const outcome = JSON.parse((await hostile.locator('body').getAttribute('data-result'))!);
      expect(outcome.tried).toBe(720); // its host, games.gameplatform.localhost, gameplatform.localhost, localhost
      // What the browser kept: its 180 cookies per site, each of 4 KB, most on the portal's own domain.
      expect(outcome.bytes).toBeGreaterThan(500_000);
      expect(await bombs(page)).toContain('.gameplatform.localhost');

      // The portal: its page loads (the first answer expires the bomb on the portal's domain), signed in.
      const portal = await page.goto('/');
      expect(portal!.status()).toBe(200);
      await visible(page.locator('.card').first());
      await until(() => text(page.locator('#account-nav'))).toContain('Bombed Player');
      expect(await bombs(page)).not.toContain('.gameplatform.localhost');
      const me = await page.evaluate(
        `fetch('/v1/me', { headers: { 'X-Requested-With': 'ServiceSDK' } }).then((r) => r.json()).then((b) => b.data.player.display_name)`,
      );
      expect(me).toBe('Bombed Player');

      // Another game: it starts, loads and plays; its first answers expire what was left on the games' domain.
      await page.goto('/play/reflex');
      const reflex = await gameFrame(page);
      await visible(reflex.locator('#pad'));
      expect(await text(reflex.locator('#big'))).toBe('Reflex');
      await reflex.locator('#pad').dispatchEvent('pointerdown');
      await until(() => reflex.locator('#pad').getAttribute('data-state')).not.toBe('idle');
      expect(await bombs(page)).not.toContain('.games.gameplatform.localhost');
      expect(rig.problems).toEqual([]);
    });
  },
);
