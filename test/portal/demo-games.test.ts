// The demo games: valid game.json files, published through the real publish service into an empty catalogue only.
import { expect, it } from 'vitest';
import { demoGameDirs, publishDemoGamesIfEmpty } from '../../src/modules/portal/demo-games.js';
import { checkGameDirectory } from '../../src/modules/games/publish.service.js';
import { eachDialect } from '../helpers/harness.js';

it('demo games: each directory passes the publish checks', async () => {
  const dirs = demoGameDirs();
  expect(dirs.length).toBeGreaterThanOrEqual(3);
  for (const dir of dirs) await expect(checkGameDirectory(dir)).resolves.toBeTruthy();
});

eachDialect('portal: demo games', (h) => {
  it('publishes the demo games into an empty catalogue, once', async () => {
    expect((await publishDemoGamesIfEmpty(h.ctx)).sort()).toEqual(['comet-snake', 'reflex', 'tile-merge']);
    expect(await publishDemoGamesIfEmpty(h.ctx)).toEqual([]);

    const list = await h.http.get('/v1/games');
    expect(list.body.meta.count).toBe(3);
    const bySlug = Object.fromEntries(list.body.data.games.map((g: { slug: string }) => [g.slug, g]));
    expect(bySlug.reflex).toMatchObject({ leaderboard: { enabled: true, order: 'asc', unit: 'ms' }, requires_premium: false });
    expect(bySlug['tile-merge']).toMatchObject({ save_slots: 3, leaderboard: { order: 'desc' } });
    expect(bySlug['comet-snake']).toMatchObject({ requires_premium: true });
  });

  it('serves the demo games\' public files to a sandboxed frame', async () => {
    const game = (await h.http.get('/v1/games/reflex')).body.data;
    const cover = await h.http.get(new URL(game.cover_url).pathname, { headers: { origin: 'null' } });
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(cover.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
