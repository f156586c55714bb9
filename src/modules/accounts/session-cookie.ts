// The portal session cookie of DESIGN §4: set by login/register called with X-Requested-With: ServiceSDK, cleared by logout.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SDK_HEADER_VALUE, sessionCookieName } from '../../http/auth.js';

export function fromSdk(request: FastifyRequest): boolean {
  return request.headers['x-requested-with'] === SDK_HEADER_VALUE;
}

function cookieOptions(ctx: AppContext) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: ctx.config.env === 'production' };
}

/** The cookie holds the token (signed) and lives as long as it. */
export function setSessionCookie(reply: FastifyReply, ctx: AppContext, token: string, expiresAt: number): void {
  const maxAge = Math.max(0, Math.floor((expiresAt - ctx.clock.now()) / 1000));
  reply.setCookie(sessionCookieName(ctx), token, { ...cookieOptions(ctx), signed: true, maxAge });
}

export function clearSessionCookie(reply: FastifyReply, ctx: AppContext): void {
  reply.clearCookie(sessionCookieName(ctx), cookieOptions(ctx));
}
