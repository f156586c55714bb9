// The listing editor and the status: fields checked as game.json's are, pictures uploaded as bytes, draft → beta →
// published, and an operator's review when studios.review is on.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { buildZip, createStudio, createStudioGame, deploy, memberOf, storedKeys } from '../helpers/studios.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2255aa' } })
    .png()
    .toBuffer();

eachDialect(
  'studios: listing and status',
  (h) => {
    let studioId = 0;
    let token = '';
    beforeAll(async () => {
      studioId = (await createStudio(h.ctx)).id;
      token = (await memberOf(h.ctx, studioId)).token;
    });
    /** A game of the studio with build 1 released, in draft. */
    const releasedGame = async () => {
      const game = await createStudioGame(h.ctx, studioId);
      await deploy(h.http, token, game.slug, await buildZip(game.slug));
      await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
      return game;
    };

    describe('listing', () => {
      it('edits the listing fields given, leaves the others, and finds the game by its new words', async () => {
        const game = await releasedGame();
        const res = await h.http.patch(`/v1/studio/games/${game.slug}`, {
          token,
          body: {
            name: 'Comet Rider',
            tagline: null,
            description: 'Line one\r\nLine two',
            category: 'racing',
            tags: ['Space', 'speed'],
            orientation: 'portrait',
            requires_premium: true,
          },
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toMatchObject({
          name: 'Comet Rider',
          tagline: null,
          description: 'Line one\nLine two',
          category: 'racing',
          tags: ['Space', 'speed'],
          orientation: 'portrait',
          requires_premium: true,
          author: 'Nebula Works',
        });
        await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
        const found = await h.http.get('/v1/games', { query: { q: 'comet rider' } });
        expect(found.body.data.games.map((g: { slug: string }) => g.slug)).toContain(game.slug);
        // a later release leaves the edited listing as it is
        await deploy(h.http, token, game.slug, await buildZip(game.slug, { manifest: { version: '9.0.0' } }));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/2/release`, { token });
        const live = (await h.http.get(`/v1/games/${game.slug}`)).body.data;
        expect(live).toMatchObject({ name: 'Comet Rider', version: '9.0.0', orientation: 'portrait' });
      });

      it("refuses bad fields with game.json's messages, every one named, and changes nothing", async () => {
        const game = await releasedGame();
        const res = await h.http.patch(`/v1/studio/games/${game.slug}`, {
          token,
          body: { name: '  ', category: 'Not A Category', tags: ['a', 'A'] },
        });
        expect(res.status).toBe(422);
        expect(res.body.error.fields).toEqual({
          name: 'must not be empty',
          category:
            'must be 1 to 32 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
          'tags[1]': 'repeats "A"',
        });
        expect((await h.http.get(`/v1/studio/games/${game.slug}`, { token })).body.data.name).not.toBe('  ');
      });

      it('takes a cover and screenshots as bytes, serves them, shows the cover in the catalogue and the screenshots on the game', async () => {
        const game = await releasedGame();
        await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'beta' } });
        const cover = await h.http.put(`/v1/studio/games/${game.slug}/cover`, {
          token,
          body: await png(2000, 1000),
          contentType: 'image/png',
        });
        expect(cover.status, cover.text).toBe(200);
        const url = cover.body.data.cover_url as string;
        expect(url).toMatch(new RegExp(`^${h.config.public_url}/media/games/${game.id}/[A-Za-z0-9_-]{16}\\.webp$`));
        const served = await h.http.get(new URL(url).pathname);
        expect(served.status).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(served.rawPayload).metadata();
        expect([meta.width, meta.height]).toEqual([1280, 640]);
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.cover_url).toBe(url);
        for (let i = 0; i < 2; i++)
          await h.http.post(`/v1/studio/games/${game.slug}/screenshots`, {
            token,
            body: await png(300, 200),
            contentType: 'image/png',
          });
        let view = (await h.http.get(`/v1/studio/games/${game.slug}`, { token })).body.data;
        expect(view.screenshots).toHaveLength(2);
        const [first, second] = view.screenshots;
        // The public game shows them in the same order (the game page's gallery); the catalogue's list does not.
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.screenshots).toEqual([first, second]);
        expect((await h.http.get('/v1/games')).body.data.games[0]).not.toHaveProperty('screenshots');
        view = (await h.http.delete(`/v1/studio/games/${game.slug}/screenshots/1`, { token })).body.data;
        expect(view.screenshots).toEqual([second]);
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.screenshots).toEqual([second]);
        expect((await h.http.get(new URL(first).pathname)).status).toBe(404);
        const back = await h.http.delete(`/v1/studio/games/${game.slug}/cover`, { token });
        expect(back.body.data.cover_url).toMatch(/cover\.png$/);
        expect(await storedKeys(h.ctx, `media/games/${game.id}/`)).toHaveLength(1);
      });

      it('refuses a picture that is not one (415), and one too large (413)', async () => {
        const game = await releasedGame();
        const text = await h.http.put(`/v1/studio/games/${game.slug}/cover`, {
          token,
          body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          contentType: 'image/png',
        });
        expect(text.status).toBe(415);
        const big = await h.http.put(`/v1/studio/games/${game.slug}/cover`, {
          token,
          body: Buffer.alloc(8 * 1024 * 1024 + 1),
          contentType: 'image/png',
        });
        expect(big.status).toBe(413);
      });
    });

    describe('status', () => {
      it('needs a released build before beta or published; draft → beta → published → draft', async () => {
        const game = await createStudioGame(h.ctx, studioId);
        const early = await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'beta' } });
        expect(early.status).toBe(422);
        await deploy(h.http, token, game.slug, await buildZip(game.slug));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
        for (const status of ['beta', 'published', 'draft']) {
          const res = await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status } });
          expect(res.status).toBe(200);
          expect(res.body.data).toMatchObject({ applied: true, game: { status } });
          expect((await h.http.get(`/v1/games/${game.slug}`)).status).toBe(status === 'draft' ? 404 : 200);
        }
        expect(
          (await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'retired' } })).status,
        ).toBe(422);
      });
    });
  },
  {},
);

eachDialect(
  'studios: status through review',
  (h) => {
    it("holds a studio's move to published for an operator's review; rejected, then approved", async () => {
      const studio = await createStudio(h.ctx);
      const token = (await memberOf(h.ctx, studio.id)).token;
      const staff = (await createPlayerWithToken(h.ctx, { role: 'staff' })).token;
      const game = await createStudioGame(h.ctx, studio.id);
      await deploy(h.http, token, game.slug, await buildZip(game.slug));
      await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
      const asked = await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
      expect(asked.status).toBe(202);
      expect(asked.body.data).toMatchObject({
        applied: false,
        game: { status: 'draft', review: { status: 'pending', requested_status: 'published', note: null } },
      });
      expect((await h.http.get(`/v1/games/${game.slug}`)).status).toBe(404);
      const queue = await h.http.get('/v1/admin/reviews', { token: staff });
      expect(queue.body.data.games.map((g: { slug: string }) => g.slug)).toEqual([game.slug]);
      const rejected = await h.http.post(`/v1/admin/reviews/${game.slug}`, {
        token: staff,
        body: { decision: 'reject', note: 'The cover is blank' },
      });
      expect(rejected.body.data).toMatchObject({
        status: 'draft',
        review: { status: 'rejected', note: 'The cover is blank' },
      });
      await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
      const approved = await h.http.post(`/v1/admin/reviews/${game.slug}`, {
        token: staff,
        body: { decision: 'approve' },
      });
      expect(approved.body.data).toMatchObject({ status: 'published', review: null });
      expect((await h.http.get(`/v1/games/${game.slug}`)).status).toBe(200);
      expect((await h.http.get('/v1/admin/reviews', { token: staff })).body.data.games).toEqual([]);
      // taking a game down is never reviewed; an operator's change is not either
      expect(
        (await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'draft' } })).status,
      ).toBe(200);
      const byStaff = await h.http.put(`/v1/studio/games/${game.slug}/status`, {
        token: staff,
        body: { status: 'beta' },
      });
      expect(byStaff.body.data).toMatchObject({ applied: true, game: { status: 'beta' } });
    });
  },
  { settings: { 'studios.review': true } },
);
