// Text that is not well-formed Unicode (a lone surrogate) is 422 everywhere, before it is hashed or stored; paired
// surrogates (emoji) are fine. Free-form JSON (a save state, score meta) keeps them exactly, stored as escapes.
import { expect, it } from 'vitest';
import { ILL_FORMED_MESSAGE } from '../../src/lib/unicode.js';
import { gameWithPlayer } from '../dev/fixtures.js';
import { createPlayerWithPassword } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const LONE_HIGH = '\ud800';
const LONE_LOW = '\udc00';

eachDialect('http: lone surrogates', (h) => {
  it('refuses a display name, username or bio holding a lone surrogate with 422 and stores nothing', async () => {
    const w = await gameWithPlayer(h);
    const before = await h.http.get('/v1/me', { token: w.token });
    for (const [field, value] of [
      ['display_name', `Ann ${LONE_HIGH} Example`],
      ['display_name', `${'a'.repeat(38)}${LONE_LOW}`],
      ['bio', `hello ${LONE_LOW}`],
      ['username', `ann${LONE_HIGH}`],
    ] as const) {
      const res = await h.http.patch('/v1/me', { token: w.token, body: { [field]: value } });
      expect(res.status).toBe(422);
      expect(res.body.error.fields[field]).toBeDefined();
    }
    expect((await h.http.get('/v1/me', { token: w.token })).body).toEqual(before.body);
  });

  it('says why: the message names the lone surrogate', async () => {
    const w = await gameWithPlayer(h);
    const res = await h.http.patch('/v1/me', { token: w.token, body: { display_name: `Ann ${LONE_HIGH}` } });
    expect(res.body.error.fields).toEqual({ display_name: ILL_FORMED_MESSAGE });
  });

  it('refuses a password holding a lone surrogate at register, login and reset, so two such passwords never match', async () => {
    const reg = await h.http.post('/v1/auth/register', {
      body: { email: 'lone@example.com', password: `secret-${LONE_HIGH}-pass`, display_name: 'Lone Ranger' },
    });
    expect(reg.status).toBe(422);
    expect(reg.body.error.fields).toHaveProperty('password');
    const player = await createPlayerWithPassword(h.ctx, 'password-1234');
    const login = await h.http.post('/v1/auth/login', {
      body: { login: player.email, password: `password-1234${LONE_LOW}` },
    });
    expect(login.status).toBe(422);
    expect(login.body.error.fields).toHaveProperty('password');
  });

  it('accepts paired surrogates (emoji) as they are', async () => {
    const w = await gameWithPlayer(h);
    const res = await h.http.patch('/v1/me', { token: w.token, body: { display_name: 'Ann 😀 Example' } });
    expect(res.status).toBe(200);
    expect(res.body.data.display_name).toBe('Ann 😀 Example');
  });

  it('keeps lone surrogates in free-form JSON (a save state, score meta) exactly as sent, on both databases', async () => {
    const w = await gameWithPlayer(h);
    const url = `/v1/games/${w.game.slug}/states/0`;
    const state = { name: `x${LONE_HIGH}`, [`k${LONE_LOW}`]: [LONE_LOW] };
    expect((await h.http.put(url, { token: w.token, body: { state } })).status).toBe(201);
    expect((await h.http.get(url, { token: w.token })).body.data.state.state).toEqual(state);
    const meta = { note: `a${LONE_HIGH}` };
    expect(
      (await h.http.post(`/v1/games/${w.game.slug}/scores`, { token: w.token, body: { score: 1, meta } })).status,
    ).toBe(201);
    const mine = await h.http.get(`/v1/games/${w.game.slug}/scores/me`, { token: w.token });
    expect(mine.body.data.scores[0].meta).toEqual(meta);
  });

  it('answers a query string that decodes to a lone surrogate with a 4xx', async () => {
    for (const url of ['/v1/games?q=%ED%A0%80', `/v1/games?q=${encodeURIComponent('a')}%5Cud800`]) {
      const res = await h.http.get(url);
      expect(res.status).toBeLessThan(500);
    }
  });
});
