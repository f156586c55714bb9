// Identity tokens (docs/backend-developers.md, "Identity tokens: who is calling"): a player gets a signed token for a game; the game's backend verifies it offline
// against the JWKS or with its developer key. Another game's, an expired, an altered token and a suspended player are refused.
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityKey } from '../../src/modules/identity/identity.keys.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, TEST_ORIGIN } from '../helpers/harness.js';
import { expectError, gameWithPlayer } from '../dev/fixtures.js';

const issueUrl = (slug: string) => `/v1/games/${slug}/identity-token`;
const VERIFY = '/v1/dev/identity-token/verify';
const JWKS = '/v1/.well-known/jwks.json';

describe('identity key', () => {
  it('is the same for the same secret (every instance signs alike) and differs with another secret', async () => {
    const a = await identityKey('a'.repeat(40));
    const again = await identityKey(`${'a'.repeat(39)}a`);
    const b = await identityKey('b'.repeat(40));
    expect(again.kid).toBe(a.kid);
    expect(b.kid).not.toBe(a.kid);
    expect(a.jwk).not.toHaveProperty('d');
  });
});

eachDialect('identity tokens', (h) => {
  let w: Awaited<ReturnType<typeof gameWithPlayer>>;
  let keySet: JSONWebKeySet;

  const issue = async (slug = w.game.slug, token = w.token) => {
    const res = await h.http.post(issueUrl(slug), { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as { token: string; player_id: number; game: string; expires_in: number; expires_at: string };
  };
  /** What a game backend does offline: jose against the published JWKS, checking issuer, audience (its slug) and expiry. */
  const verifyOffline = (token: string, audience: string, at = new Date(h.clock.now())) =>
    jwtVerify(token, createLocalJWKSet(keySet), {
      issuer: TEST_ORIGIN,
      audience,
      algorithms: ['ES256'],
      currentDate: at,
    });

  beforeAll(async () => {
    w = await gameWithPlayer(h);
    const res = await h.http.get(JWKS);
    expect(res.status).toBe(200);
    keySet = res.body;
  });

  it('publishes one ES256 public key as a bare JWKS', async () => {
    const res = await h.http.get(JWKS);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.keys).toHaveLength(1);
    const [key] = res.body.keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key.kid).toEqual(expect.any(String));
    expect(key).not.toHaveProperty('d');
  });

  it('gives the player a token that verifies offline against the JWKS: player id, game, 10-minute expiry', async () => {
    const issued = await issue();
    expect(issued).toMatchObject({ player_id: w.player.id, game: w.game.slug, expires_in: 600 });
    const { payload, protectedHeader } = await verifyOffline(issued.token, w.game.slug);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: keySet.keys[0]!.kid });
    expect(payload).toMatchObject({
      sub: String(w.player.id),
      player_id: w.player.id,
      game: w.game.slug,
      aud: w.game.slug,
      iss: TEST_ORIGIN,
    });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(payload.iat).toBe(Math.floor(h.clock.now() / 1000));
  });

  it("is verified with the game's developer key, giving the player's id and public profile", async () => {
    const { token } = await issue();
    const res = await h.http.post(VERIFY, { token: w.key, body: { token } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      player_id: w.player.id,
      game: w.game.slug,
      player: { id: w.player.id, username: w.player.username },
    });
    expect(res.body.data.player).not.toHaveProperty('email');
  });

  it('refuses a token for another game, offline (audience) and with the dev route (other_game)', async () => {
    const other = await createGame(h.ctx);
    const { key: otherKey } = await createKey(h.ctx, other.id, ['players:read']);
    const { token } = await issue();
    await expect(verifyOffline(token, other.slug)).rejects.toBeInstanceOf(joseErrors.JWTClaimValidationFailed);
    const res = await h.http.post(VERIFY, { token: otherKey, body: { token } });
    expectError(res, 422, 'invalid_identity_token');
    expect(res.body.error.reason).toBe('other_game');
  });

  it('refuses an expired token, offline and with the dev route (expired)', async () => {
    const { token } = await issue();
    h.clock.advance(601);
    try {
      await expect(verifyOffline(token, w.game.slug)).rejects.toBeInstanceOf(joseErrors.JWTExpired);
      const res = await h.http.post(VERIFY, { token: w.key, body: { token } });
      expectError(res, 422, 'invalid_identity_token');
      expect(res.body.error.reason).toBe('expired');
    } finally {
      h.clock.advance(-601);
    }
    // still good one second before the end
    h.clock.advance(599);
    try {
      expect((await h.http.post(VERIFY, { token: w.key, body: { token } })).status).toBe(200);
    } finally {
      h.clock.advance(-599);
    }
  });

  it('refuses an altered token: another player id under the same signature (bad_signature)', async () => {
    const { token } = await issue();
    const [header, , signature] = token.split('.');
    const claims = { ...decodeJwt(token), sub: String(w.player.id + 1), player_id: w.player.id + 1 };
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    await expect(verifyOffline(forged, w.game.slug)).rejects.toBeInstanceOf(joseErrors.JWSSignatureVerificationFailed);
    const res = await h.http.post(VERIFY, { token: w.key, body: { token: forged } });
    expectError(res, 422, 'invalid_identity_token');
    expect(res.body.error.reason).toBe('bad_signature');
  });

  it('refuses a token that is not a JWT (malformed)', async () => {
    const res = await h.http.post(VERIFY, { token: w.key, body: { token: 'not-a-token' } });
    expectError(res, 422, 'invalid_identity_token');
    expect(res.body.error.reason).toBe('malformed');
  });

  it('refuses a well-signed token whose player id or times are out of range (malformed, never a 500)', async () => {
    const { privateKey, kid } = await identityKey(h.ctx.config.secret);
    const now = Math.floor(h.clock.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ sub: String(w.player.id), iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(TEST_ORIGIN)
        .setAudience(w.game.slug)
        .sign(privateKey);
    const good = await h.http.post(VERIFY, { token: w.key, body: { token: await sign({}) } });
    expect(good.status, good.text).toBe(200);
    for (const claims of [
      { sub: '2147483648' },
      { sub: '9007199254740993' },
      { sub: '99999999999999999999' },
      { sub: '1e3' },
      { sub: '0' },
      { sub: ` ${w.player.id}` },
      { iat: 1e20 },
      { iat: -1e20 },
      { iat: 1.5e13 },
      { exp: 1e20 },
      { exp: Number.MAX_VALUE },
      { exp: 1.5e13 },
      { iat: now + 0.5 },
      { iat: now + 700 },
    ]) {
      const res = await h.http.post(VERIFY, { token: w.key, body: { token: await sign(claims) } });
      expect(res.status, `${JSON.stringify(claims)}: ${res.text}`).toBe(422);
      expect(res.body.error.code).toBe('invalid_identity_token');
      expect(res.body.error.reason).toBe('malformed');
    }
  });

  it('refuses the token of a player suspended since (player_unavailable)', async () => {
    const x = await gameWithPlayer(h);
    const { token } = await issue(x.game.slug, x.token);
    await h.ctx.db.updateTable('players').set({ status: 'suspended' }).where('id', '=', x.player.id).execute();
    const res = await h.http.post(VERIFY, { token: x.key, body: { token } });
    expectError(res, 422, 'invalid_identity_token');
    expect(res.body.error.reason).toBe('player_unavailable');
  });

  it('issues only to a player credential, for a listed game', async () => {
    expectError(await h.http.post(issueUrl(w.game.slug), {}), 401, 'unauthenticated');
    expectError(await h.http.post(issueUrl(w.game.slug), { token: w.key }), 403, 'forbidden');
    expectError(await h.http.post(issueUrl('no-such-game'), { token: w.token }), 404, 'not_found');
    const draft = await createGame(h.ctx, { status: 'draft' });
    expectError(await h.http.post(issueUrl(draft.slug), { token: w.token }), 404, 'not_found');
    // a player who never played the game may get a token; the dev route then says the player is not one of the game's
    const stranger = await createPlayerWithToken(h.ctx);
    const { token } = await issue(w.game.slug, stranger.token);
    expect((await h.http.post(VERIFY, { token: w.key, body: { token } })).body.error.reason).toBe('player_unavailable');
  });

  it('verifies only with a developer key with players:read', async () => {
    const { token } = await issue();
    expectError(await h.http.post(VERIFY, { body: { token } }), 401, 'unauthenticated');
    expectError(await h.http.post(VERIFY, { token: w.token, body: { token } }), 403, 'forbidden');
    const { key } = await createKey(h.ctx, w.game.id, ['stats:read']);
    expectError(await h.http.post(VERIFY, { token: key, body: { token } }), 403, 'insufficient_scope');
    expectError(await h.http.post(VERIFY, { token: w.key, body: {} }), 422, 'validation_failed');
  });

  it('documents the three routes in the OpenAPI document', async () => {
    const doc = (await h.http.get('/v1/openapi.json')).body;
    expect(Object.keys(doc.paths[issueUrl('{slug}')].post.responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '422']),
    );
    expect(Object.keys(doc.paths[JWKS].get.responses)).toEqual(expect.arrayContaining(['200', '429', '503']));
    const verify = doc.paths[VERIFY].post;
    expect(verify.security).toEqual([{ developerKey: [] }]);
    expect(verify.responses['422'].description).toContain('invalid_identity_token');
  });
});
