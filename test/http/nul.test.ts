// A NUL character in any text input is a 4xx on both databases (PostgreSQL cannot store one); free-form JSON keeps it.
import { expect, it } from 'vitest';
import { withoutNul } from '../../src/http/validation.js';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('http: NUL in text input', (h) => {
  const NUL = '\u0000';

  it.each([
    '/v1/games/%00',
    '/v1/games/a%00b/leaderboard',
    '/v1/players/x%00y',
    '/v1/games?q=%00',
    '/v1/games?category=a%00',
  ])('answers GET %s with a 4xx in the envelope', async (url) => {
    const res = await h.http.get(url);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.ok).toBe(false);
  });

  it('refuses NUL in a login, a game slug and a display name with 422 naming the field', async () => {
    const login = await h.http.post('/v1/auth/login', { body: { login: `ann${NUL}`, password: 'password1' } });
    expect(login.status).toBe(422);
    expect(login.body.error.fields).toEqual({ login: 'must not contain a NUL character' });

    const { token } = await createPlayerWithToken(h.ctx);
    const start = await h.http.post('/v1/play/start', { token, body: { game: `x${NUL}` } });
    expect(start.status).toBe(422);
    expect(start.body.error.fields).toHaveProperty('game');

    const patch = await h.http.patch('/v1/me', { token, body: { display_name: `Ann${NUL}Example` } });
    expect(patch.status).toBe(422);
    expect(patch.body.error.fields).toHaveProperty('display_name');
  });

  it('keeps NUL inside a save state, which is free-form JSON', async () => {
    const game = await createGame(h.ctx, { save_slots: 1 });
    const { token } = await createPlayerWithToken(h.ctx);
    const state = { text: `a${NUL}b`, list: [NUL] };
    expect((await h.http.put(`/v1/games/${game.slug}/states/0`, { token, body: { state } })).status).toBe(201);
    expect((await h.http.get(`/v1/games/${game.slug}/states/0`, { token })).body.data.state.state).toEqual(state);
  });
});

it('marks every string-typed node, nested or in a union, and leaves untyped nodes alone', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      label: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      tags: { type: 'array', items: { type: 'string' } },
      state: {},
    },
  };
  const marked = withoutNul(schema) as any;
  expect(marked.properties.name.noNul).toBe(true);
  expect(marked.properties.label.anyOf[0].noNul).toBe(true);
  expect(marked.properties.tags.items.noNul).toBe(true);
  expect(marked.properties.state.noNul).toBeUndefined();
  expect((schema.properties.name as any).noNul).toBeUndefined();
});
