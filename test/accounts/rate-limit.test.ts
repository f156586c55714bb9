// The rate limits (docs/api.md, "Accounts and authentication"): login per IP and per login name, register per IP, forgot-password per address,
// everything else per credential or IP; 429 rate_limited with Retry-After; counters shared through Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, eachDialect, type Harness } from '../helpers/harness.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';

const LIMITS = {
  'rate_limits.login.max': 3,
  'rate_limits.register.max': 2,
  'rate_limits.forgot_password.max': 2,
  'rate_limits.default.max': 5,
  'rate_limits.developer_key.max': 8,
};

let ipCounter = 0;
const newIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function call(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  options: {
    ip?: string;
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
    cookies?: Record<string, string>;
  } = {},
) {
  return h.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    cookies: options.cookies,
    payload: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

function expectLimited(res: Awaited<ReturnType<typeof call>>, windowSeconds: number) {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(body).toEqual({
    ok: false,
    error: {
      code: 'rate_limited',
      message: expect.stringMatching(/try again in \d+ seconds/),
      retry_after: expect.any(Number),
    },
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(body.error.retry_after).toBe(retryAfter);
}

eachDialect(
  'accounts: rate limits',
  (h) => {
    const login = (ip: string, name: string) =>
      call(h, 'POST', '/v1/auth/login', { ip, body: { login: name, password: 'wrong password' } });

    it('allows 3 logins a minute per IP, whatever the login names', async () => {
      const ip = newIp();
      for (const name of ['a_one', 'a_two', 'a_three']) expect((await login(ip, name)).statusCode).toBe(401);
      expectLimited(await login(ip, 'a_four'), 60);
      expect((await login(newIp(), 'a_five')).statusCode).toBe(401);
    });

    it('allows 3 logins a minute per login name, whatever the IPs, in any letter case', async () => {
      for (const name of ['target_x', 'TARGET_X', 'Target_X'])
        expect((await login(newIp(), name)).statusCode).toBe(401);
      expectLimited(await login(newIp(), ' target_x '), 60);
      expect((await login(newIp(), 'someone_else')).statusCode).toBe(401);
    });

    it('limits a correct password too, once the limit is reached', async () => {
      const ip = newIp();
      const email = `rl-${randomBytes(4).toString('hex')}@example.com`;
      const reg = await call(h, 'POST', '/v1/auth/register', {
        ip,
        body: { email, password: 'right password', display_name: 'Rate Limited' },
      });
      expect(reg.statusCode).toBe(201);
      for (let i = 0; i < 3; i++) await login(newIp(), email);
      expectLimited(
        await call(h, 'POST', '/v1/auth/login', { ip: newIp(), body: { login: email, password: 'right password' } }),
        60,
      );
    });

    it('allows 2 registrations per IP in the window', async () => {
      const ip = newIp();
      const body = () => ({
        email: `r-${randomBytes(4).toString('hex')}@example.com`,
        password: 'password1',
        display_name: 'Reg Limit',
      });
      expect((await call(h, 'POST', '/v1/auth/register', { ip, body: body() })).statusCode).toBe(201);
      expect((await call(h, 'POST', '/v1/auth/register', { ip, body: body() })).statusCode).toBe(201);
      expectLimited(await call(h, 'POST', '/v1/auth/register', { ip, body: body() }), 600);
      expect((await call(h, 'POST', '/v1/auth/register', { ip: newIp(), body: body() })).statusCode).toBe(201);
    });

    it('allows 2 forgot-password mails per address in the window, from any IP', async () => {
      const forgot = (email: string) => call(h, 'POST', '/v1/auth/forgot-password', { ip: newIp(), body: { email } });
      expect((await forgot('victim@example.com')).statusCode).toBe(200);
      expect((await forgot('VICTIM@example.com')).statusCode).toBe(200);
      expectLimited(await forgot('victim@example.com'), 3600);
      expect((await forgot('other@example.com')).statusCode).toBe(200);
    });

    it('counts every other request per token, each token apart', async () => {
      const a = await createPlayerWithToken(h.ctx);
      const b = await createPlayerWithToken(h.ctx);
      const ip = newIp();
      for (let i = 0; i < 5; i++) expect((await call(h, 'GET', '/v1/me', { ip, token: a.token })).statusCode).toBe(200);
      expectLimited(await call(h, 'GET', '/v1/me', { ip, token: a.token }), 60);
      expectLimited(await call(h, 'GET', '/v1/me', { ip: newIp(), token: a.token }), 60);
      expect((await call(h, 'GET', '/v1/me', { ip, token: b.token })).statusCode).toBe(200);
      // a route that reads no credential counts per address
      expect((await call(h, 'GET', '/v1/status', { ip: newIp(), token: a.token })).statusCode).toBe(200);
    });

    it('counts made-up tokens against the address that sends them, not a bucket each', async () => {
      const ip = newIp();
      const forged = () => `agp_${randomBytes(24).toString('hex')}`;
      for (let i = 0; i < 5; i++)
        expect((await call(h, 'GET', '/v1/me', { ip, token: forged() })).statusCode).toBe(401);
      expectLimited(await call(h, 'GET', '/v1/me', { ip, token: forged() }), 60);
      // a valid token from the same address still has its own allowance
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await call(h, 'GET', '/v1/me', { ip, token })).statusCode).toBe(200);
    });

    it('counts the portal cookie as a credential', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      const cookies = { gp_session: h.app.signCookie(token) };
      const headers = { 'x-requested-with': 'ServiceSDK' };
      for (let i = 0; i < 5; i++)
        expect((await call(h, 'GET', '/v1/me', { ip: newIp(), cookies, headers })).statusCode).toBe(200);
      expectLimited(await call(h, 'GET', '/v1/me', { ip: newIp(), cookies, headers }), 60);
    });

    it('counts requests without a credential per IP, also those that fail', async () => {
      const ip = newIp();
      for (let i = 0; i < 3; i++) expect((await call(h, 'GET', '/v1/status', { ip })).statusCode).toBe(200);
      expect((await call(h, 'GET', '/v1/me', { ip })).statusCode).toBe(401);
      expect((await call(h, 'GET', '/v1/nowhere', { ip })).statusCode).toBe(404);
      expectLimited(await call(h, 'GET', '/v1/status', { ip }), 60);
      expect((await call(h, 'GET', '/v1/status', { ip: newIp() })).statusCode).toBe(200);
    });

    it('gives developer keys their own limit, rate_limits.developer_key', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['stats:read']);
      const other = await createKey(h.ctx, game.id, ['stats:read']);
      const stats = (token: string) => call(h, 'GET', `/v1/dev/games/${game.slug}/stats`, { ip: newIp(), token });
      for (let i = 0; i < 8; i++) {
        const res = await stats(key);
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('8');
        expect(res.headers['ratelimit-remaining']).toBe(String(7 - i));
      }
      expectLimited(await stats(key), 60);
      expect((await stats(other.key)).statusCode).toBe(200);
      // player tokens keep the default limit
      const { token } = await createPlayerWithToken(h.ctx);
      expect((await call(h, 'GET', '/v1/me', { ip: newIp(), token })).headers['ratelimit-limit']).toBe('5');
    });

    it('tells clients their allowance: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset', async () => {
      const { token } = await createPlayerWithToken(h.ctx);
      const ip = newIp();
      for (let i = 0; i < 5; i++) {
        const res = await call(h, 'GET', '/v1/me', { ip, token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('5');
        expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
        const reset = Number(res.headers['ratelimit-reset']);
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
      }
      const refused = await call(h, 'GET', '/v1/me', { ip, token });
      expectLimited(refused, 60);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      // Login counts per IP and per name: the tighter of the two is told.
      const loginIp = newIp();
      await login(loginIp, 'tight_name');
      const res = await login(loginIp, 'tight_name_2');
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe('1');
      // A request without a credential is told its address's allowance.
      expect((await call(h, 'GET', '/v1/status', { ip: newIp() })).headers['ratelimit-remaining']).toBe('4');
    });

    it('keeps the login limit apart from the default one', async () => {
      const ip = newIp();
      for (let i = 0; i < 5; i++) await call(h, 'GET', '/v1/status', { ip });
      expect((await call(h, 'GET', '/v1/status', { ip })).statusCode).toBe(429);
      expect((await login(ip, 'apart_1')).statusCode).toBe(401);
    });
  },
  { settings: LIMITS },
);

