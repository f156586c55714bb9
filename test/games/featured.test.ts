// Featured games: an operator features a game on the home page and stops featuring it, each with an audit entry;
// GET /v1/games?featured=true lists them (and the catalogue flags them); the served home page shows a "Featured" row
// first. Nobody else features a game.
import { describe, expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('games: featured', (h) => {
  describe('PUT and DELETE /v1/admin/games/{slug}/featured', () => {
    it('features games (newest first), flags them in the catalogue, unfeatures them, with audit entries', async () => {
      h.clock.set('2026-11-20T10:00:00Z');
      const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
      const first = await createGame(h.ctx, { name: 'Alpha Featured' });
      const second = await createGame(h.ctx, { name: 'Beta Featured' });
      const plain = await createGame(h.ctx, { name: 'Never Featured' });
      expect((await h.http.get('/v1/games', { query: { featured: 'true' } })).body.data.games).toEqual([]);

      const put = await h.http.put(`/v1/admin/games/${first.slug}/featured`, { token: staff.token });
      expect(put.status, put.text).toBe(200);
      expect(put.body.data).toEqual({ slug: first.slug, featured: true, featured_at: '2026-11-20T10:00:00.000Z' });
      h.clock.advance(60);
      expect((await h.http.put(`/v1/admin/games/${second.slug}/featured`, { token: staff.token })).status).toBe(200);
      // Again: nothing changes, no second entry.
      const again = await h.http.put(`/v1/admin/games/${first.slug}/featured`, { token: staff.token });
      expect(again.body.data.featured_at).toBe('2026-11-20T10:00:00.000Z');

      const featured = await h.http.get('/v1/games', { query: { featured: 'true' } });
      expect(featured.status, featured.text).toBe(200);
      expect(featured.body.data.games.map((g: { slug: string }) => g.slug)).toEqual([second.slug, first.slug]);
      expect(featured.body.data.games.every((g: { featured?: boolean }) => g.featured === true)).toBe(true);
      const all = await h.http.get('/v1/games');
      const flags = Object.fromEntries(
        all.body.data.games.map((g: { slug: string; featured?: boolean }) => [g.slug, g.featured]),
      );
      expect(flags).toEqual({ [first.slug]: true, [second.slug]: true, [plain.slug]: undefined });
      expect((await h.http.get(`/v1/games/${first.slug}`)).body.data.featured).toBe(true);

      const del = await h.http.delete(`/v1/admin/games/${first.slug}/featured`, { token: staff.token });
      expect(del.status, del.text).toBe(200);
      expect(del.body.data).toEqual({ slug: first.slug, featured: false, featured_at: null });
      expect(
        (await h.http.get('/v1/games', { query: { featured: 'true' } })).body.data.games.map(
          (g: { slug: string }) => g.slug,
        ),
      ).toEqual([second.slug]);

      const audit = await h.http.get('/v1/admin/audit', { token: staff.token, query: { target_type: 'game' } });
      expect(
        audit.body.data.entries.map((e: { action: string; target: { id: string }; after: unknown }) => [
          e.action,
          e.target.id,
          e.after,
        ]),
      ).toEqual([
        ['game.unfeature', first.slug, { featured: false }],
        ['game.feature', second.slug, { featured: true }],
        ['game.feature', first.slug, { featured: true }],
      ]);
      await h.http.delete(`/v1/admin/games/${second.slug}/featured`, { token: staff.token });
    });

    it('answers 401 without a credential, 403 to a player who is not an operator, 404 for an unknown game', async () => {
      const player = await createPlayerWithToken(h.ctx);
      const admin = await createPlayerWithToken(h.ctx, { role: 'admin' });
      const game = await createGame(h.ctx);
      expect((await h.http.put(`/v1/admin/games/${game.slug}/featured`)).status).toBe(401);
      const refused = await h.http.put(`/v1/admin/games/${game.slug}/featured`, { token: player.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
      expect((await h.http.delete(`/v1/admin/games/${game.slug}/featured`, { token: player.token })).status).toBe(403);
      expect((await h.http.put('/v1/admin/games/no-such-game/featured', { token: admin.token })).status).toBe(404);
      expect((await h.http.get('/v1/games', { query: { featured: 'true' } })).body.data.games).toEqual([]);
    });
  });

  describe('the home page', () => {
    it('serves a "Featured" row first when a game is featured, and none otherwise', async () => {
      const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
      const game = await createGame(h.ctx, { name: 'Shelf <Star>' });
      const before = await h.http.get('/');
      expect(before.status).toBe(200);
      expect(before.text).toContain('<div class="shelves"></div>');
      expect(before.text).not.toContain('shelf-featured');
      await h.http.put(`/v1/admin/games/${game.slug}/featured`, { token: staff.token });
      const page = await h.http.get('/');
      const shelves = /<div class="shelves">(.*?)<\/div><h2/s.exec(page.text)?.[1] ?? '';
      expect(shelves).toContain('<h2 id="shelf-featured">Featured</h2>');
      expect(shelves).toContain('Shelf &lt;Star&gt;');
      expect(page.text.indexOf('shelf-featured')).toBeLessThan(page.text.indexOf('id="all-games"'));
      await h.http.delete(`/v1/admin/games/${game.slug}/featured`, { token: staff.token });
    });
  });
});
