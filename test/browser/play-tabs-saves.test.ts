// One game, one tab, and no save overwritten silently, in Debian's Chromium: a second tab (or another device) takes
// the game over and the first one says so and offers to play there again, without the two fighting; Tile Merge asks
// before it saves over a slot changed elsewhere, and its autosave at the limit goes to an empty slot instead.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dayWindow } from '../../src/time.js';
import { beatAfter, browserSuite, dealtBoard, nextAnswer, registerPlayer, text, until, visible } from './browser.js';

const SDK = { 'X-Requested-With': 'ServiceSDK' };

browserSuite(
  'play tabs and saves: in a real browser',
  { timeout: 90_000, rig: { settings: { free_seconds_per_day: 100 } } },
  (rig) => {
    const frameOf = (page: Page) => page.frameLocator('iframe.game-frame');
    const plays = async (page: Page) =>
      (await (await page.request.get('/v1/games/tile-merge')).json()).data.stats.plays as number;

    /** Counts the heartbeats a page sends from now on. */
    function heartbeats(page: Page) {
      const sent: number[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/play/heartbeat') sent.push(Date.now());
      });
      return sent;
    }

    /** Makes one move in Tile Merge (a direction that changes the board). */
    async function move(page: Page) {
      const grid = frameOf(page).locator('#grid');
      const start = await dealtBoard(grid);
      for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) {
        await grid.press(key);
        if ((await grid.getAttribute('data-board')) !== start) return;
      }
      throw new Error('no move changed the board');
    }

    it('a second tab takes the game over; the first stops beating, says so, and can take it back; one play is counted', async () => {
      const first = await rig.clockedPage();
      await registerPlayer(rig, first, { unlimited: true });
      const before = await plays(first);
      await first.goto('/play/tile-merge');
      await visible(frameOf(first).locator('#grid'));
      await move(first);
      const board = await frameOf(first).locator('#grid').getAttribute('data-board');
      const firstBeats = heartbeats(first);

      // The same game in a second tab of the same browser.
      const second = await first.context().newPage();
      const secondBeats = heartbeats(second);
      await second.goto('/play/tile-merge');
      await visible(frameOf(second).locator('#grid'));
      const taken = first.locator('[data-screen="replaced"]');
      await visible(taken);
      expect(await text(taken.getByRole('heading'))).toBe('Playing in another tab');
      expect(await text(taken)).toContain('Tile Merge is open in another tab');
      // The first tab's game is paused behind the notice, not gone.
      await until(() => frameOf(first).locator('body.paused').count()).toBe(1);
      await rig.screenshot(first, 'play-tabs-replaced');

      // A minute later: the second tab beats every 5 s, the first not once (it asked once, when it heard of the second).
      const asked = firstBeats.length;
      expect(asked).toBeLessThanOrEqual(1);
      for (let i = 0; i < 12; i++) await beatAfter(rig, second, 5);
      expect(secondBeats.length).toBe(12);
      expect(firstBeats.length).toBe(asked);
      await visible(taken);
      expect(await plays(first)).toBe(before + 1);

      // Back to the first tab: it plays here again, the same game on the board; now the second says so.
      const back = nextAnswer(first, '/v1/play/start');
      await taken.getByRole('button', { name: 'Play here' }).click();
      expect((await back).status()).toBe(200);
      await until(() => taken.count()).toBe(0);
      await until(() => frameOf(first).locator('body.paused').count()).toBe(0);
      expect(await frameOf(first).locator('#grid').getAttribute('data-board')).toBe(board);
      await visible(second.locator('[data-screen="replaced"]'));
      const secondAsked = secondBeats.length;
      for (let i = 0; i < 6; i++) await beatAfter(rig, first, 5);
      expect(firstBeats.length).toBe(asked + 6);
      expect(secondBeats.length).toBeLessThanOrEqual(secondAsked + 1);
      await move(first); // the game plays on
      expect(await plays(first)).toBe(before + 1);

      // Another device (another browser, no tab to tell): the first tab learns it from its next heartbeat's 410.
      const device = await rig.watchedContext({});
      await device.addCookies(await first.context().cookies());
      const started = await (await device.newPage()).request.post('/v1/play/start', {
        headers: SDK,
        data: { game: 'tile-merge' },
      });
      expect(started.status()).toBe(200);
      const told = nextAnswer(first, '/v1/play/heartbeat');
      await rig.elapse(first, 5);
      expect(await (await told).json()).toMatchObject({
        ok: false,
        error: { code: 'session_ended', reason: 'replaced' },
      });
      await visible(taken);
      expect(await text(taken.getByRole('heading'))).toBe('Playing in another tab or on another device');
      const after = firstBeats.length;
      for (let i = 0; i < 4; i++) await rig.elapse(first, 5);
      expect(firstBeats.length).toBe(after);
      expect(await plays(first)).toBe(before + 1);
      await device.close();
      await first.context().close();
    });

    it('asks before saving over a slot changed on another device, and autosaves at the limit into an empty slot instead', async () => {
      const page = await rig.clockedPage();
      const player = await registerPlayer(rig, page);
      const today = dayWindow(rig.clock.now(), rig.app.ctx.config.reset_timezone).day;
      await rig.app.ctx.db
        .insertInto('daily_usage')
        .values({ player_id: player.id, day: today, seconds: 80, sessions: 1 })
        .execute();
      await page.goto('/play/tile-merge');
      const frame = frameOf(page);
      await until(() => frame.locator('#slots li').count()).toBe(3);
      await move(page);
      await frame.getByRole('button', { name: 'Save to slot 1' }).click();
      await until(() => text(frame.locator('#status'))).toBe('Saved to slot 1 (version 1).');

      const slot0 = async () =>
        (await (await page.request.get('/v1/games/tile-merge/states/0', { headers: SDK })).json()).data.state;
      const elsewhere = async (version: number, label: string) => {
        const res = await page.request.put('/v1/games/tile-merge/states/0', {
          headers: SDK,
          data: {
            expected_version: version,
            label,
            state: { format: 1, cells: Array(16).fill(2), score: 4242, moves: 99, over: false },
          },
        });
        expect(res.status()).toBe(200);
      };

      // Another device saves slot 1 meanwhile: the game's next save there asks, and Overwrite is the player's choice.
      await elsewhere(1, 'Saved on the phone');
      await frame.getByRole('button', { name: 'Save to slot 1' }).click();
      const question = frame.getByRole('dialog');
      await visible(question);
      expect(await text(question)).toContain('Slot 1 was changed on another device');
      expect(await text(question)).toContain('Saved on the phone');
      await rig.screenshot(page, 'play-save-conflict');
      await question.getByRole('button', { name: 'Overwrite slot 1' }).click();
      await until(() => text(frame.locator('#status'))).toBe('Saved to slot 1 (version 3).');
      expect(await slot0()).toMatchObject({ version: 3, label: expect.stringMatching(/points/) });

      // Again, and this time the player keeps the other device's save.
      await elsewhere(3, 'Saved on the phone again');
      await frame.getByRole('button', { name: 'Save to slot 1' }).click();
      await visible(question);
      await question.getByRole('button', { name: 'Keep the other save' }).click();
      await until(() => question.isVisible()).toBe(false);
      expect(await slot0()).toMatchObject({ version: 4, label: 'Saved on the phone again' });

      // The free time runs out (20 s left, a beat every 5 s): at `pause`, 1.5 s before the last beat, the autosave,
      // told of the conflict, leaves slot 1 alone and takes the empty slot 2.
      for (const left of [15, 10, 5])
        expect((await beatAfter(rig, page, 5)).data.entitlement.remaining_seconds).toBe(left);
      const autosave = nextAnswer(page, '/v1/games/tile-merge/states/1');
      await rig.elapse(page, 3.5);
      expect((await autosave).status()).toBe(201);
      await until(() => frame.locator('body.paused').count()).toBe(1);
      await until(() => text(frame.locator('#status'))).toBe(
        'Autosaved to slot 2: slot 1 was changed on another device.',
      );
      expect((await beatAfter(rig, page, 1.5)).data.limit_reached).toBe(true);
      await visible(page.locator('[data-screen="limit"]'));
      const states = (await (await page.request.get('/v1/games/tile-merge/states', { headers: SDK })).json()).data
        .states;
      expect(states).toEqual([
        expect.objectContaining({ slot: 0, version: 4, label: 'Saved on the phone again' }),
        expect.objectContaining({ slot: 1, version: 1, label: expect.stringMatching(/^Autosave/) }),
      ]);
      await page.context().close();
    });

    it('saw no script error and no CSP violation on any page', () => {
      expect(rig.problems).toEqual([]);
    });
  },
);
