// The three credential kinds — portal session, player token, developer key — and the per-route rule that admits them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from './errors.js';

/**
 * none: no credential read. optional: a valid credential is read when sent (PT adds is_favorite, `me`).
 * lenient: as optional, but a credential that is not valid is ignored rather than refused (register and login read
 * the guest they claim this way: a stale token must not stop a registration).
 * player: PT (token or portal session). key: DK. player_or_key: PT/DK.
 */
export type AuthMode = 'none' | 'optional' | 'lenient' | 'player' | 'key' | 'player_or_key';

export const SCOPES = [
  'states:read',
  'states:write',
  'scores:write',
  'players:read',
  'stats:read',
  'builds:write',
  'builds:release',
] as const;
export type Scope = (typeof SCOPES)[number];

/** A player's role and membership columns (the accounts capability reads them with the token). */
export interface MembershipFields {
  role: string;
  membership_plan: string;
  membership_status: string;
  membership_renews_at: number | null;
  membership_ends_at: number | null;
}

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
export function sessionCookieName(ctx: AppContext): string {
  return ctx.config.env === 'production' ? '__Host-gp_session' : 'gp_session';
}

const unauthenticated = (message: string) => new AppError('unauthenticated', message);

/**
 * How a secret becomes a credential: app.ts hands the accounts capability's player-token lookup and the games
 * capability's developer-key lookup to registerAuth, so this layer knows no table.
 */
export interface CredentialResolver {
  /** the player behind an `agp_` token, or null when it is unknown, expired or revoked */
  playerToken(token: string, via: PlayerCredential['via']): Promise<PlayerCredential | null>;
  /** the developer key behind an `agk_` secret, or null */
  developerKey(secret: string): Promise<KeyCredential | null>;
}

async function fromBearer(resolver: CredentialResolver, header: string): Promise<Credential> {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Send the credential as Authorization: Bearer <token>');
  const secret = match[1]!;
  const credential = secret.startsWith('agp_')
    ? await resolver.playerToken(secret, 'bearer')
    : secret.startsWith('agk_')
      ? await resolver.developerKey(secret)
      : null;
  if (!credential) throw unauthenticated('The token is unknown, expired or revoked');
  return credential;
}

/** The portal session: a signed cookie holding a player token, valid only with X-Requested-With: ServiceSDK. */
async function fromCookie(
  resolver: CredentialResolver,
  cookieName: string,
  request: FastifyRequest,
  strict: boolean,
): Promise<Credential | null> {
  const raw = request.cookies[cookieName];
  if (!raw) return null;
  if (request.headers['x-requested-with'] !== SDK_HEADER_VALUE) {
    if (!strict) return null;
    throw new AppError('csrf_rejected', `Cookie-session calls must carry X-Requested-With: ${SDK_HEADER_VALUE}`);
  }
  const unsigned = request.unsignCookie(raw);
  const credential = unsigned.valid && unsigned.value ? await resolver.playerToken(unsigned.value, 'cookie') : null;
  if (!credential && strict) throw unauthenticated('The session has ended; log in again');
  return credential;
}

/** Reads the credential the route's mode asks for; throws 401/403 (docs/api.md, "Everywhere"). */
export async function authenticate(
  resolver: CredentialResolver,
  cookieName: string,
  request: FastifyRequest,
  mode: AuthMode,
  scope?: Scope,
): Promise<Credential | null> {
  if (mode === 'none') return null;
  if (mode === 'lenient')
    return authenticate(resolver, cookieName, request, 'optional').catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
  const header = request.headers.authorization;
  const strict = mode !== 'optional';
  // A Bearer header wins over a cookie.
  const credential = header
    ? await fromBearer(resolver, header)
    : await fromCookie(resolver, cookieName, request, strict);
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

export function registerAuth(
  app: FastifyInstance,
  ctx: AppContext,
  resolver: CredentialResolver,
  hooks: AuthHooks = {},
): void {
  const cookieName = sessionCookieName(ctx);
  app.decorateRequest('credential', null);
  app.addHook('onRequest', async (request, reply) => {
    const { auth, scope } = request.routeOptions.config;
    if (!auth) return;
    try {
      request.credential = await authenticate(resolver, cookieName, request, auth, scope);
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
