// axe-core inside the demo games' frames, in the play shell, with the board dealt and a save listed: no violation of
// impact serious or critical (the portal's pages are axe-pages.test.ts's).
import type { Frame, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { browserSuite, dealtBoard, registerPlayer, visible, type Rig } from './browser.js';

async function gameFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe.game-frame').elementHandle();
  const frame = (await handle!.contentFrame())!;
  await frame.waitForLoadState('load');
  return frame;
}

browserSuite('axe in the demo games', { timeout: 90_000 }, (rig: Rig) => {
  it("finds nothing serious or critical on Tile Merge's board, its controls and its save slots", async () => {
    const page = await rig.newPage();
    await registerPlayer(rig, page);
    await page.goto('/play/tile-merge');
    const frame = await gameFrame(page);
    await dealtBoard(frame.locator('#grid'));
    // A saved slot, so the list's buttons are there too.
    await frame.locator('#slots li').first().getByRole('button', { name: /Save/ }).click();
    await visible(frame.locator('#slots li').first().getByRole('button', { name: /Load/ }));
    expect(await axeViolations(frame)).toEqual([]);
    // The board reads as a grid of four rows of four cells.
    expect(await frame.locator('#grid [role="row"]').count()).toBe(4);
    expect(await frame.locator('#grid [role="row"]').first().locator('[role="gridcell"]').count()).toBe(4);
    await page.close();
  });

  it.each(['reflex', 'comet-snake', 'star-catcher'])('finds nothing serious or critical in %s', async (slug) => {
    const page = await rig.newPage();
    await registerPlayer(rig, page, { unlimited: true });
    await page.goto(`/play/${slug}`);
    const frame = await gameFrame(page);
    expect(await axeViolations(frame)).toEqual([]);
    await page.close();
  });
});
