// "More like this": GET /v1/games/{slug}/related orders other listed games by category, shared tags, then plays.
import { expect, it } from 'vitest';
import { publishDemoGamesIfEmpty } from '../../src/modules/portal/demo-games.js';
import { createGame } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('games: related', (h) => {
  const slugs = (res: { body: { data: { games: Array<{ slug: string }> } } }) => res.body.data.games.map((g) => g.slug);

  it('lists the same category first, then the most shared tags, then the most played; never the game itself', async () => {
    const game = await createGame(h.ctx, { category: 'rel-puzzle', tags: '["match","color","relax"]', plays: 1 });
    const sameCategoryPopular = await createGame(h.ctx, { category: 'rel-puzzle', tags: '[]', plays: 500 });
    const sameCategoryTwoTags = await createGame(h.ctx, {
      category: 'rel-puzzle',
      tags: '["color","relax"]',
      plays: 2,
    });
    const sameCategoryOneTag = await createGame(h.ctx, { category: 'rel-puzzle', tags: '["match"]', plays: 3 });
    const otherCategoryTags = await createGame(h.ctx, {
      category: 'rel-arcade',
      tags: '["match","color","relax"]',
      plays: 0,
    });
    const otherCategoryPopular = await createGame(h.ctx, { category: 'rel-arcade', tags: '["fast"]', plays: 9000 });
    const otherCategoryQuiet = await createGame(h.ctx, { category: 'rel-arcade', tags: '[]', plays: 4 });
    const draft = await createGame(h.ctx, { category: 'rel-puzzle', tags: '["match"]', status: 'draft', plays: 99 });

    const res = await h.http.get(`/v1/games/${game.slug}/related`, { query: { limit: 12 } });
    expect(res.status, res.text).toBe(200);
    const order = slugs(res).filter((s) =>
      [
        sameCategoryPopular,
        sameCategoryTwoTags,
        sameCategoryOneTag,
        otherCategoryTags,
        otherCategoryPopular,
        otherCategoryQuiet,
        draft,
      ].some((g) => g.slug === s),
    );
    expect(order).toEqual([
      sameCategoryTwoTags.slug,
      sameCategoryOneTag.slug,
      sameCategoryPopular.slug,
      otherCategoryTags.slug,
      otherCategoryPopular.slug,
      otherCategoryQuiet.slug,
    ]);
    expect(slugs(res)).not.toContain(game.slug);
    expect(slugs(res)).not.toContain(draft.slug);
  });

  it('takes a limit (6 by default, 1 to 12), answers 404 for an unknown game and 422 for a bad limit', async () => {
    const game = await createGame(h.ctx, { category: 'rel-limit' });
    for (let i = 0; i < 8; i++) await createGame(h.ctx, { category: 'rel-limit' });
    expect(slugs(await h.http.get(`/v1/games/${game.slug}/related`))).toHaveLength(6);
    expect(slugs(await h.http.get(`/v1/games/${game.slug}/related`, { query: { limit: 2 } }))).toHaveLength(2);
    expect((await h.http.get(`/v1/games/${game.slug}/related`, { query: { limit: 13 } })).status).toBe(422);
    expect((await h.http.get(`/v1/games/${game.slug}/related`, { query: { limit: 0 } })).status).toBe(422);
    const unknown = await h.http.get('/v1/games/no-such-game/related');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });
});

eachDialect('games: related, with the demo games', (h) => {
  it('gives each demo game at least three others, premium marked, the most played first across categories', async () => {
    const published = await publishDemoGamesIfEmpty(h.ctx);
    expect(published.length).toBeGreaterThanOrEqual(4);
    await h.ctx.db.updateTable('games').set({ plays: 10 }).where('slug', '=', 'reflex').execute();
    for (const slug of published) {
      const res = await h.http.get(`/v1/games/${slug}/related`);
      expect(res.status, res.text).toBe(200);
      const games = res.body.data.games as Array<{ slug: string; requires_premium: boolean }>;
      expect(games.length).toBeGreaterThanOrEqual(3);
      expect(games.map((g) => g.slug)).not.toContain(slug);
      if (slug !== 'reflex') expect(games[0]!.slug).toBe('reflex');
    }
    const related = await h.http.get('/v1/games/reflex/related');
    const snake = (related.body.data.games as Array<{ slug: string; requires_premium: boolean }>).find(
      (g) => g.slug === 'comet-snake',
    );
    expect(snake?.requires_premium).toBe(true);
  });
});
