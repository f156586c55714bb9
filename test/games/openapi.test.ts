// The catalogue routes in the OpenAPI document: every field described, /g/ kept out.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced, undescribed } from '../helpers/openapi.js';

eachDialect('games: openapi', (h) => {
  it('documents the catalogue routes with every field of Game described', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/games', '/v1/games/{slug}', '/v1/games/{slug}/favorite']),
    );
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/g/'))).toBe(false);

    const list = doc.paths['/v1/games'].get;
    const listed = list.responses['200'].content['application/json'].schema;
    const game = listed.properties.data.properties.games.items;
    expect(Object.keys(game.properties)).toEqual([
      'slug',
      'name',
      'tagline',
      'description',
      'category',
      'tags',
      'version',
      'orientation',
      'players',
      'leaderboard',
      'save_slots',
      'requires_premium',
      'status',
      'author',
      'released_at',
      'cover_url',
      'play_url',
      'stats',
      'screenshots',
      'rating',
      'my_rating',
      'featured',
      'is_favorite',
    ]);
    expect(undescribed(game)).toEqual([]);
    expect(undescribed(listed.properties.meta)).toEqual([]);
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['category', 'featured', 'q', 'sort']);
    const sort = list.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema.anyOf.flatMap((s: { enum: string[] }) => s.enum)).toEqual([
      'popular',
      'new',
      'name',
      'relevance',
    ]);
    expect(sort.description).toMatch(/422/);
    expect(Object.keys(list.responses)).toContain('422');

    const one = doc.paths['/v1/games/{slug}'].get;
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    const favorite = doc.paths['/v1/games/{slug}/favorite'].post;
    expect(Object.keys(favorite.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(favorite.responses['403'].description).toMatch(/forbidden/);
    const related = doc.paths['/v1/games/{slug}/related'].get;
    expect(Object.keys(related.responses)).toEqual(expect.arrayContaining(['200', '404', '422']));
    expect(related.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'slug']);
    for (const method of ['put', 'delete']) {
      const rating = doc.paths['/v1/games/{slug}/rating'][method];
      expect(Object.keys(rating.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
      expect(undescribed(rating.responses['200'].content['application/json'].schema.properties.data)).toEqual([]);
    }
  });

  it('documents the own favourites and recently played games', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    for (const path of ['/v1/me/favorites', '/v1/me/recent']) {
      const route = doc.paths[path].get;
      expect(Object.keys(route.responses), path).toEqual(expect.arrayContaining(['200', '401', '403']));
      expect(undescribed(route.responses['200'].content['application/json'].schema.properties.data), path).toEqual([]);
    }
    const entry =
      doc.paths['/v1/me/recent'].get.responses['200'].content['application/json'].schema.properties.data.properties
        .recent.items;
    expect(Object.keys(entry.properties)).toEqual(['game', 'last_played_at', 'last_save']);
    expect(doc.paths['/v1/me/recent'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['limit']);
  });
});
