// The catalogue routes in the OpenAPI document: every field described, /g/ kept out.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced, undescribed } from '../helpers/openapi.js';

eachDialect('games: openapi', (h) => {
  it('documents the catalogue routes with every field of Game described', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/games', '/v1/games/{slug}', '/v1/games/{slug}/favorite']));
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/g/'))).toBe(false);

    const list = doc.paths['/v1/games'].get;
    const listed = list.responses['200'].content['application/json'].schema;
    const game = listed.properties.data.properties.games.items;
    expect(Object.keys(game.properties)).toEqual([
      'slug', 'name', 'tagline', 'description', 'category', 'tags', 'version', 'orientation', 'players', 'leaderboard', 'save_slots',
      'requires_premium', 'status', 'author', 'released_at', 'cover_url', 'play_url', 'stats', 'is_favorite',
    ]);
    expect(undescribed(game)).toEqual([]);
    expect(undescribed(listed.properties.meta)).toEqual([]);
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['category', 'q']);

    const one = doc.paths['/v1/games/{slug}'].get;
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    const favorite = doc.paths['/v1/games/{slug}/favorite'].post;
    expect(Object.keys(favorite.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(favorite.responses['403'].description).toMatch(/forbidden/);
  });
});
