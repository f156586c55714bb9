// The three credential kinds of spec §5 — portal session, player token, developer key — and the per-route rule that admits them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sha256 } from '../lib/secrets.js';
import type { MembershipFields } from '../modules/accounts/membership.js';
import { findAndTouchActiveToken, type ActiveTokenRow } from '../modules/accounts/tokens.repository.js';
import { findActiveKey, touchKey } from '../modules/games/keys.repository.js';
import { AppError } from './errors.js';

/**
 * none: no credential read. optional: a valid credential is read when sent (PT adds is_favorite, `me`).
 * player: PT (token or portal session). key: DK. player_or_key: PT/DK.
 */
export type AuthMode = 'none' | 'optional' | 'player' | 'key' | 'player_or_key';

export const SCOPES = ['states:read', 'states:write', 'scores:write', 'players:read', 'stats:read'] as const;
export type Scope = (typeof SCOPES)[number];

export interface PlayerCredential {
  kind: 'player';
  playerId: number;
  tokenId: number;
  role: string;
  /** the player's role and membership as the credential was read (POST /play/heartbeat caps a free player's credit with it) */
  membership: MembershipFields;
  via: 'bearer' | 'cookie';
}

export interface KeyCredential {
  kind: 'key';
  keyId: number;
  gameId: number;
  scopes: ReadonlySet<Scope>;
}

export type Credential = PlayerCredential | KeyCredential;

declare module 'fastify' {
  interface FastifyRequest {
    credential: Credential | null;
  }
}

export const SDK_HEADER_VALUE = 'ServiceSDK';
/** last_used_at is written at most this often per credential, so the hot routes do not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

export function sessionCookieName(ctx: AppContext): string {
  return ctx.config.env === 'production' ? '__Host-gp_session' : 'gp_session';
}

const unauthenticated = (message: string) => new AppError('unauthenticated', message);

function playerCredential(row: ActiveTokenRow, via: PlayerCredential['via']): PlayerCredential {
  const { role, membership_plan, membership_status, membership_renews_at, membership_ends_at } = row;
  const membership = { role, membership_plan, membership_status, membership_renews_at, membership_ends_at };
  return { kind: 'player', playerId: row.player_id, tokenId: row.token_id, role, membership, via };
}

/**
 * The player token's credential: from the credential cache (PostgreSQL) when it holds the token and its last use was
 * written less than TOUCH_INTERVAL_MS ago, else from the database (which writes the last use when due).
 */
async function playerFromToken(
  ctx: AppContext,
  token: string,
  via: PlayerCredential['via'],
): Promise<PlayerCredential | null> {
  const now = ctx.clock.now();
  const tokenHash = sha256(token);
  const touchBefore = now - TOUCH_INTERVAL_MS;
  const cache = ctx.credentials;
  if (cache) {
    const cached = await cache.get(tokenHash, now, touchBefore);
    if (cached) {
      ctx.metrics.credentialLookups.inc({ result: 'hit' });
      return playerCredential(cached, via);
    }
    ctx.metrics.credentialLookups.inc({ result: 'miss' });
  }
  const generation = cache?.generation();
  const row = await findAndTouchActiveToken(ctx.db, tokenHash, now, touchBefore);
  if (!row) return null;
  const touched = row.last_used_at === null || row.last_used_at < touchBefore;
  cache?.set(tokenHash, touched ? { ...row, last_used_at: now } : row, generation);
  return playerCredential(row, via);
}

async function keyFromSecret(ctx: AppContext, secret: string): Promise<KeyCredential | null> {
  const row = await findActiveKey(ctx.db, sha256(secret));
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) await touchKey(ctx.db, row.key_id, now);
  return {
    kind: 'key',
    keyId: row.key_id,
    gameId: row.game_id,
    scopes: new Set(row.scopes.split(' ').filter(Boolean) as Scope[]),
  };
}

async function fromBearer(ctx: AppContext, header: string): Promise<Credential> {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Send the credential as Authorization: Bearer <token>');
  const secret = match[1]!;
  const credential = secret.startsWith('agp_')
    ? await playerFromToken(ctx, secret, 'bearer')
    : secret.startsWith('agk_')
      ? await keyFromSecret(ctx, secret)
      : null;
  if (!credential) throw unauthenticated('The token is unknown, expired or revoked');
  return credential;
}

/** The portal session: a signed cookie holding a player token, valid only with X-Requested-With: ServiceSDK. */
async function fromCookie(ctx: AppContext, request: FastifyRequest, strict: boolean): Promise<Credential | null> {
  const raw = request.cookies[sessionCookieName(ctx)];
  if (!raw) return null;
  if (request.headers['x-requested-with'] !== SDK_HEADER_VALUE) {
    if (!strict) return null;
    throw new AppError('csrf_rejected', `Cookie-session calls must carry X-Requested-With: ${SDK_HEADER_VALUE}`);
  }
  const unsigned = request.unsignCookie(raw);
  const credential = unsigned.valid && unsigned.value ? await playerFromToken(ctx, unsigned.value, 'cookie') : null;
  if (!credential && strict) throw unauthenticated('The session has ended; log in again');
  return credential;
}

/** Reads the credential the route's mode asks for; throws 401/403 as DESIGN §3. */
export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  mode: AuthMode,
  scope?: Scope,
): Promise<Credential | null> {
  if (mode === 'none') return null;
  const header = request.headers.authorization;
  const strict = mode !== 'optional';
  // A Bearer header wins over a cookie.
  const credential = header ? await fromBearer(ctx, header) : await fromCookie(ctx, request, strict);
  if (!strict) return credential;
  if (!credential) throw unauthenticated('This route needs a player token, a portal session or a developer key');
  if (mode === 'player' && credential.kind !== 'player') {
    throw new AppError('forbidden', 'A developer key cannot be used here; use a player token');
  }
  if (mode === 'key' && credential.kind !== 'key') {
    throw new AppError('forbidden', 'Only a developer key can be used here');
  }
  if (credential.kind === 'key' && scope && !credential.scopes.has(scope)) {
    throw new AppError('insufficient_scope', `This developer key lacks the scope ${scope}`, { required_scope: scope });
  }
  return credential;
}

export interface AuthHooks {
  /** Called before a 401 goes out (the rate limits count failed credentials per address). */
  onFailure?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function registerAuth(app: FastifyInstance, ctx: AppContext, hooks: AuthHooks = {}): void {
  app.decorateRequest('credential', null);
  app.addHook('onRequest', async (request, reply) => {
    const { auth, scope } = request.routeOptions.config;
    if (!auth) return;
    try {
      request.credential = await authenticate(ctx, request, auth, scope);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthenticated') await hooks.onFailure?.(request, reply);
      throw error;
    }
  });
}

/** The player behind a PT credential (routes with auth 'player' always have one). */
export function playerOf(request: FastifyRequest): PlayerCredential {
  const credential = request.credential;
  if (credential?.kind !== 'player') throw new AppError('forbidden', 'A player credential is needed here');
  return credential;
}

/** The developer key behind a DK credential. */
export function keyOf(request: FastifyRequest): KeyCredential {
  const credential = request.credential;
  if (credential?.kind !== 'key') throw new AppError('forbidden', 'A developer key is needed here');
  return credential;
}
