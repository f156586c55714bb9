// POST /v1/auth/login and /logout: email or username in any case, one answer for every failure, ten tokens, the portal cookie.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayerWithPassword } from '../helpers/factories.js';

const PASSWORD = 'correct horse battery';
const sdk = { 'x-requested-with': 'ServiceSDK' };

eachDialect('accounts: login and logout', (h) => {
  const login = (body: unknown, headers: Record<string, string> = {}) =>
    h.http.post('/v1/auth/login', { body, headers });
  const activeTokens = async (playerId: number) =>
    h.ctx.db
      .selectFrom('player_tokens')
      .select(['id', 'name'])
      .where('player_id', '=', playerId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', h.clock.now())
      .execute();

  it('logs in with the email or the username, in any letter case', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD, { username: 'Hedy_L', email: 'hedy@example.com' });
    for (const name of ['hedy@example.com', 'HEDY@Example.com', 'Hedy_L', 'hedy_l', '  HEDY_L  ']) {
      const res = await login({ login: name, password: PASSWORD });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual(['entitlement', 'player', 'token', 'token_expires_at']);
      expect(res.body.data.player).toMatchObject({
        id: player.id,
        username: 'Hedy_L',
        email: 'hedy@example.com',
        role: 'player',
      });
      expect(res.body.data.token_expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      expect(res.body.data.entitlement).toMatchObject({ unlimited: false, allowance_seconds: 900 });
      expect((await h.http.get('/v1/me', { token: res.body.data.token })).status).toBe(200);
    }
  });

  it('gives the same 401 body for an unknown login and for a wrong password', async () => {
    await createPlayerWithPassword(h.ctx, PASSWORD, { username: 'known_one' });
    const wrong = await login({ login: 'known_one', password: 'not the password' });
    const unknown = await login({ login: 'nobody_here', password: 'not the password' });
    const unknownEmail = await login({ login: 'nobody@example.com', password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      ok: false,
      error: { code: 'invalid_credentials', message: 'The login or the password is wrong' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknownEmail.body).toEqual(wrong.body);
    expect(unknown.headers['content-length']).toBe(wrong.headers['content-length']);
  });

  it('does not match a password that differs only in case or by surrounding spaces', async () => {
    await createPlayerWithPassword(h.ctx, PASSWORD, { username: 'exact_one' });
    for (const password of [PASSWORD.toUpperCase(), ` ${PASSWORD}`, `${PASSWORD} `]) {
      expect((await login({ login: 'exact_one', password })).status).toBe(401);
    }
  });

  it('matches a password typed in another Unicode normal form', async () => {
    await h.http.post('/v1/auth/register', {
      body: { email: 'nfc@example.com', password: 'Caf\u00e9 au lait', display_name: 'Nfc' },
    });
    expect((await login({ login: 'nfc@example.com', password: 'Cafe\u0301 au lait' })).status).toBe(200);
  });

  it('refuses a suspended player: 401 with a wrong password, 403 forbidden with the right one', async () => {
    await createPlayerWithPassword(h.ctx, PASSWORD, { username: 'benched', status: 'suspended' });
    const wrong = await login({ login: 'benched', password: 'nope nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const right = await login({ login: 'benched', password: PASSWORD });
    expect(right.status).toBe(403);
    expect(right.body.error.code).toBe('forbidden');
  });

  it.each([
    ['a missing login', { password: PASSWORD }, 'login'],
    ['a missing password', { login: 'someone' }, 'password'],
    ['a login that is a number', { login: 42, password: PASSWORD }, 'login'],
    ['a password that is null', { login: 'someone', password: null }, 'password'],
    ['an empty login', { login: '   ', password: PASSWORD }, 'login'],
    ['a password over 256 characters', { login: 'someone', password: 'x'.repeat(257) }, 'password'],
    [
      'a device name over 100 characters',
      { login: 'someone', password: PASSWORD, device_name: 'd'.repeat(101) },
      'device_name',
    ],
    ['an unknown field', { login: 'someone', password: PASSWORD, remember: true }, 'remember'],
  ])('refuses %s with 422', async (_what, body, field) => {
    const res = await login(body);
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toHaveProperty(field);
  });

  it('names the token after device_name', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const res = await login({ login: player.username, password: PASSWORD, device_name: '  Steam Deck  ' });
    const list = await h.http.get('/v1/me/tokens', { token: res.body.data.token });
    expect(list.body.data.tokens[0]).toMatchObject({ name: 'Steam Deck', current: true });
  });

  it('keeps ten active tokens: the eleventh login revokes the least recently used', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      tokens.push(
        (await login({ login: player.username, password: PASSWORD, device_name: `device ${i}` })).body.data.token,
      );
      h.clock.advance(61);
    }
    // Use every token but the fourth, later than the fourth was created: the fourth is now the least recently used.
    for (const [i, token] of tokens.entries())
      if (i !== 3) expect((await h.http.get('/v1/me', { token })).status).toBe(200);
    h.clock.advance(61);
    const eleventh = await login({ login: player.username, password: PASSWORD, device_name: 'device 10' });
    expect(eleventh.status).toBe(200);
    expect((await h.http.get('/v1/me', { token: tokens[3]! })).status).toBe(401);
    for (const [i, token] of tokens.entries())
      if (i !== 3) expect((await h.http.get('/v1/me', { token })).status).toBe(200);
    const active = await activeTokens(player.id);
    expect(active).toHaveLength(10);
    expect(active.map((t) => t.name)).not.toContain('device 3');
  });

  it('never evicts the token in use when never-used tokens exist, even one created before them and used seconds ago', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const inUse = (await login({ login: player.username, password: PASSWORD, device_name: 'in use' })).body.data.token;
    h.clock.advance(5);
    expect((await h.http.get('/v1/me', { token: inUse })).status).toBe(200);
    // Nine more logins, a second apart, whose tokens are never used; the first token is used again meanwhile.
    for (let i = 0; i < 9; i++) {
      h.clock.advance(1);
      expect((await login({ login: player.username, password: PASSWORD, device_name: `unused ${i}` })).status).toBe(
        200,
      );
      expect((await h.http.get('/v1/me', { token: inUse })).status).toBe(200);
    }
    h.clock.advance(1);
    expect((await login({ login: player.username, password: PASSWORD, device_name: 'eleventh' })).status).toBe(200);
    expect((await h.http.get('/v1/me', { token: inUse })).status).toBe(200);
    const names = (await activeTokens(player.id)).map((t) => t.name);
    expect(names).toHaveLength(10);
    expect(names).toContain('in use');
    // The oldest never-used token made room.
    expect(names).not.toContain('unused 0');
  });

  it('evicts a never-used token before any used one, and the oldest never-used first', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      tokens.push(
        (await login({ login: player.username, password: PASSWORD, device_name: `device ${i}` })).body.data.token,
      );
      h.clock.advance(61);
    }
    // Devices 0-2 and 4-7 are used (long ago for device 0); devices 3, 8 and 9 never are.
    for (const i of [0, 1, 2, 4, 5, 6, 7]) expect((await h.http.get('/v1/me', { token: tokens[i]! })).status).toBe(200);
    h.clock.advance(3600);
    expect((await login({ login: player.username, password: PASSWORD, device_name: 'device 10' })).status).toBe(200);
    expect((await h.http.get('/v1/me', { token: tokens[3]! })).status).toBe(401);
    expect((await login({ login: player.username, password: PASSWORD, device_name: 'device 11' })).status).toBe(200);
    expect((await h.http.get('/v1/me', { token: tokens[8]! })).status).toBe(401);
    for (const i of [0, 1, 2, 4, 5, 6, 7, 9])
      expect((await h.http.get('/v1/me', { token: tokens[i]! })).status).toBe(200);
  });

  it('keeps ten active tokens when logins race', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const results = await Promise.all(
      Array.from({ length: 14 }, () => login({ login: player.username, password: PASSWORD })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await activeTokens(player.id)).toHaveLength(10);
  });

  it('does not count expired or revoked tokens among the ten', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const first = (await login({ login: player.username, password: PASSWORD })).body.data.token;
    await h.http.post('/v1/auth/logout', { token: first });
    for (let i = 0; i < 9; i++) await login({ login: player.username, password: PASSWORD });
    const tenth = await login({ login: player.username, password: PASSWORD });
    expect(tenth.status).toBe(200);
    expect(await activeTokens(player.id)).toHaveLength(10);
  });

  it('makes a token expire after api.token_ttl_days', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const res = await login({ login: player.username, password: PASSWORD });
    const token = res.body.data.token;
    expect(Date.parse(res.body.data.token_expires_at) - h.clock.now()).toBe(90 * 86_400_000);
    h.clock.advance(90 * 86400 - 1);
    expect((await h.http.get('/v1/me', { token })).status).toBe(200);
    h.clock.advance(1);
    const expired = await h.http.get('/v1/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('unauthenticated');
  });

  it('revokes the token used for logout at once, and only that one', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const a = (await login({ login: player.username, password: PASSWORD })).body.data.token;
    const b = (await login({ login: player.username, password: PASSWORD })).body.data.token;
    const out = await h.http.post('/v1/auth/logout', { token: a });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true, data: { logged_out: true } });
    expect((await h.http.get('/v1/me', { token: a })).status).toBe(401);
    expect((await h.http.post('/v1/auth/logout', { token: a })).status).toBe(401);
    expect((await h.http.get('/v1/me', { token: b })).status).toBe(200);
  });

  it('answers logout without a credential with 401 and with a developer key with 403', async () => {
    expect((await h.http.post('/v1/auth/logout')).status).toBe(401);
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['players:read', 'states:read']);
    const res = await h.http.post('/v1/auth/logout', { token: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('refuses a foreign Origin before looking at the password', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const res = await login({ login: player.username, password: PASSWORD }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin_forbidden');
    expect(await activeTokens(player.id)).toHaveLength(0);
  });

  it('runs a portal session: cookie with the header works, without it 403, logout revokes and clears it', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const res = await login(
      { login: player.username, password: PASSWORD },
      { ...sdk, origin: 'http://localhost:8080' },
    );
    expect(res.status).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'gp_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 90 * 86400 });
    const cookies = { gp_session: cookie.value };

    expect((await h.http.get('/v1/me', { cookies, headers: sdk })).status).toBe(200);
    const bare = await h.http.get('/v1/me', { cookies });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('csrf_rejected');
    const wrongValue = await h.http.get('/v1/me', { cookies, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(wrongValue.status).toBe(403);
    const foreign = await h.http.get('/v1/me', { cookies, headers: { ...sdk, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('cross_origin_forbidden');

    const csrfLogout = await h.http.post('/v1/auth/logout', { cookies });
    expect(csrfLogout.status).toBe(403);
    expect((await h.http.get('/v1/me', { cookies, headers: sdk })).status).toBe(200);

    const out = await h.http.post('/v1/auth/logout', { cookies, headers: sdk });
    expect(out.status).toBe(200);
    const cleared = out.cookies.find((c) => c.name === 'gp_session')!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires as Date).getTime()).toBeLessThan(Date.now());
    const after = await h.http.get('/v1/me', { cookies, headers: sdk });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthenticated');
    // the same token as a Bearer is dead too
    expect((await h.http.get('/v1/me', { token: res.body.data.token })).status).toBe(401);
  });

  it('logs out the Bearer token, not the cookie, when both are sent', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const portal = await login({ login: player.username, password: PASSWORD }, sdk);
    const app = (await login({ login: player.username, password: PASSWORD })).body.data.token;
    const cookies = { gp_session: portal.cookies[0]!.value };
    const out = await h.http.post('/v1/auth/logout', { token: app, cookies, headers: sdk });
    expect(out.status).toBe(200);
    expect(out.cookies).toEqual([]);
    expect((await h.http.get('/v1/me', { cookies, headers: sdk })).status).toBe(200);
    expect((await h.http.get('/v1/me', { token: app })).status).toBe(401);
  });
});

eachDialect(
  'accounts: portal cookie in production',
  (h) => {
    it('is __Host-gp_session and Secure', async () => {
      const player = await createPlayerWithPassword(h.ctx, PASSWORD);
      const res = await h.http.post('/v1/auth/login', {
        body: { login: player.username, password: PASSWORD },
        headers: { ...sdk, 'x-forwarded-proto': 'https', origin: 'https://play.example.com' },
      });
      expect(res.status).toBe(200);
      expect(res.cookies.map((c) => c.name)).toEqual(['__Host-gp_session']);
      expect(res.cookies[0]).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
      expect(res.cookies[0]!.domain).toBeUndefined();
      const me = await h.http.get('/v1/me', {
        cookies: { '__Host-gp_session': res.cookies[0]!.value },
        headers: { ...sdk, 'x-forwarded-proto': 'https' },
      });
      expect(me.status).toBe(200);
    });
  },
  {
    env: 'production',
    settings: { public_url: 'https://play.example.com', trust_proxy: 'true', secret: 's'.repeat(40) },
  },
);
