// GET /games?sort=popular|new|name, on both databases.
import { expect, it } from 'vitest';
import { createGame } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

let unique = 0;
const tag = (what: string) => `${what}${process.pid}x${++unique}`;

eachDialect('games: GET /games?sort', (h) => {
  const names = async (query: Record<string, string>) => {
    const res = await h.http.get('/v1/games', { query });
    expect(res.status).toBe(200);
    return (res.body.data.games as Array<{ name: string }>).map((g) => g.name);
  };

  /** Four games of a fresh category: plays, first publish (minutes from now) and release date differ. */
  async function shelf() {
    const category = tag('cat');
    const at = (minutes: number) => h.clock.now() + minutes * 60_000;
    await createGame(h.ctx, { category, name: 'Banana', plays: 50, created_at: at(1), released_at: '2020-01-01' });
    await createGame(h.ctx, { category, name: 'apple', plays: 5, created_at: at(3), released_at: '2019-05-05' });
    await createGame(h.ctx, { category, name: 'Cherry 10', plays: 5, created_at: at(2), released_at: '2026-02-02' });
    await createGame(h.ctx, { category, name: 'Cherry 9', plays: 0, created_at: at(2), released_at: '2026-03-03' });
    return category;
  }

  it('orders by plays by default and with sort=popular', async () => {
    const category = await shelf();
    const popular = ['Banana', 'apple', 'Cherry 10', 'Cherry 9'];
    expect(await names({ category })).toEqual(popular);
    expect(await names({ category, sort: 'popular' })).toEqual(popular);
  });

  it('orders by first publish, newest first, with sort=new; a tie goes to the newer release date', async () => {
    const category = await shelf();
    expect(await names({ category, sort: 'new' })).toEqual(['apple', 'Cherry 9', 'Cherry 10', 'Banana']);
  });

  it('orders A to Z with sort=name, ignoring case, numbers by value', async () => {
    const category = await shelf();
    expect(await names({ category, sort: 'name' })).toEqual(['apple', 'Banana', 'Cherry 9', 'Cherry 10']);
  });

  it('sorts a search and keeps meta.categories as without sort', async () => {
    const word = tag('sorted');
    const category = tag('cat');
    await createGame(h.ctx, { category, name: `Zed ${word}`, tagline: word, plays: 9 });
    await createGame(h.ctx, { category, name: `Ace ${word}`, tagline: word, plays: 1 });
    const res = await h.http.get('/v1/games', { query: { q: word, sort: 'name' } });
    expect(res.body.data.games.map((g: { name: string }) => g.name)).toEqual([`Ace ${word}`, `Zed ${word}`]);
    expect(res.body.meta).toEqual((await h.http.get('/v1/games', { query: { q: word } })).body.meta);
  });

  it.each(['newest', 'POPULAR', '', 'plays'])('refuses sort=%j with 422 validation_failed', async (sort) => {
    const res = await h.http.get('/v1/games', { query: { sort } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields.sort).toBeDefined();
  });
});
