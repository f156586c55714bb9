// Identity tokens (docs/backend-developers.md, "Identity tokens: who is calling"): a short-lived JWT naming a player and a game, that the game's backend verifies offline
// against the JWKS or with its developer key. Signed with the key derived from `secret` (identity.keys.ts).
import { errors as joseErrors, jwtVerify, SignJWT, createLocalJWKSet, type JWTPayload } from 'jose';
import type { AppContext } from '../../context.js';
import type { KeyCredential } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { publicPlayerView } from '../accounts/player-views.js';
import { playerOfGame } from '../dev/dev.service.js';
import { requireListedGame } from '../states/states.access.js';
import { IDENTITY_ALG, identityKey } from './identity.keys.js';
import { findGameSlug } from './identity.repository.js';
import type { IdentityToken, Jwks, VerifiedIdentity } from './identity.schemas.js';

/** How long a token is good for: long enough for a game to call its backend, short enough that a leaked one ages out. */
export const IDENTITY_TOKEN_SECONDS = 600;

export type IdentityRefusal = 'malformed' | 'bad_signature' | 'expired' | 'other_game' | 'player_unavailable';

const refuse = (reason: IdentityRefusal, message: string) =>
  new AppError('invalid_identity_token', message, { reason });

/** The JWKS published at /v1/.well-known/jwks.json. */
export async function jwks(ctx: AppContext): Promise<Jwks> {
  const { jwk } = await identityKey(ctx.config.secret);
  return { keys: [jwk as Jwks['keys'][number]] };
}

/** POST /games/{slug}/identity-token: a token for the calling player and this listed game. */
export async function issueIdentityToken(ctx: AppContext, slug: string, playerId: number): Promise<IdentityToken> {
  const game = await requireListedGame(ctx, slug);
  const key = await identityKey(ctx.config.secret);
  const now = Math.floor(ctx.clock.now() / 1000);
  const exp = now + IDENTITY_TOKEN_SECONDS;
  const token = await new SignJWT({ player_id: playerId, game: game.slug })
    .setProtectedHeader({ alg: IDENTITY_ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(ctx.config.public_origin)
    .setSubject(String(playerId))
    .setAudience(game.slug)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(key.privateKey);
  return {
    token,
    player_id: playerId,
    game: game.slug,
    expires_in: IDENTITY_TOKEN_SECONDS,
    expires_at: formatTimestamp(exp * 1000),
  };
}

/** Checks signature, issuer and expiry at the service's clock; the game and the player are checked by the caller. */
async function verifySignedToken(ctx: AppContext, token: string): Promise<JWTPayload> {
  const keySet = createLocalJWKSet(await jwks(ctx));
  try {
    const { payload } = await jwtVerify(token, keySet, {
      issuer: ctx.config.public_origin,
      algorithms: [IDENTITY_ALG],
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['sub', 'aud', 'exp', 'iat'],
    });
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw refuse('expired', 'The identity token has expired; ask the game for a new one');
    if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) {
      throw refuse('bad_signature', 'The identity token was not signed by this service');
    }
    if (error instanceof joseErrors.JOSEError) throw refuse('malformed', 'The identity token cannot be read');
    throw error;
  }
}

/** The largest player id (players.id is a 32-bit integer on PostgreSQL). */
const MAX_PLAYER_ID = 2_147_483_647;
/** Latest time a claim may name, in seconds: the end of year 9999, the last a timestamp is written for. */
const MAX_CLAIM_SECONDS = 253_402_300_799;
/** A well-formed `iat`/`exp`: whole seconds from the epoch up to MAX_CLAIM_SECONDS. */
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_CLAIM_SECONDS;

/** POST /dev/identity-token/verify: the player the token names, if the token is sound, for the key's game, and the player still active. */
export async function verifyIdentityToken(
  ctx: AppContext,
  key: KeyCredential,
  token: string,
): Promise<VerifiedIdentity> {
  const payload = await verifySignedToken(ctx, token);
  const slug = await findGameSlug(ctx.db, key.gameId);
  if (!slug) throw notFound('No such game');
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audience.length !== 1 || audience[0] !== slug)
    throw refuse('other_game', 'The identity token is for another game');
  const playerId = /^[1-9][0-9]{0,9}$/.test(payload.sub ?? '') ? Number(payload.sub) : 0;
  if (playerId < 1 || playerId > MAX_PLAYER_ID) throw refuse('malformed', 'The identity token names no player');
  if (!isTime(payload.iat) || !isTime(payload.exp) || payload.iat > payload.exp)
    throw refuse('malformed', 'The identity token has no valid issue and expiry times');
  const player = await playerOfGame(ctx, playerId, key.gameId);
  if (!player) throw refuse('player_unavailable', 'The player is no longer an active player of this game');
  return {
    player_id: playerId,
    game: slug,
    issued_at: formatTimestamp(payload.iat * 1000),
    expires_at: formatTimestamp(payload.exp * 1000),
    player: publicPlayerView(ctx.config, player),
  };
}
