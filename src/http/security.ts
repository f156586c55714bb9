// Request-wide rules of DESIGN §4: HTTPS in production, no cross-origin calls, security headers, a request id, 503 while closing.
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isGameRequest } from '../modules/games/game-origin.js';
import { AppError } from './errors.js';

/**
 * Reads any page may make: a game's files on its own origin (its module scripts, fetches and workers send their Origin)
 * and the SDK script. They are public and read-only; nothing on a game's origin acts on a credential.
 */
function isPublicRead(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && (isGameRequest(request.raw) || request.url.startsWith('/sdk/'));
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // First, so that its headers (nosniff above all: DESIGN §4, always) are on the refusals of the hook below too.
  await app.register(helmet, {
    // The portal sets its own Content-Security-Policy per page; JSON needs none.
    contentSecurityPolicy: false,
    // Browsers must not let other sites embed or read our responses.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    const probe = request.routeOptions.config?.healthProbe;
    if (closing && probe !== 'liveness') {
      reply.header('Connection', 'close');
      throw new AppError('unavailable', 'The service is restarting; try again shortly');
    }
    if (config.env === 'production' && request.protocol !== 'https' && !probe) {
      throw new AppError('https_required', 'The API is served over HTTPS only');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, config.public_origin) && !isPublicRead(request)) {
      throw new AppError('cross_origin_forbidden', 'Cross-origin requests are not allowed');
    }
  });
}

function sameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === expected;
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage are foreign
  }
}