eachDialect(
  'accounts: rate limits with Redis unreachable',
  (h) => {
    it('serves requests without counting', async () => {
      const ip = newIp();
      for (let i = 0; i < 4; i++) expect((await call(h, 'GET', '/v1/status', { ip })).statusCode).toBe(200);
    });
  },
  { settings: { 'rate_limits.default.max': 2, redis_url: 'redis://127.0.0.1:1' } },
);

for (const dialect of enabledDialects()) {
  describe(`accounts: rate limits shared through Redis [${dialect}]`, () => {
    const prefix = `gp-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
    const settings = { ...LIMITS, redis_url: 'redis://127.0.0.1:6379', redis_prefix: prefix };
    let one: Awaited<ReturnType<typeof createHarness>>;
    let two: Awaited<ReturnType<typeof createHarness>>;
    beforeAll(async () => {
      one = await createHarness(dialect, { settings });
      two = await createHarness(dialect, { settings });
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
    });

    it('counts logins on both processes together', async () => {
      const ip = newIp();
      expect(
        (await call(one, 'POST', '/v1/auth/login', { ip, body: { login: 'shared_1', password: 'x' } })).statusCode,
      ).toBe(401);
      expect(
        (await call(two, 'POST', '/v1/auth/login', { ip, body: { login: 'shared_2', password: 'x' } })).statusCode,
      ).toBe(401);
      expect(
        (await call(one, 'POST', '/v1/auth/login', { ip, body: { login: 'shared_3', password: 'x' } })).statusCode,
      ).toBe(401);
      expectLimited(await call(two, 'POST', '/v1/auth/login', { ip, body: { login: 'shared_4', password: 'x' } }), 60);
    });

    it('counts the default limit on both processes together', async () => {
      const ip = newIp();
      for (let i = 0; i < 5; i++)
        expect((await call(i % 2 ? one : two, 'GET', '/v1/status', { ip })).statusCode).toBe(200);
      expectLimited(await call(one, 'GET', '/v1/status', { ip }), 60);
      expectLimited(await call(two, 'GET', '/v1/status', { ip }), 60);
    });
  });
}
