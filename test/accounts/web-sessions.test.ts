// Web sessions (portal logins, which set the cookie) beside API tokens: ten active in all, a login makes room
// among its own kind first and names what it revoked, GET /v1/me/tokens lists both kinds, GET/DELETE /v1/me/sessions
// the browsers alone, and the migration that sorts old tokens.
import { expect, it } from 'vitest';
import * as tokenKinds from '../../src/db/migrations/2026_11_23_1810_token_kinds.js';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced } from '../helpers/openapi.js';
import { createPlayerWithPassword, createToken } from '../helpers/factories.js';

const PASSWORD = 'correct horse battery';
const sdk = { 'x-requested-with': 'ServiceSDK' };

eachDialect('accounts: web sessions beside API tokens', (h) => {
  /** A login through the portal (cookie) or as an app; returns the answer and, for the portal, the cookie to send back. */
  async function login(username: string, device: string, web: boolean) {
    const res = await h.http.post('/v1/auth/login', {
      body: { login: username, password: PASSWORD, device_name: device },
      headers: web ? sdk : {},
    });
    expect(res.status).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'gp_session')?.value;
    return { res, token: res.body.data.token as string, cookie };
  }
  const asBrowser = (cookie: string) => ({ cookies: { gp_session: cookie }, headers: sdk });
  const works = async (token: string) => (await h.http.get('/v1/me', { token })).status === 200;
  const kinds = async (playerId: number) =>
    h.ctx.db
      .selectFrom('player_tokens')
      .select(['name', 'kind'])
      .where('player_id', '=', playerId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();

  it('lists a portal login under /me/sessions, marked current, and among the tokens as kind web', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const web = await login(player.username, 'Web portal (Firefox)', true);
    expect(web.cookie).toBeTruthy();
    expect(web.res.body.data).not.toHaveProperty('revoked_token');
    const app = await login(player.username, 'Steam Deck', false);
    expect(app.cookie).toBeUndefined();

    const sessions = await h.http.get('/v1/me/sessions', asBrowser(web.cookie!));
    expect(sessions.status).toBe(200);
    expect(sessions.body.data.sessions).toEqual([
      {
        id: expect.any(Number),
        name: 'Web portal (Firefox)',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        last_used_at: expect.any(String),
        token_expires_at: expect.any(String),
        current: true,
      },
    ]);
    const tokens = await h.http.get('/v1/me/tokens', asBrowser(web.cookie!));
    const rows = (list: Array<{ name: string; kind: string; current: boolean }>) =>
      list.map((t) => [t.name, t.kind, t.current]);
    expect(rows(tokens.body.data.tokens)).toEqual([
      ['Steam Deck', 'api', false],
      ['Web portal (Firefox)', 'web', true],
    ]);
    // Seen from the app: its own token is current, the browser is listed but not current.
    expect(rows((await h.http.get('/v1/me/tokens', { token: app.token })).body.data.tokens)).toEqual([
      ['Steam Deck', 'api', true],
      ['Web portal (Firefox)', 'web', false],
    ]);
    expect(
      (await h.http.get('/v1/me/sessions', { token: app.token })).body.data.sessions.map(
        (s: { current: boolean }) => s.current,
      ),
    ).toEqual([false]);
    expect(await kinds(player.id)).toEqual([
      { name: 'Web portal (Firefox)', kind: 'web' },
      { name: 'Steam Deck', kind: 'api' },
    ]);
  });

  it('makes a web session of a portal registration, named after the browser, and an API token of any other', async () => {
    const body = (n: string) => ({
      email: `${n}@example.com`,
      password: PASSWORD,
      display_name: `Player ${n}`,
      username: n,
    });
    const ua = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
    const web = await h.http.post('/v1/auth/register', { body: body('webreg'), headers: { ...sdk, 'user-agent': ua } });
    const app = await h.http.post('/v1/auth/register', { body: body('appreg') });
    expect([web.status, app.status]).toEqual([201, 201]);
    expect(web.body.data).not.toHaveProperty('revoked_token');
    expect(await kinds(web.body.data.player.id)).toEqual([{ name: 'Web portal (Firefox)', kind: 'web' }]);
    expect(await kinds(app.body.data.player.id)).toEqual([{ name: 'register', kind: 'api' }]);
  });

  it('makes room for a browser by signing out the least recently used browser, not an API token, and says which', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const apps: string[] = [];
    for (let i = 0; i < 5; i++) apps.push((await createToken(h.ctx, player.id, { name: `script ${i}` })).token);
    const browsers: Array<{ token: string; cookie?: string }> = [];
    for (let i = 0; i < 5; i++) {
      browsers.push(await login(player.username, `browser ${i}`, true));
      h.clock.advance(61);
    }
    // Every browser is used but the third; the apps are never used (they would go first if kinds were mixed).
    for (const [i, b] of browsers.entries())
      if (i !== 2) expect((await h.http.get('/v1/me', asBrowser(b.cookie!))).status).toBe(200);
    h.clock.advance(61);
    const eleventh = await login(player.username, 'browser 5', true);
    expect(eleventh.res.body.data.revoked_token).toEqual({
      id: expect.any(Number),
      kind: 'web',
      name: 'browser 2',
      prefix: browsers[2]!.token.slice(0, 12),
      created_at: expect.any(String),
      last_used_at: null,
    });
    expect(await works(browsers[2]!.token)).toBe(false);
    for (const token of apps) expect(await works(token)).toBe(true);
    const sessions = (await h.http.get('/v1/me/sessions', asBrowser(eleventh.cookie!))).body.data.sessions as Array<{
      name: string;
      current: boolean;
    }>;
    expect(sessions).toHaveLength(5);
    expect(sessions.map((s) => s.name)).not.toContain('browser 2');
    expect(sessions.filter((s) => s.current).map((s) => s.name)).toEqual(['browser 5']);
    expect((await h.http.get('/v1/me/tokens', { token: apps[0]! })).body.data.tokens).toHaveLength(10);
  });

  it('makes room for an app login by revoking an API token, not a browser', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const browsers: string[] = [];
    for (let i = 0; i < 4; i++) browsers.push((await login(player.username, `browser ${i}`, true)).cookie!);
    const apps: string[] = [];
    for (let i = 0; i < 6; i++) apps.push((await login(player.username, `app ${i}`, false)).token);
    const eleventh = await login(player.username, 'app 6', false);
    expect(eleventh.res.body.data.revoked_token).toMatchObject({
      kind: 'api',
      name: 'app 0',
      prefix: apps[0]!.slice(0, 12),
    });
    expect(await works(apps[0]!)).toBe(false);
    for (const cookie of browsers) expect((await h.http.get('/v1/me', asBrowser(cookie))).status).toBe(200);
    expect(await kinds(player.id)).toHaveLength(10);
  });

  it('keeps ten in all: a browser with ten API tokens and no other browser takes the place of an API token', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const apps: string[] = [];
    for (let i = 0; i < 10; i++) apps.push((await createToken(h.ctx, player.id, { name: `script ${i}` })).token);
    const web = await login(player.username, 'browser', true);
    expect(web.res.body.data.revoked_token).toMatchObject({ kind: 'api', name: 'script 0' });
    expect(await works(apps[0]!)).toBe(false);
    expect(await kinds(player.id)).toHaveLength(10);
  });

  it('counts browsers and API tokens together against the ten of POST /me/tokens', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    let cookie = '';
    for (let i = 0; i < 4; i++) cookie = (await login(player.username, `browser ${i}`, true)).cookie!;
    for (let i = 0; i < 6; i++)
      expect((await h.http.post('/v1/me/tokens', { ...asBrowser(cookie), body: { name: `t${i}` } })).status).toBe(201);
    const full = await h.http.post('/v1/me/tokens', { ...asBrowser(cookie), body: { name: 'eleventh' } });
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe('token_limit_reached');
    expect(await kinds(player.id)).toHaveLength(10);
  });

  it('signs one browser out with DELETE /me/sessions/{id} or DELETE /me/tokens/{id}; /me/sessions is for browsers only', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const here = await login(player.username, 'here', true);
    const there = await login(player.username, 'there', true);
    const app = await login(player.username, 'app', false);
    const list = (await h.http.get('/v1/me/sessions', asBrowser(here.cookie!))).body.data.sessions as Array<{
      id: number;
      name: string;
    }>;
    const thereId = list.find((s) => s.name === 'there')!.id;
    const appId = (await h.http.get('/v1/me/tokens', { token: app.token })).body.data.tokens[0].id as number;

    // An API token is not a browser: 404 on /me/sessions, and it keeps working.
    expect((await h.http.delete(`/v1/me/sessions/${appId}`, asBrowser(here.cookie!))).status).toBe(404);
    expect(await works(app.token)).toBe(true);
    // Any token, a browser's included, is revoked through /me/tokens (spec: DELETE /me/tokens/{id}).
    const third = await login(player.username, 'third', true);
    const thirdId = (await h.http.get('/v1/me/sessions', asBrowser(third.cookie!))).body.data.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id as number;
    expect((await h.http.delete(`/v1/me/tokens/${thirdId}`, asBrowser(here.cookie!))).status).toBe(200);
    expect(await works(third.token)).toBe(false);
    expect(await works(there.token)).toBe(true);

    const res = await h.http.delete(`/v1/me/sessions/${thereId}`, asBrowser(here.cookie!));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: thereId, revoked: true });
    expect(res.cookies.find((c) => c.name === 'gp_session')).toBeUndefined();
    expect(await works(there.token)).toBe(false);
    expect((await h.http.delete(`/v1/me/sessions/${thereId}`, asBrowser(here.cookie!))).status).toBe(404);

    // Signing out the browser making the call clears its cookie.
    const hereId = list.find((s) => s.name === 'here')!.id;
    const own = await h.http.delete(`/v1/me/sessions/${hereId}`, asBrowser(here.cookie!));
    expect(own.status).toBe(200);
    expect(own.cookies.find((c) => c.name === 'gp_session')?.value).toBe('');
    expect((await h.http.get('/v1/me', asBrowser(here.cookie!))).status).toBe(401);
  });

  it("never signs out another player's browser", async () => {
    const a = await createPlayerWithPassword(h.ctx, PASSWORD);
    const b = await createPlayerWithPassword(h.ctx, PASSWORD);
    const aWeb = await login(a.username, 'a', true);
    const bWeb = await login(b.username, 'b', true);
    const bId = (await h.http.get('/v1/me/sessions', asBrowser(bWeb.cookie!))).body.data.sessions[0].id as number;
    expect(
      (await h.http.get('/v1/me/sessions', asBrowser(aWeb.cookie!))).body.data.sessions.map(
        (s: { name: string }) => s.name,
      ),
    ).toEqual(['a']);
    expect((await h.http.delete(`/v1/me/sessions/${bId}`, asBrowser(aWeb.cookie!))).status).toBe(404);
    expect((await h.http.delete('/v1/me/sessions', asBrowser(aWeb.cookie!))).body.data).toEqual({ revoked: 0 });
    expect(await works(bWeb.token)).toBe(true);
  });

  it('signs every other browser out with DELETE /me/sessions, keeping this one and the API tokens', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const here = await login(player.username, 'here', true);
    const others = [await login(player.username, 'other 1', true), await login(player.username, 'other 2', true)];
    const app = await login(player.username, 'app', false);
    const res = await h.http.delete('/v1/me/sessions', asBrowser(here.cookie!));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revoked: 2 });
    expect(res.cookies.find((c) => c.name === 'gp_session')).toBeUndefined();
    for (const o of others) expect(await works(o.token)).toBe(false);
    expect(await works(here.token)).toBe(true);
    expect(await works(app.token)).toBe(true);
    expect(
      (await h.http.get('/v1/me/sessions', asBrowser(here.cookie!))).body.data.sessions.map(
        (s: { name: string }) => s.name,
      ),
    ).toEqual(['here']);
  });

  it('asks for a player credential on the session routes', async () => {
    expect((await h.http.get('/v1/me/sessions')).status).toBe(401);
    expect((await h.http.delete('/v1/me/sessions')).status).toBe(401);
    expect((await h.http.delete('/v1/me/sessions/1')).status).toBe(401);
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    const app = await login(player.username, 'app', false);
    expect((await h.http.delete('/v1/me/sessions/0', { token: app.token })).status).toBe(422);
  });

  it('documents the session routes and revoked_token in the OpenAPI document', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    for (const [method, path, statuses] of [
      ['get', '/v1/me/sessions', ['200', '401', '403']],
      ['delete', '/v1/me/sessions', ['200', '401', '403']],
      ['delete', '/v1/me/sessions/{id}', ['200', '401', '403', '404', '422']],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.description).toBeTruthy();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([...statuses]));
      expect(op.security).toEqual([{ playerToken: [] }, { portalSession: [] }]);
    }
    const session =
      doc.paths['/v1/me/sessions'].get.responses['200'].content['application/json'].schema.properties.data.properties
        .sessions.items;
    expect(Object.keys(session.properties).sort()).toEqual([
      'created_at',
      'current',
      'id',
      'last_used_at',
      'name',
      'token_expires_at',
    ]);
    for (const path of ['/v1/auth/login', '/v1/auth/register']) {
      const op = doc.paths[path].post;
      const data =
        op.responses[path.endsWith('login') ? '200' : '201'].content['application/json'].schema.properties.data;
      expect(data.required).not.toContain('revoked_token');
      expect(Object.keys(data.properties.revoked_token.properties).sort()).toEqual([
        'created_at',
        'id',
        'kind',
        'last_used_at',
        'name',
        'prefix',
      ]);
    }
  });

  // Last: it takes the column away and puts it back, as upgrading a database made before the kinds does.
  it('sorts the tokens of a database made before the kinds: the portal ones become web sessions', async () => {
    const player = await createPlayerWithPassword(h.ctx, PASSWORD);
    await tokenKinds.down(h.ctx.db);
    const now = h.clock.now();
    const names = ['Web portal (Chrome)', 'portal', 'stats script', 'login', 'Web portals fan club'];
    for (const [i, name] of names.entries()) {
      await h.ctx.db
        .insertInto('player_tokens')
        .values({
          player_id: player.id,
          name,
          token_hash: `hash-kind-${i}`,
          prefix: 'agp_xxxxxxxx',
          created_at: now,
          last_used_at: null,
          expires_at: now + 86_400_000,
        } as never)
        .execute();
    }
    await tokenKinds.up(h.ctx.db);
    expect(await kinds(player.id)).toEqual([
      { name: 'Web portal (Chrome)', kind: 'web' },
      { name: 'portal', kind: 'web' },
      { name: 'stats script', kind: 'api' },
      { name: 'login', kind: 'api' },
      { name: 'Web portals fan club', kind: 'api' },
    ]);
  });
});
