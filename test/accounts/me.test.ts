// GET and PATCH /v1/me: the own view, entitlement and membership; every limit.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayer, createPlayerWithToken, createToken } from '../helpers/factories.js';

eachDialect('accounts: GET /me', (h) => {
  it('gives the own view, the entitlement and the membership', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx, {
      username: 'Own_View',
      email: 'own@example.com',
      display_name: 'Own View',
    });
    await h.ctx.db
      .insertInto('daily_usage')
      .values({ player_id: player.id, day: '2026-11-21', seconds: 300, sessions: 1 })
      .execute();
    const res = await h.http.get('/v1/me', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      player: {
        id: player.id,
        username: 'Own_View',
        display_name: 'Own View',
        avatar_url: expect.stringMatching(/\/avatars\/initials\/\d+\/OV\.svg$/),
        bio: null,
        country: null,
        member_since: '2026-11-21 10:00:00',
        email: 'own@example.com',
        email_verified: false,
        role: 'player',
        newsletter: false,
        guest: false,
      },
      entitlement: {
        unlimited: false,
        allowance_seconds: 900,
        used_seconds: 300,
        remaining_seconds: 600,
        limit_reached: false,
        resets_in_seconds: 13 * 3600,
        day: '2026-11-21',
      },
      membership: { unlimited: false, plan: 'free', status: 'none', renews_at: null, ends_at: null },
    });
  });

  it('shows an Unlimited member with no remaining limit and the end date', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const ends = Date.parse('2026-12-31T23:00:00Z');
    const { token } = await createPlayerWithToken(h.ctx, {
      membership_plan: 'unlimited',
      membership_status: 'canceled',
      membership_ends_at: ends,
    });
    const res = await h.http.get('/v1/me', { token });
    expect(res.body.data.membership).toEqual({
      unlimited: true,
      plan: 'unlimited',
      status: 'canceled',
      renews_at: null,
      ends_at: '2026-12-31 23:00:00',
    });
    expect(res.body.data.entitlement).toMatchObject({ unlimited: true, remaining_seconds: null, limit_reached: false });
  });

  it('shows staff as unlimited in play but not as a member', async () => {
    const { token } = await createPlayerWithToken(h.ctx, { role: 'staff' });
    const res = await h.http.get('/v1/me', { token });
    expect(res.body.data.player.role).toBe('staff');
    expect(res.body.data.entitlement.unlimited).toBe(true);
    expect(res.body.data.membership.unlimited).toBe(false);
  });

  it('answers 401 without a credential, with an expired or a revoked token', async () => {
    expect((await h.http.get('/v1/me')).status).toBe(401);
    const player = await createPlayer(h.ctx);
    const revoked = await createToken(h.ctx, player.id, { revoked: true });
    const expiring = await createToken(h.ctx, player.id, { ttlSeconds: 10 });
    h.clock.advance(10);
    for (const token of [revoked.token, expiring.token]) {
      const res = await h.http.get('/v1/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });

  it('refuses a developer key with 403: it never sees an email address', async () => {
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, [
      'players:read',
      'states:read',
      'states:write',
      'scores:write',
      'stats:read',
    ]);
    for (const call of [
      h.http.get('/v1/me', { token: key }),
      h.http.patch('/v1/me', { token: key, body: { bio: 'x' } }),
      h.http.get('/v1/me/tokens', { token: key }),
    ]) {
      const res = await call;
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(res.text).not.toContain('@');
    }
  });

  it('refuses the portal cookie without X-Requested-With with 403 csrf_rejected', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await h.http.get('/v1/me', { cookies: { gp_session: h.app.signCookie(token) } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('csrf_rejected');
  });
});

eachDialect('accounts: PATCH /me', (h) => {
  const patch = (token: string, body: unknown) => h.http.patch('/v1/me', { token, body });

  it('changes every field and answers with the updated own view', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    h.clock.advance(10);
    const res = await patch(token, {
      display_name: 'Grace Hopper',
      username: 'Amazing_Grace',
      bio: 'COBOL.\nNanoseconds.',
      country: 'us',
      newsletter: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: player.id,
      display_name: 'Grace Hopper',
      username: 'Amazing_Grace',
      bio: 'COBOL.\nNanoseconds.',
      country: 'US',
      newsletter: true,
      email: player.email,
      avatar_url: expect.stringMatching(/\/GH\.svg$/),
    });
    expect((await h.http.get('/v1/me', { token })).body.data.player).toEqual(res.body.data);
    expect((await h.http.get('/v1/players/amazing_grace')).body.data.player.bio).toBe('COBOL.\nNanoseconds.');
  });

  it('changes only the fields sent; an empty object changes nothing', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    await patch(token, { bio: 'Keep me', country: 'DE' });
    const res = await patch(token, { newsletter: true });
    expect(res.body.data).toMatchObject({ bio: 'Keep me', country: 'DE', newsletter: true });
    const same = await patch(token, {});
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(res.body.data);
  });

  it('clears bio and country with "" or null', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    for (const empty of ['', null, '   ']) {
      await patch(token, { bio: 'Something', country: 'FR' });
      const res = await patch(token, { bio: empty, country: empty });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ bio: null, country: null });
    }
  });

  it('trims and NFC-normalises text, counting code points', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await patch(token, {
      display_name: '  Rene\u0301e  ',
      username: '  renee_x ',
      bio: '\r\n  line one\r\nline two  \n',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ display_name: 'Ren\u00e9e', username: 'renee_x', bio: 'line one\nline two' });
    const emoji = await patch(token, { display_name: '🙂'.repeat(40), bio: '🎲'.repeat(300) });
    expect(emoji.status).toBe(200);
    expect(emoji.body.data.display_name).toBe('🙂'.repeat(40));
  });

  it('accepts the limits exactly', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    for (const body of [
      { display_name: 'Xy' },
      { display_name: 'x'.repeat(40) },
      { username: 'abc' },
      { username: 'A'.repeat(32) },
      { bio: 'b'.repeat(300) },
    ]) {
      expect((await patch(token, body)).status).toBe(200);
    }
  });

  it.each([
    ['display_name of 1 character', { display_name: 'X' }, 'display_name'],
    ['display_name of 1 character after trimming', { display_name: ' X ' }, 'display_name'],
    ['display_name of 41 characters', { display_name: 'x'.repeat(41) }, 'display_name'],
    ['display_name with a tab', { display_name: 'Ada\tL' }, 'display_name'],
    ['display_name null', { display_name: null }, 'display_name'],
    ['display_name as a number', { display_name: 42 }, 'display_name'],
    ['username of 2 characters', { username: 'ab' }, 'username'],
    ['username of 33 characters', { username: 'u'.repeat(33) }, 'username'],
    ['username with a space', { username: 'ada l' }, 'username'],
    ['username with a dot', { username: 'ada.l' }, 'username'],
    ['username with a non-Latin letter', { username: 'даша' }, 'username'],
    ['username null', { username: null }, 'username'],
    ['bio of 301 characters', { bio: 'b'.repeat(301) }, 'bio'],
    ['bio of 301 emoji', { bio: '🎲'.repeat(301) }, 'bio'],
    ['bio with a control character', { bio: 'bell\u0007' }, 'bio'],
    ['bio as an object', { bio: { text: 'x' } }, 'bio'],
    ['country of three letters', { country: 'DEU' }, 'country'],
    ['country as a number', { country: 276 }, 'country'],
    ['country that is no ISO code', { country: 'XX' }, 'country'],
    ['country UK (not ISO)', { country: 'UK' }, 'country'],
    ['country XK (user-assigned)', { country: 'xk' }, 'country'],
    ['country EU', { country: 'EU' }, 'country'],
    ['newsletter as a string', { newsletter: 'true' }, 'newsletter'],
    ['newsletter as 1', { newsletter: 1 }, 'newsletter'],
    ['an unknown field', { email: 'new@example.com' }, 'email'],
    ['a role', { role: 'admin' }, 'role'],
  ])('refuses %s with 422 validation_failed and changes nothing', async (_what, body, field) => {
    const { token } = await createPlayerWithToken(h.ctx, { display_name: 'Before' });
    const res = await patch(token, body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toHaveProperty(field);
    const me = (await h.http.get('/v1/me', { token })).body.data.player;
    expect(me).toMatchObject({ display_name: 'Before', bio: null, country: null, role: 'player' });
  });

  it('reports a bad country together with the other bad fields, in words', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await patch(token, { display_name: 'X', country: 'XX', newsletter: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({
      display_name: expect.any(String),
      country: 'is not an ISO 3166-1 alpha-2 country code',
      newsletter: expect.any(String),
    });
  });

  it('refuses a missing body and a JSON array with 422, a form body with 415', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await h.http.patch('/v1/me', { token })).status).toBe(422);
    expect((await patch(token, [])).status).toBe(422);
    const form = await h.http.patch('/v1/me', {
      token,
      body: 'bio=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });

  it('answers a username taken by another player in any case with 409 username_taken', async () => {
    await createPlayer(h.ctx, { username: 'Taken_Name' });
    const { token } = await createPlayerWithToken(h.ctx);
    for (const username of ['Taken_Name', 'taken_name', 'TAKEN_NAME']) {
      const res = await patch(token, { username });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('username_taken');
    }
  });

  it('lets a player change the letter case of their own username', async () => {
    const { token } = await createPlayerWithToken(h.ctx, { username: 'case_me' });
    const res = await patch(token, { username: 'Case_Me' });
    expect(res.status).toBe(200);
    expect(res.body.data.username).toBe('Case_Me');
    expect((await h.http.get('/v1/players/CASE_ME')).body.data.player.username).toBe('Case_Me');
  });

  it('frees the old username once changed', async () => {
    const a = await createPlayerWithToken(h.ctx, { username: 'first_name' });
    const b = await createPlayerWithToken(h.ctx);
    expect((await patch(a.token, { username: 'second_name' })).status).toBe(200);
    expect((await patch(b.token, { username: 'First_Name' })).status).toBe(200);
  });

  it('changes only the caller: another player is untouched', async () => {
    const a = await createPlayerWithToken(h.ctx, { display_name: 'Alpha' });
    const b = await createPlayerWithToken(h.ctx, { display_name: 'Bravo' });
    await patch(a.token, { display_name: 'Alpha Two' });
    expect((await h.http.get('/v1/me', { token: b.token })).body.data.player.display_name).toBe('Bravo');
  });

  it('works through the portal session with the header, and refuses a foreign Origin', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const cookies = { gp_session: h.app.signCookie(token) };
    const ok = await h.http.patch('/v1/me', {
      cookies,
      headers: { 'x-requested-with': 'ServiceSDK' },
      body: { bio: 'via cookie' },
    });
    expect(ok.status).toBe(200);
    const csrf = await h.http.patch('/v1/me', { cookies, body: { bio: 'forged' } });
    expect(csrf.status).toBe(403);
    expect(csrf.body.error.code).toBe('csrf_rejected');
    const foreign = await h.http.patch('/v1/me', {
      token,
      headers: { origin: 'https://evil.example' },
      body: { bio: 'forged' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('cross_origin_forbidden');
    expect((await h.http.get('/v1/me', { token })).body.data.player.bio).toBe('via cookie');
  });
});
