// GET, POST and DELETE /v1/me/tokens: prefix-only listing, the current token, ten active at most, revocation at once.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayer, createPlayerWithToken, createToken } from '../helpers/factories.js';

eachDialect('accounts: /me/tokens', (h) => {
  it('lists the active tokens by prefix only, marking the current one', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const { player, token, tokenId } = await createPlayerWithToken(h.ctx);
    h.clock.advance(60);
    const other = await createToken(h.ctx, player.id, { name: 'laptop' });
    await createToken(h.ctx, player.id, { revoked: true });
    await createToken(h.ctx, player.id, { ttlSeconds: 30 });
    h.clock.advance(30);
    const res = await h.http.get('/v1/me/tokens', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.tokens).toEqual([
      {
        id: other.id,
        kind: 'api',
        name: 'laptop',
        prefix: other.token.slice(0, 12),
        created_at: '2026-11-21 10:01:00',
        last_used_at: null,
        token_expires_at: '2027-02-19T10:01:00+00:00',
        current: false,
      },
      {
        id: tokenId,
        kind: 'api',
        name: 'test',
        prefix: token.slice(0, 12),
        created_at: '2026-11-21 10:00:00',
        last_used_at: '2026-11-21 10:01:30',
        token_expires_at: '2027-02-19T10:00:00+00:00',
        current: true,
      },
    ]);
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain(other.token);
  });

  it("never lists another player's tokens", async () => {
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    const res = await h.http.get('/v1/me/tokens', { token: a.token });
    expect(res.body.data.tokens.map((t: { id: number }) => t.id)).toEqual([a.tokenId]);
    expect(res.body.data.tokens.map((t: { id: number }) => t.id)).not.toContain(b.tokenId);
  });

  it('creates a token shown once, which works at once', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await h.http.post('/v1/me/tokens', { token, body: { name: '  CI script ' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'CI script',
      token: expect.stringMatching(/^agp_[0-9A-Za-z]{43}$/),
      prefix: res.body.data.token.slice(0, 12),
      token_expires_at: '2027-02-19T10:00:00+00:00',
    });
    const me = await h.http.get('/v1/me/tokens', { token: res.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.tokens.find((t: { current: boolean }) => t.current).id).toBe(res.body.data.id);
  });

  it('answers the eleventh token with 409 token_limit_reached and issues nothing', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    for (let i = 0; i < 9; i++)
      expect((await h.http.post('/v1/me/tokens', { token, body: { name: `t${i}` } })).status).toBe(201);
    const res = await h.http.post('/v1/me/tokens', { token, body: { name: 'eleventh' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('token_limit_reached');
    const count = await h.ctx.db.selectFrom('player_tokens').select('id').where('player_id', '=', player.id).execute();
    expect(count).toHaveLength(10);
    // after deleting one there is room again
    const list = (await h.http.get('/v1/me/tokens', { token })).body.data.tokens;
    const victim = list.find((t: { current: boolean }) => !t.current);
    expect((await h.http.delete(`/v1/me/tokens/${victim.id}`, { token })).status).toBe(200);
    expect((await h.http.post('/v1/me/tokens', { token, body: { name: 'room again' } })).status).toBe(201);
  });

  it('never lets racing requests pass ten active tokens', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    for (let i = 0; i < 7; i++) await createToken(h.ctx, player.id);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => h.http.post('/v1/me/tokens', { token, body: { name: `race ${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const active = await h.ctx.db
      .selectFrom('player_tokens')
      .select('id')
      .where('player_id', '=', player.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(active).toHaveLength(10);
  });

  it('does not count expired tokens among the ten', async () => {
    const player = await createPlayer(h.ctx);
    for (let i = 0; i < 9; i++) await createToken(h.ctx, player.id, { ttlSeconds: 60 });
    const { token } = await createToken(h.ctx, player.id);
    h.clock.advance(60);
    expect((await h.http.post('/v1/me/tokens', { token, body: { name: 'fits' } })).status).toBe(201);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '   ' }],
    ['a name of 101 characters', { name: 'n'.repeat(101) }],
    ['a name that is a number', { name: 7 }],
    ['an unknown field', { name: 'ok', scopes: ['all'] }],
  ])('refuses %s with 422', async (_what, body) => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await h.http.post('/v1/me/tokens', { token, body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
  });

  it('revokes a token at once', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const other = await createToken(h.ctx, player.id);
    const res = await h.http.delete(`/v1/me/tokens/${other.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, data: { id: other.id, revoked: true } });
    expect((await h.http.get('/v1/me', { token: other.token })).status).toBe(401);
    expect((await h.http.delete(`/v1/me/tokens/${other.id}`, { token })).status).toBe(404);
  });

  it('can revoke the token of the call itself', async () => {
    const { token, tokenId } = await createPlayerWithToken(h.ctx);
    expect((await h.http.delete(`/v1/me/tokens/${tokenId}`, { token })).status).toBe(200);
    expect((await h.http.get('/v1/me', { token })).status).toBe(401);
  });

  it('clears the portal cookie when the session revokes its own token', async () => {
    const { token, tokenId } = await createPlayerWithToken(h.ctx);
    const res = await h.http.delete(`/v1/me/tokens/${tokenId}`, {
      cookies: { gp_session: h.app.signCookie(token) },
      headers: { 'x-requested-with': 'ServiceSDK' },
    });
    expect(res.status).toBe(200);
    expect(res.cookies.find((c) => c.name === 'gp_session')?.value).toBe('');
  });

  it("answers another player's token with 404 and leaves it working", async () => {
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    const res = await h.http.delete(`/v1/me/tokens/${b.tokenId}`, { token: a.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await h.http.get('/v1/me', { token: b.token })).status).toBe(200);
  });

  it.each([['abc'], ['0'], ['-1'], ['1.5']])('refuses the id %s with 422', async (id) => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await h.http.delete(`/v1/me/tokens/${id}`, { token });
    expect(res.status).toBe(422);
  });

  it('answers an unknown id with 404 and every route without a credential with 401', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await h.http.delete('/v1/me/tokens/999999', { token })).status).toBe(404);
    expect((await h.http.get('/v1/me/tokens')).status).toBe(401);
    expect((await h.http.post('/v1/me/tokens', { body: { name: 'x' } })).status).toBe(401);
    expect((await h.http.delete('/v1/me/tokens/1')).status).toBe(401);
  });
});
