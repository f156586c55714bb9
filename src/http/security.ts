// Request-wide rules (docs/api.md, "Everywhere"): HTTPS in production, no cross-origin calls, security headers, a request id, 503 while closing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.js';
import { parseGamesUrl } from '../lib/games-url.js';
import { COOKIE_BOMB_BYTES, CookieBombHealer } from './cookie-bomb.js';
import { AppError } from './errors.js';

/**
 * Reads any page may make: a game's files on its own origin (its module scripts, fetches and workers send their Origin)
 * and the SDK script. They are public and read-only; nothing on a game's origin acts on a credential.
 */
function isPublicRead(request: FastifyRequest, isGameRequest: GameRequestTest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (isGameRequest(request.raw) || request.url.startsWith('/sdk/'))
  );
}

/** Whether a request is for a game's files on the game's own origin (the games capability knows; app.ts hands it). */
export type GameRequestTest = (raw: IncomingMessage) => boolean;

/** helmet's settings for every response. */
function helmetOptions(config: Config): HelmetOptions {
  return {
    // The portal sets its own Content-Security-Policy per page; JSON needs none.
    contentSecurityPolicy: false,
    // Browsers must not let other sites embed or read our responses.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
  };
}

/**
 * The headers helmet sets with these options, read once by running its middleware against a recording response.
 * Without a Content-Security-Policy (the one header that may depend on the request: nonces), they are the same for
 * every request; @fastify/helmet (used before) built the middleware afresh and ran its ten parts per request.
 * (helmet's one removal, X-Powered-By, has nothing to remove: Fastify never sets it.)
 */
export function helmetHeaders(options: HelmetOptions): [name: string, value: string][] {
  if (options.contentSecurityPolicy !== false)
    throw new Error('a Content-Security-Policy may differ per request: not precomputed');
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name.toLowerCase(), String(value)]);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  isGameRequest: GameRequestTest,
): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  const headers = helmetHeaders(helmetOptions(config));
  const production = config.env === 'production';
  const healer = new CookieBombHealer(parseGamesUrl(config.games_url));
  // First, so that the headers (nosniff above all, always) are on this hook's refusals and every later one.
  // Synchronous (done): most requests pass, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    for (let i = 0; i < headers.length; i++) reply.header(headers[i]![0], headers[i]![1]);
    reply.header('X-Request-Id', request.id);
    // One length check on an ordinary request: only a Cookie header past 8 KB is read (cookie-bomb.ts).
    const cookie = request.headers.cookie;
    if (cookie !== undefined && cookie.length > COOKIE_BOMB_BYTES) {
      const expiries = healer.expiries(cookie, request.hostname, request.originalUrl);
      if (expiries) reply.header('Set-Cookie', expiries);
    }
    const probe = request.routeOptions.config?.healthProbe;
    if (closing && probe !== 'liveness') {
      reply.header('Connection', 'close');
      return done(new AppError('unavailable', 'The service is restarting; try again shortly'));
    }
    if (production && request.protocol !== 'https' && !probe) {
      return done(new AppError('https_required', 'The API is served over HTTPS only'));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, config.public_origin) && !isPublicRead(request, isGameRequest)) {
      return done(new AppError('cross_origin_forbidden', 'Cross-origin requests are not allowed'));
    }
    done();
  });
}

function sameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === expected;
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage are foreign
  }
}
