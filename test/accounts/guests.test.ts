// POST /v1/auth/guest: a guest player with no credential, a free player in every rule, with no email, password, API
// tokens or public profile; the cap of new guests per address and day; the metrics.
import { expect, it } from 'vitest';
import { createGame } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { playApi, usage } from '../play/play-helpers.js';
import { PASSWORD, SDK, as, newGuest } from './guest-helpers.js';

/** The samples of one counter in GET /metrics, summed over the labels given. */
async function counter(h: Harness, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = (await h.http.get('/metrics')).text;
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (match[2] ?? '').includes(`${k}="${v}"`));
    if (has) sum += Number(match[3]);
  }
  return sum;
}

eachDialect('accounts: guest players', (h) => {
  const api = playApi(h);

  it('makes a guest with no credential and no body, answering like register: own view with guest true and no email', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const before = await counter(h, 'gameplatform_guests_created_total');
    const res = await h.http.post('/v1/auth/guest');
    expect(res.status).toBe(201);
    const { player, token, token_expires_at, entitlement } = res.body.data;
    expect(Object.keys(res.body.data).sort()).toEqual(['entitlement', 'player', 'token', 'token_expires_at']);
    expect(player).toEqual({
      id: expect.any(Number),
      username: expect.stringMatching(/^guest_[0-9a-z]{12}$/),
      display_name: expect.stringMatching(/^Guest [0-9A-Z]{4}$/),
      avatar_url: expect.stringMatching(/\/avatars\/initials\/\d+\/G[0-9A-Z]\.svg$/),
      bio: null,
      country: null,
      member_since: '2026-11-21 10:00:00',
      email: null,
      email_verified: false,
      role: 'player',
      newsletter: false,
      guest: true,
    });
    expect(player.username.slice(6, 10).toUpperCase()).toBe(player.display_name.slice(6));
    expect(token).toMatch(/^agp_/);
    expect(token_expires_at).toBe('2027-02-19T10:00:00+00:00');
    expect(entitlement).toMatchObject({ unlimited: false, allowance_seconds: 900, used_seconds: 0 });
    // No cookie without the SDK header: an app keeps the token.
    expect(res.cookies.find((c) => c.name === 'gp_session')).toBeUndefined();
    const me = await h.http.get('/v1/me', { token });
    expect(me.body.data.player).toEqual(player);
    expect(me.body.data.membership).toMatchObject({ unlimited: false, plan: 'free', status: 'none' });
    expect(await counter(h, 'gameplatform_guests_created_total')).toBe(before + 1);
  });

  it('sets the portal session cookie when called as the portal, names the token, and takes an optional device_name', async () => {
    const web = await newGuest(h, { web: true, headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } });
    expect(web.cookie).toBeTruthy();
    const me = await h.http.get('/v1/me', as(web));
    expect(me.status).toBe(200);
    expect(me.body.data.player.guest).toBe(true);
    const sessions = await h.http.get('/v1/me/sessions', as(web));
    expect(sessions.body.data.sessions.map((s: { name: string }) => s.name)).toEqual(['Web portal (Firefox)']);

    const named = await h.http.post('/v1/auth/guest', { body: { device_name: '  Pocket app ' } });
    expect(named.status).toBe(201);
    const tokens = await h.http.get('/v1/me/tokens', { token: named.body.data.token });
    expect(tokens.body.data.tokens.map((t: { name: string; kind: string }) => [t.name, t.kind])).toEqual([
      ['Pocket app', 'api'],
    ]);
    const app = await newGuest(h);
    const appTokens = await h.http.get('/v1/me/tokens', { token: app.token });
    expect(appTokens.body.data.tokens[0].name).toBe('guest');
    expect((await h.http.post('/v1/auth/guest', { body: { device_name: 5 } })).status).toBe(422);
    expect((await h.http.post('/v1/auth/guest', { body: { other: 1 } })).status).toBe(422);
  });

  it('plays as a free player: the allowance across games, the reset, premium refused, heartbeats, saves with versions, scores', async () => {
    h.clock.set('2026-11-22T10:00:00Z');
    const guest = await newGuest(h);
    const [a, b] = [await createGame(h.ctx), await createGame(h.ctx)];
    const premium = await createGame(h.ctx, { requires_premium: 1 });
    const refused = await api.start(guest.token, premium.slug);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('premium_required');

    const first = (await api.start(guest.token, a.slug)).body.data.session;
    h.clock.advance(60);
    const beat = await api.heartbeat(guest.token, first);
    expect(beat.status).toBe(200);
    expect(beat.body.data.entitlement).toMatchObject({ used_seconds: 60, remaining_seconds: 840 });
    await api.end(guest.token, first);
    // 900 s a day across all games: the other game's session closes at the allowance.
    await h.ctx.db
      .updateTable('daily_usage')
      .set({ seconds: 880 })
      .where('player_id', '=', guest.id)
      .where('day', '=', '2026-11-22')
      .execute();
    const second = (await api.start(guest.token, b.slug)).body.data.session;
    h.clock.advance(30);
    const last = await api.heartbeat(guest.token, second);
    expect(last.body.data).toMatchObject({
      limit_reached: true,
      entitlement: { used_seconds: 900, limit_reached: true },
    });
    const noTime = await api.start(guest.token, a.slug);
    expect(noTime.status).toBe(402);
    expect(noTime.body.error.code).toBe('limit_reached');
    // The reset at midnight in Europe/Berlin gives the time back.
    h.clock.set('2026-11-22T23:00:01Z');
    expect((await api.start(guest.token, a.slug)).status).toBe(200);
    expect(await usage(h, guest.id, '2026-11-22')).toMatchObject({ seconds: 900 });

    const put = (body: unknown) => h.http.put(`/v1/games/${a.slug}/states/0`, { token: guest.token, body });
    expect((await put({ state: { level: 1 } })).body.data).toMatchObject({ version: 1, created: true });
    expect((await put({ state: { level: 2 }, expected_version: 1 })).body.data).toMatchObject({ version: 2 });
    const stale = await put({ state: { level: 3 }, expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'version_conflict', current_version: 2 });

    const score = await h.http.post(`/v1/games/${a.slug}/scores`, { token: guest.token, body: { score: 420 } });
    expect(score.status).toBe(201);
    expect(score.body.data).toMatchObject({ rank: { rank: 1, best: 420 }, personal_best: true });
  });

  it('shows a guest on leaderboards under its generated name, marked guest, with no public profile or profile page', async () => {
    const guest = await newGuest(h);
    const game = await createGame(h.ctx);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 7 } });
    const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
    expect(board.body.data.leaderboard[0].player).toEqual({
      username: guest.username,
      display_name: guest.display_name,
      country: null,
      avatar_url: expect.any(String),
      guest: true,
    });
    const around = await h.http.get(`/v1/games/${game.slug}/leaderboard`, {
      token: guest.token,
      query: { around: 'me' },
    });
    expect(around.body.data.leaderboard[0].player.guest).toBe(true);
    expect(around.body.data.me).toEqual({ rank: 1, best: 7 });
    const profile = await h.http.get(`/v1/players/${guest.username}`);
    expect(profile.status).toBe(404);
    expect(profile.body.error.code).toBe('not_found');
    expect((await h.http.get(`/u/${guest.username}`)).status).toBe(404);
  });

  it("leaves the spec's four player fields alone on the rows of every other player", async () => {
    const game = await createGame(h.ctx);
    const reg = await h.http.post('/v1/auth/register', {
      body: { email: `lb${process.pid}@example.com`, password: PASSWORD, display_name: 'Board Player' },
    });
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: reg.body.data.token, body: { score: 1 } });
    const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
    expect(Object.keys(board.body.data.leaderboard[0].player).sort()).toEqual([
      'avatar_url',
      'country',
      'display_name',
      'username',
    ]);
  });

  it('refuses a guest API tokens, email, password, profile, avatar and deletion with 403 account_required', async () => {
    const guest = await newGuest(h, { web: true });
    const refusals: Array<[string, Promise<{ status: number; body: any }>]> = [
      ['POST /me/tokens', h.http.post('/v1/me/tokens', { ...as(guest), body: { name: 'script' } })],
      ['PATCH /me', h.http.patch('/v1/me', { ...as(guest), body: { display_name: 'Not A Guest' } })],
      ['POST /me/verification-email', h.http.post('/v1/me/verification-email', as(guest))],
      [
        'POST /me/password',
        h.http.post('/v1/me/password', {
          ...as(guest),
          body: { current_password: 'whatever1', new_password: 'something new' },
        }),
      ],
      [
        'POST /me/email',
        h.http.post('/v1/me/email', { ...as(guest), body: { email: 'me@example.com', password: 'whatever1' } }),
      ],
      ['DELETE /me', h.http.delete('/v1/me', { ...as(guest), body: { password: 'whatever1' } })],
      ['DELETE /me/avatar', h.http.delete('/v1/me/avatar', as(guest))],
    ];
    for (const [route, call] of refusals) {
      const res = await call;
      expect({ route, status: res.status, code: res.body.error?.code }).toEqual({
        route,
        status: 403,
        code: 'account_required',
      });
      expect(res.body.error.message).toMatch(/create a free account \(or log in\) first/);
    }
    const tokens = await h.http.get('/v1/me/tokens', as(guest));
    expect(tokens.body.data.tokens).toHaveLength(1);
    // What a guest may do: read its own data and sign its browser out.
    expect((await h.http.get('/v1/me/export', as(guest))).status).toBe(200);
    expect((await h.http.get('/v1/me/playtime', as(guest))).status).toBe(200);
    expect((await h.http.post('/v1/auth/logout', as(guest))).status).toBe(200);
    expect((await h.http.get('/v1/me', as(guest))).status).toBe(401);
  });

  it('lets nobody log in as a guest: its username with any password is invalid_credentials', async () => {
    const guest = await newGuest(h);
    const res = await h.http.post('/v1/auth/login', { body: { login: guest.username, password: 'anything at all' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_credentials');
    const forgot = await h.http.post('/v1/auth/forgot-password', { body: { email: 'nobody@example.com' } });
    expect(forgot.status).toBe(200);
  });

  it('documents the route, its optional body, its 429 and the guest flag in OpenAPI', async () => {
    const doc = (await h.http.get('/v1/openapi.json')).body;
    const op = doc.paths['/v1/auth/guest'].post;
    expect(op.operationId).toBe('createGuest');
    expect(op.security).toEqual([]);
    expect(op.requestBody.required).toBe(false);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', '429']));
    expect(JSON.stringify(op.responses['429'])).toContain('guest_limit_reached');
    expect(doc.components.schemas.OwnPlayer.properties.guest.type).toBe('boolean');
    expect(doc.components.schemas.ClaimedGuest).toBeDefined();
    expect(JSON.stringify(doc.paths['/v1/me/tokens'].post.responses['403'])).toContain('account_required');
    for (const path of ['/v1/auth/login', '/v1/auth/register'])
      expect(doc.paths[path].post.security).toEqual([{}, { playerToken: [] }, { portalSession: [] }]);
  });
});

eachDialect(
  'accounts: the cap of new guests per address',
  (h) => {
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

    it('refuses the guest past guests.per_ip_per_day with 429 guest_limit_reached until the reset, per client address', async () => {
      h.clock.set('2026-11-23T21:00:00Z'); // 22:00 in Berlin: two hours to the reset
      for (let i = 0; i < 2; i++) expect((await h.http.post('/v1/auth/guest', from('203.0.113.7'))).status).toBe(201);
      const refused = await h.http.post('/v1/auth/guest', {
        ...from('203.0.113.7'),
        headers: { ...SDK, ...from('203.0.113.7').headers },
      });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toEqual({
        code: 'guest_limit_reached',
        message: expect.stringMatching(/log in or create a free account to play/),
        retry_after: 7200,
      });
      expect(refused.headers['retry-after']).toBe('7200');
      expect(refused.cookies).toEqual([]);
      const guests = await h.ctx.db.selectFrom('players').select('id').where('guest', '=', 1).execute();
      expect(guests).toHaveLength(2); // the refused call left nothing behind
      // Another client behind the same trusted proxy has its own count; an IPv6 /64 counts as one address.
      expect((await h.http.post('/v1/auth/guest', from('198.51.100.4'))).status).toBe(201);
      expect((await h.http.post('/v1/auth/guest', from('2001:db8:1:2::1'))).status).toBe(201);
      expect((await h.http.post('/v1/auth/guest', from('2001:db8:1:2::ffff'))).status).toBe(201);
      expect((await h.http.post('/v1/auth/guest', from('2001:db8:1:2:abcd::9'))).status).toBe(429);
      // The count is kept as a keyed hash, never the address.
      const kept = await h.ctx.db.selectFrom('guest_quotas').select('address').execute();
      expect(kept.map((r) => r.address).join(' ')).not.toMatch(/203\.0\.113|2001:db8/);
      // After midnight in reset_timezone the address may start guests again.
      h.clock.set('2026-11-23T23:00:00Z');
      expect((await h.http.post('/v1/auth/guest', from('203.0.113.7'))).status).toBe(201);
    });

    it('still lets a capped address log in and register, and counts only today', async () => {
      h.clock.set('2026-11-25T10:00:00Z');
      for (let i = 0; i < 2; i++) await h.http.post('/v1/auth/guest', from('192.0.2.99'));
      expect((await h.http.post('/v1/auth/guest', from('192.0.2.99'))).status).toBe(429);
      const reg = await h.http.post('/v1/auth/register', {
        ...from('192.0.2.99'),
        body: { email: `capped${process.pid}@example.com`, password: PASSWORD, display_name: 'Capped Visitor' },
      });
      expect(reg.status).toBe(201);
    });
  },
  { settings: { 'guests.per_ip_per_day': 2, trust_proxy: 'true' } },
);

eachDialect(
  'accounts: guests turned off',
  (h) => {
    it('refuses every guest with guest_limit_reached when guests.per_ip_per_day is 0', async () => {
      const res = await h.http.post('/v1/auth/guest');
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('guest_limit_reached');
    });
  },
  { settings: { 'guests.per_ip_per_day': 0 } },
);
