// The studio console's editing views in Chromium, on a phone (390×844) and a laptop (1366×768): a studio member uploads
// a build's zip with the file input and others by drag and drop and after a broken connection (Resume), watches the
// progress finish and the builds appear, sees a refused zip in the API's words, releases a build; edits the listing's
// name and sees the catalogue's card change as they type, saves, and the public API says it; uploads a cover and a
// screenshot; creates a developer key (shown once) and revokes it. Every view is axe-clean and fits the phone's width.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURES_DIR } from '../helpers/factories.js';
import { addMember, buildZip, createStudio, createStudioGame } from '../helpers/studios.js';
import { expectAccessible } from './axe.js';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  laptop: { viewport: { width: 1366, height: 768 } },
};
const API = { 'X-Requested-With': 'ServiceSDK' };

browserSuite('studio console: upload, listing editor and developer keys', { timeout: 120_000 }, (rig) => {
  for (const [size, options] of Object.entries(SIZES)) {
    it(`works at the ${size} size, axe-clean`, async () => {
      const context = await rig.watchedContext(options);
      const page = await context.newPage();
      const fits = async (where: string) => {
        expect(
          await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
          where,
        ).toBe(true);
      };
      const member = await registerPlayer(rig, page);
      const studio = await createStudio(rig.app.ctx);
      await addMember(rig.app.ctx, studio.id, member.id);
      const game = await createStudioGame(rig.app.ctx, studio.id, { name: `Edit ${size}` });
      const consoleUrl = `/studio?game=${game.slug}`;

      // Builds (the default view): a zip through the file input becomes build 1.
      await page.goto(consoleUrl);
      await visible(page.getByRole('heading', { level: 2, name: 'Builds' }));
      expect(await page.getByRole('link', { name: 'Builds' }).getAttribute('aria-current')).toBe('page');
      const zip = await buildZip(game.slug, { manifest: { version: '1.0.0', name: `Edit ${size}` } });
      await page.getByLabel('Build zip').setInputFiles({ name: 'build.zip', mimeType: 'application/zip', buffer: zip });
      await until(() => text(page.getByRole('status').filter({ hasText: 'Build 1' }))).toContain(
        'Build 1 (1.0.0) is uploaded',
      );
      const progress = page.locator('progress');
      expect(await progress.evaluate((p: { value: number; max: number }) => [p.value, p.max])).toEqual([
        zip.length,
        zip.length,
      ]);
      await until(() => text(page.locator('.upload-progress'))).toContain('(100%)');
      await visible(page.getByRole('button', { name: 'Release 1' }));
      await expectAccessible(page, `${size} builds`);
      await fits(`${size} builds`);

      // A second zip dropped on the zone (a DataTransfer dispatched as a drop) becomes build 2.
      const second = await buildZip(game.slug, { manifest: { version: '1.1.0' } });
      await page.evaluate(
        `(() => {
          const bytes = Uint8Array.from(atob('${second.toString('base64')}'), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], 'second.zip', { type: 'application/zip' }));
          const zone = document.querySelector('.dropzone');
          zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
          zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        })()`,
      );
      await until(() => text(page.getByRole('status').filter({ hasText: 'Build 2' }))).toContain(
        'Build 2 (1.1.0) is uploaded',
      );
      await visible(page.getByRole('button', { name: 'Release 2' }));

      // The network fails under every try of a part: the upload stops with a Resume button, which sends what is missing.
      const third = await buildZip(game.slug, { manifest: { version: '1.2.0' } });
      await page.route('**/parts/1', (route) => route.abort('connectionreset'));
      await page
        .getByLabel('Build zip')
        .setInputFiles({ name: 'third.zip', mimeType: 'application/zip', buffer: third });
      await until(() => text(page.getByRole('alert'))).toContain('The service cannot be reached');
      await page.unroute('**/parts/1');
      await page.getByRole('button', { name: 'Resume the upload' }).click();
      await until(() => text(page.getByRole('status').filter({ hasText: 'Build 3' }))).toContain(
        'Build 3 (1.2.0) is uploaded',
      );
      expect(await page.getByRole('button', { name: 'Resume the upload' }).isVisible()).toBe(false);

      // A file that is not a build: refused in the API's words, and no build is made.
      await page
        .getByLabel('Build zip')
        .setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all') });
      await until(() => text(page.getByRole('alert'))).toContain('notes.zip was not uploaded.');
      expect(await text(page.getByRole('alert'))).toContain('The upload is not a zip file');
      expect(await page.getByRole('button', { name: 'Release 4' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Release 1' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'Build 1 released.' }));
      const published = await page.request.put(`/v1/studio/games/${game.slug}/status`, {
        headers: API,
        data: { status: 'published' },
      });
      expect(published.status()).toBe(200);

      // Listing: the card beside the form is the catalogue's card, changed as the name is typed.
      await page.getByRole('link', { name: 'Listing' }).click();
      await visible(page.getByRole('heading', { level: 2, name: 'Listing' }));
      const card = page.locator('.card-preview .card-title');
      await until(() => text(card)).toBe(`Edit ${size}`);
      await expectAccessible(page, `${size} listing`);
      await fits(`${size} listing`);
      // A category the API refuses: its message lands under the field, and nothing is saved.
      const category = page.getByLabel('Category');
      await category.fill('Not Valid');
      await page.getByRole('button', { name: 'Save the listing' }).click();
      await until(() => category.getAttribute('aria-invalid')).toBe('true');
      expect(await text(page.locator('.field-error:visible'))).toMatch(/^Category /);
      await category.fill('arcade');
      await page.getByLabel('Name').fill(`Renamed ${size}`);
      await until(() => text(card)).toBe(`Renamed ${size}`);
      await page.getByLabel('Tagline (optional)').fill('Dodge the comets');
      await until(() => text(page.locator('.card-preview .card-tagline'))).toBe('Dodge the comets');
      await page.getByRole('button', { name: 'Save the listing' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'The listing is saved' }));
      const listed = await page.request.get(`/v1/games/${game.slug}`, { headers: API });
      expect(listed.status()).toBe(200);
      expect((await listed.json()).data).toMatchObject({ name: `Renamed ${size}`, tagline: 'Dodge the comets' });

      // The cover and a screenshot, sent as the image's bytes: the card shows the new cover.
      const png = readFileSync(path.join(FIXTURES_DIR, 'orbit-dash', 'cover.png'));
      const cover = page.locator('.card-preview img.cover');
      const buildCover = await cover.getAttribute('src');
      await page
        .getByLabel('Cover', { exact: true })
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png });
      await visible(page.getByRole('status').filter({ hasText: 'The cover is uploaded.' }));
      await until(() => cover.getAttribute('src')).not.toBe(buildCover);
      expect(await cover.getAttribute('src')).toMatch(/\.webp$/);
      await page.getByLabel('Add a screenshot').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: png });
      await visible(page.getByRole('img', { name: 'Screenshot 1' }));
      await expectAccessible(page, `${size} listing with pictures`);
      await page.getByRole('button', { name: 'Remove screenshot 1' }).click();
      await visible(page.getByText('No screenshots yet.'));

      // Developer keys: made with a scope, shown once, then revoked with a confirming second press.
      await page.getByRole('link', { name: 'Developer keys' }).click();
      await visible(page.getByRole('heading', { level: 2, name: 'Developer keys' }));
      await expectAccessible(page, `${size} keys, none yet`);
      await page.getByLabel('Key name (optional)').fill('CI deploys');
      await page.getByRole('checkbox', { name: /builds:write/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByLabel('Your new key “CI deploys”');
      await visible(secret);
      expect(await secret.inputValue()).toMatch(/^agk_/);
      await expectAccessible(page, `${size} keys, one made`);
      await fits(`${size} keys`);
      const key = await rig.app.ctx.db
        .selectFrom('developer_keys')
        .select(['id', 'revoked_at'])
        .where('game_id', '=', game.id)
        .executeTakeFirstOrThrow();
      expect(key.revoked_at).toBeNull();
      await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
      await page.getByRole('button', { name: 'Confirm: revoke CI deploys' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'Key “CI deploys” is revoked.' }));
      await visible(page.getByRole('cell', { name: /^Revoked / }));
      const revoked = await rig.app.ctx.db
        .selectFrom('developer_keys')
        .select('revoked_at')
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(revoked.revoked_at).not.toBeNull();
      expect(rig.problems).toEqual([]);
      await context.close();
    });
  }
});
