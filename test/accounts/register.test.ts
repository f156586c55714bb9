// POST /v1/auth/register: the new player, the token, the derived username, uniqueness and every bad input.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey } from '../helpers/factories.js';

const valid = { email: 'Ada@Example.com', password: 'correct horse', display_name: 'Ada Lovelace' };
let n = 0;
const unique = (overrides: Record<string, unknown> = {}) => {
  n++;
  return { email: `player${n}@example.com`, password: 'secret-password', display_name: `Player ${n}`, ...overrides };
};

eachDialect('accounts: register', (h) => {
  const register = (body: unknown, headers: Record<string, string> = {}) =>
    h.http.post('/v1/auth/register', { body, headers });

  it('creates the player and answers 201 with the own view, a token and the entitlement', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const res = await register(valid);
    expect(res.status).toBe(201);
    const { player, token, token_expires_at, entitlement } = res.body.data;
    expect(player).toEqual({
      id: expect.any(Number),
      username: 'Ada_Lovelace',
      display_name: 'Ada Lovelace',
      avatar_url: expect.stringMatching(/^http:\/\/localhost:8080\/avatars\/initials\/\d+\/AL\.svg$/),
      bio: null,
      country: null,
      member_since: '2026-11-21 10:00:00',
      email: 'ada@example.com',
      email_verified: false,
      role: 'player',
      newsletter: false,
      guest: false,
    });
    expect(token).toMatch(/^agp_[0-9A-Za-z]{43}$/);
    expect(token_expires_at).toBe('2027-02-19T10:00:00+00:00');
    expect(entitlement).toEqual({
      unlimited: false,
      allowance_seconds: 900,
      used_seconds: 0,
      remaining_seconds: 900,
      limit_reached: false,
      resets_in_seconds: 13 * 3600,
      day: '2026-11-21',
    });
    expect(Object.keys(res.body)).toEqual(['ok', 'data']);
    const me = await h.http.get('/v1/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.data.player.id).toBe(player.id);
  });

  it('stores an argon2id hash (19 MiB, 2 passes), never the password', async () => {
    const res = await register(unique({ password: 'my own secret' }));
    const row = await h.ctx.db
      .selectFrom('players')
      .select('password_hash')
      .where('id', '=', res.body.data.player.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain('my own secret');
  });

  it('stores only a SHA-256 of the token', async () => {
    const res = await register(unique());
    const rows = await h.ctx.db
      .selectFrom('player_tokens')
      .selectAll()
      .where('player_id', '=', res.body.data.player.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(res.body.data.token);
    expect(rows[0]!.prefix).toBe(res.body.data.token.slice(0, 12));
  });

  it('keeps a given username as written and the newsletter choice', async () => {
    const res = await register(unique({ username: 'Grace_H', newsletter: true }));
    expect(res.status).toBe(201);
    expect(res.body.data.player).toMatchObject({ username: 'Grace_H', newsletter: true });
  });

  it('trims the email, display name and username, and stores the email lower-case', async () => {
    const res = await register({
      email: '  Trim.Me@Example.COM ',
      password: '  spaces kept  ',
      display_name: '  Trim Me  ',
      username: ' trim_me ',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.player).toMatchObject({
      email: 'trim.me@example.com',
      display_name: 'Trim Me',
      username: 'trim_me',
    });
    const login = await h.http.post('/v1/auth/login', {
      body: { login: 'TRIM.ME@example.com', password: '  spaces kept  ' },
    });
    expect(login.status).toBe(200);
    expect((await h.http.post('/v1/auth/login', { body: { login: 'trim_me', password: 'spaces kept' } })).status).toBe(
      401,
    );
  });

  it('derives distinct usernames from the same display name', async () => {
    const a = await register(unique({ display_name: 'Zoë Quinn' }));
    const b = await register(unique({ display_name: 'Zoë Quinn' }));
    const c = await register(unique({ display_name: '李小龍' }));
    expect(a.body.data.player.username).toBe('Zoe_Quinn');
    expect(b.body.data.player.username).toMatch(/^Zoe_Quinn_\d{4}$/);
    expect(c.body.data.player.username).toMatch(/^player_\d{4}$/);
  });

  it('derives a username around one already taken in another case', async () => {
    await register(unique({ username: 'MARIE_CURIE' }));
    const res = await register(unique({ display_name: 'Marie Curie' }));
    expect(res.body.data.player.username).toMatch(/^Marie_Curie_\d{4}$/);
  });

  it('answers a taken email with 409 email_taken, also in another letter case', async () => {
    const body = unique();
    expect((await register(body)).status).toBe(201);
    for (const email of [body.email, body.email.toUpperCase(), ` ${body.email} `]) {
      const res = await register(unique({ email }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ ok: false, error: { code: 'email_taken', message: expect.any(String) } });
    }
  });

  it('answers a taken username with 409 username_taken, also in another letter case', async () => {
    expect((await register(unique({ username: 'Linus' }))).status).toBe(201);
    for (const username of ['Linus', 'linus', 'LINUS']) {
      const res = await register(unique({ username }));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('username_taken');
    }
  });

  it('counts lengths in code points: 8 emoji make a password, 40 make a display name', async () => {
    const res = await register(unique({ password: '🎮'.repeat(8), display_name: '🎮'.repeat(40) }));
    expect(res.status).toBe(201);
    expect(res.body.data.player.display_name).toBe('🎮'.repeat(40));
    expect(res.body.data.player.username).toMatch(/^player_\d{4}$/);
  });

  it('accepts the limits exactly: password 8 and 256, display name 2 and 40, username 3 and 32', async () => {
    for (const body of [
      unique({ password: 'x'.repeat(8), display_name: 'Al' }),
      unique({ password: 'x'.repeat(256), display_name: 'D'.repeat(40) }),
      unique({ username: 'abc' }),
      unique({ username: 'u'.repeat(32) }),
    ]) {
      expect((await register(body)).status).toBe(201);
    }
  });

  it.each([
    ['no body', undefined, 'body'],
    ['a JSON array', [], 'body'],
    ['a missing email', { password: 'secret-password', display_name: 'Someone' }, 'email'],
    ['a missing password', { email: 'x1@example.com', display_name: 'Someone' }, 'password'],
    ['a missing display name', { email: 'x2@example.com', password: 'secret-password' }, 'display_name'],
    ['an email that is a number', { ...valid, email: 5 }, 'email'],
    ['a password that is a boolean', { ...valid, email: 'x3@example.com', password: true }, 'password'],
    ['a display name that is a list', { ...valid, email: 'x4@example.com', display_name: ['Ada'] }, 'display_name'],
    ['newsletter as a string', { ...valid, email: 'x5@example.com', newsletter: 'yes' }, 'newsletter'],
    ['username null', { ...valid, email: 'x6@example.com', username: null }, 'username'],
    ['an invalid email', { ...valid, email: 'not-an-email' }, 'email'],
    ['an email without domain', { ...valid, email: 'ada@' }, 'email'],
    ['an overlong email', { ...valid, email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` }, 'email'],
    ['a password of 7 characters', { ...valid, email: 'x7@example.com', password: 'x'.repeat(7) }, 'password'],
    ['a password of 257 characters', { ...valid, email: 'x8@example.com', password: 'x'.repeat(257) }, 'password'],
    [
      'a display name of 1 character after trimming',
      { ...valid, email: 'x9@example.com', display_name: '  A  ' },
      'display_name',
    ],
    [
      'a display name of 41 characters',
      { ...valid, email: 'y1@example.com', display_name: 'D'.repeat(41) },
      'display_name',
    ],
    [
      'a display name with a line break',
      { ...valid, email: 'y2@example.com', display_name: 'Ada\nLovelace' },
      'display_name',
    ],
    ['a username of 2 characters', { ...valid, email: 'y3@example.com', username: 'ab' }, 'username'],
    ['a username of 33 characters', { ...valid, email: 'y4@example.com', username: 'u'.repeat(33) }, 'username'],
    ['a username with a dash', { ...valid, email: 'y5@example.com', username: 'ada-l' }, 'username'],
    ['a username with an accent', { ...valid, email: 'y6@example.com', username: 'zoë' }, 'username'],
    ['an unknown field', { ...valid, email: 'y7@example.com', role: 'admin' }, 'role'],
  ])('refuses %s with 422 validation_failed', async (_what, body, field) => {
    const res = await register(body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toHaveProperty(field);
  });

  it('refuses a form body with 415', async () => {
    const res = await h.http.post('/v1/auth/register', {
      body: 'email=a@b.c&password=12345678',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });

  it('refuses a foreign Origin with 403 cross_origin_forbidden and creates nothing', async () => {
    const body = unique();
    const res = await register(body, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin_forbidden');
    expect(
      await h.ctx.db.selectFrom('players').select('id').where('email', '=', body.email).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('sets the portal session cookie only when called with X-Requested-With: ServiceSDK', async () => {
    const plain = await register(unique());
    expect(plain.cookies).toEqual([]);
    const sdk = await register(unique(), { 'x-requested-with': 'ServiceSDK' });
    expect(sdk.status).toBe(201);
    const cookie = sdk.cookies.find((c) => c.name === 'gp_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 90 * 86400 });
    expect(cookie.secure).toBeFalsy();
    expect(h.app.unsignCookie(cookie.value)).toEqual({ valid: true, renew: false, value: sdk.body.data.token });
    const me = await h.http.get('/v1/me', {
      cookies: { gp_session: cookie.value },
      headers: { 'x-requested-with': 'ServiceSDK' },
    });
    expect(me.status).toBe(200);
  });

  it('ignores a credential sent along (a developer key cannot register on behalf of anyone)', async () => {
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['players:read']);
    const res = await h.http.post('/v1/auth/register', { body: unique(), token: key });
    expect(res.status).toBe(201);
  });

  it('keeps a verification mail in the outbox when no SMTP server is set', async () => {
    const body = unique();
    await register(body);
    await h.ctx.mailer.idle();
    const mails = await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', body.email).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Confirm your email address');
    expect(mails[0]!.text_body).toMatch(/http:\/\/localhost:8080\/verify-email\?token=mt_[0-9A-Za-z]+/);
  });
});
