// Integer ids and slots beyond the 32-bit range of their columns are 422 on both databases (PostgreSQL answered 500),
// and every integer input of the OpenAPI document that names a row or a slot carries the column's bounds.
import { expect, it } from 'vitest';
import { MAX_ROW_ID } from '../../src/http/envelope.js';
import { devUrl, gameWithPlayer } from '../dev/fixtures.js';
import { eachDialect } from '../helpers/harness.js';

const BEYOND = ['2147483648', '99999999999999999999999'];

eachDialect('http: ids beyond 32 bits', (h) => {
  it.each(BEYOND)('answers DELETE /v1/me/tokens/%s with 422', async (id) => {
    const w = await gameWithPlayer(h);
    const res = await h.http.delete(`/v1/me/tokens/${id}`, { token: w.token });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toHaveProperty('id');
  });

  it('answers a score for player_id 2147483648 with a developer key with 422', async () => {
    const w = await gameWithPlayer(h);
    const res = await h.http.post(`/v1/games/${w.game.slug}/scores`, {
      token: w.key,
      body: { score: 1, player_id: 2147483648 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toHaveProperty('player_id');
  });

  it.each(BEYOND)('answers state and dev routes naming %s with a 4xx, never a 500', async (n) => {
    const w = await gameWithPlayer(h);
    const calls = [
      h.http.get(`/v1/games/${w.game.slug}/states/${n}`, { token: w.token }),
      h.http.put(`/v1/games/${w.game.slug}/states/${n}`, { token: w.token, body: { state: 1 } }),
      h.http.delete(`/v1/games/${w.game.slug}/states/${n}`, { token: w.token }),
      h.http.get(`/v1/games/${w.game.slug}/states?player_id=${n}`, { token: w.key }),
      h.http.get(devUrl.player(n), { token: w.key }),
      h.http.put(devUrl.state(w.game.slug, w.player.id, n), { token: w.key, body: { state: 1 } }),
      h.http.post(devUrl.scores(w.game.slug, n), { token: w.key, body: { score: 1 } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(422);
      expect(res.body.ok).toBe(false);
    }
  });

  it('gives every integer input that names a row or a slot the 32-bit bounds in the OpenAPI document', async () => {
    const doc = (await h.http.get('/v1/openapi.json')).body;
    const unbounded: string[] = [];
    const check = (where: string, name: string, schema: any) => {
      if (schema?.type !== 'integer') return;
      if ((name === 'id' || name.endsWith('_id') || name === 'slot') && !(schema.maximum <= MAX_ROW_ID))
        unbounded.push(`${where} ${name}`);
    };
    for (const [path, operations] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(operations)) {
        for (const p of op.parameters ?? []) check(`${method} ${path}`, p.name, p.schema);
        const body = op.requestBody?.content?.['application/json']?.schema;
        for (const [name, schema] of Object.entries<any>(body?.properties ?? {}))
          check(`${method} ${path} body`, name, schema);
      }
    }
    expect(unbounded).toEqual([]);
  });
});
