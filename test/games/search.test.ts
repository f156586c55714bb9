// GET /games?q= ranked by relevance, with prefixes and typos, on both databases; the demo games' own texts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createGame } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

let unique = 0;
const tag = (what: string) => `${what}${process.pid}x${++unique}`;

interface DemoManifest {
  name: string;
  tagline: string;
  description: string;
  tags: string[];
  author: string;
}
const demo = (slug: string) => JSON.parse(readFileSync(`games/${slug}/game.json`, 'utf8')) as DemoManifest;

eachDialect('games: search relevance', (h) => {
  const names = async (query: Record<string, string>) => {
    const res = await h.http.get('/v1/games', { query });
    expect(res.status).toBe(200);
    return (res.body.data.games as Array<{ name: string }>).map((g) => g.name);
  };

  /** The four demo games in a fresh category; Reflex is the most played, Star Catcher the least. */
  async function demoShelf() {
    const category = tag('demo');
    const plays: Record<string, number> = { reflex: 900, 'tile-merge': 500, 'comet-snake': 300, 'star-catcher': 10 };
    for (const [slug, count] of Object.entries(plays)) {
      const m = demo(slug);
      await createGame(h.ctx, {
        category,
        name: m.name,
        tagline: m.tagline,
        description: m.description,
        tags: JSON.stringify(m.tags),
        author: m.author,
        plays: count,
      });
    }
    return category;
  }

  it('ranks a match in the name before one in the tagline, and both before the description', async () => {
    const category = await demoShelf();
    const found = await names({ category, q: 'star' });
    // Star Catcher by name, Comet Snake by its tagline ("stardust"), Reflex by its description ("restarts").
    expect(found).toEqual(['Star Catcher', 'Comet Snake', 'Reflex']);
  });

  it('finds each game first by its name, whole or started', async () => {
    const category = await demoShelf();
    for (const name of ['Star Catcher', 'Reflex', 'Tile Merge', 'Comet Snake']) {
      expect((await names({ category, q: name }))[0], name).toBe(name);
      expect((await names({ category, q: name.toLowerCase().slice(0, 4) }))[0], name).toBe(name);
    }
  });

  it('forgives a typo in a word of four letters or more, and an unfinished last word', async () => {
    const category = await demoShelf();
    expect((await names({ category, q: 'tile merg' }))[0]).toBe('Tile Merge');
    expect((await names({ category, q: 'stra catcher' }))[0]).toBe('Star Catcher');
    expect((await names({ category, q: 'Star Cacther' }))[0]).toBe('Star Catcher');
    expect((await names({ category, q: 'reflx' }))[0]).toBe('Reflex');
    expect((await names({ category, q: 'comet snkae' }))[0]).toBe('Comet Snake');
    // Three letters are too short to guess at; every word must match.
    expect(await names({ category, q: 'rfx' })).toEqual([]);
    expect(await names({ category, q: 'star zebra' })).toEqual([]);
  });

  it('keeps the other orders: a search with sort=popular, new or name orders its matches that way', async () => {
    const category = await demoShelf();
    expect(await names({ category, q: 'star', sort: 'popular' })).toEqual(['Reflex', 'Comet Snake', 'Star Catcher']);
    expect(await names({ category, q: 'star', sort: 'name' })).toEqual(['Comet Snake', 'Reflex', 'Star Catcher']);
    expect(await names({ category, q: 'star', sort: 'relevance' })).toEqual(['Star Catcher', 'Comet Snake', 'Reflex']);
  });

  it('lists most played first with sort=relevance and no q', async () => {
    const category = await demoShelf();
    expect(await names({ category, sort: 'relevance' })).toEqual(await names({ category, sort: 'popular' }));
    expect(await names({ category })).toEqual(['Reflex', 'Tile Merge', 'Comet Snake', 'Star Catcher']);
  });

  it('counts the matches per category, typos included', async () => {
    const category = await demoShelf();
    const other = tag('other');
    const word = tag('Zebra');
    await createGame(h.ctx, { category: other, name: 'Star Catcher Deluxe', tagline: word });
    const res = await h.http.get('/v1/games', { query: { q: 'stra catcher', category } });
    expect(res.body.meta.categories[category]).toBe(1);
    expect(res.body.meta.categories[other]).toBe(1);
    expect(res.body.meta.count).toBe(1);
  });
});
