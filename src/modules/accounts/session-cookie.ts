// The portal session cookie (docs/api.md, "Accounts and authentication"): set by login/register called with X-Requested-With: ServiceSDK, cleared by logout.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SDK_HEADER_VALUE, sessionCookieName } from '../../http/auth.js';

export function fromSdk(request: FastifyRequest): boolean {
  return request.headers['x-requested-with'] === SDK_HEADER_VALUE;
}

/**
 * The name a web session gets when the portal gives none (registration): "Web portal (Firefox)", from the User-Agent,
 * as the portal's login names it, so the player can tell the signed-in browsers apart.
 */
export function webSessionName(request: FastifyRequest): string {
  const ua = request.headers['user-agent'] ?? '';
  const browser = /Firefox\//.test(ua)
    ? 'Firefox'
    : /Edg\//.test(ua)
      ? 'Edge'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'browser';
  return `Web portal (${browser})`;
}

/**
 * Priority=High: when a game on the portal's site fills the browser's cookie jar (Chromium keeps 180 per site), Chromium
 * drops low and medium cookies first, so the session outlives an ordinary cookie bomb (docs/operations.md).
 */
function cookieOptions(ctx: AppContext) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: ctx.config.env === 'production',
    priority: 'high' as const,
  };
}

/**
 * Max-Age in whole seconds for a token expiring at `expiresAt`: rounded up, so a token issued a few milliseconds
 * before the answer is written still gets its full lifetime (90 days is 7,776,000, not 7,775,999).
 */
export function cookieMaxAge(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** The cookie holds the token (signed) and lives as long as it. */
export function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string, expiresAt: number): void {
  const maxAge = cookieMaxAge(expiresAt, ctx.clock.now());
  reply.setCookie(sessionCookieName(ctx), token, { ...cookieOptions(ctx), signed: true, maxAge });
}

export function clearSessionCookie(reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(sessionCookieName(ctx), cookieOptions(ctx));
}
