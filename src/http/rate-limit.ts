// The rate limits (docs/api.md, "Accounts and authentication") with @fastify/rate-limit: 429 rate_limited with Retry-After, counted in process or shared through Redis.
// Redis keys read <redis_prefix>rate:undefinedundefined-<limit>:<key>: the plugin names limiters made with createRateLimit so.
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { sha256 } from '../lib/secrets.js';
import { sessionCookieName } from './auth.js';
import { AppError } from './errors.js';

/** A route's own limit; every other route counts against `default` (per credential, else per IP). `none`: not limited (/metrics). */
export type RateLimitRule =
  | 'login'
  | 'register'
  | 'forgot_password'
  | 'verification_email'
  | 'password_check'
  | 'email_change'
  | 'none';

/** A limiter and its name (the `limit` label of gameplatform_rate_limited_total). */
interface Check {
  name: string;
  check: ReturnType<FastifyInstance['createRateLimit']>;
}

/** Exponential reconnect delays from 100 ms up to 5 s, for as long as Redis stays away. */
const reconnectDelay = (attempt: number) => Math.min(100 * 2 ** Math.min(attempt - 1, 6), 5000);

/**
 * One connection for the counters. Fail fast while Redis is away: no offline queue, one retry, and the plugin's
 * skipOnError serves the request uncounted rather than holding it. ioredis reconnects by itself; the log says once
 * that Redis is gone and once that it is back, however many requests and reconnect attempts come in between.
 * ioredis is loaded only here: a process without redis_url never loads it.
 */
async function connectRedis(
  url: string,
  log: FastifyBaseLogger,
  metrics: AppContext['metrics'],
): Promise<{ redis: Redis; close(): Promise<void> }> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: reconnectDelay,
  });
  const counted = metrics.infrastructure.trackRedis(() => redis.status === 'ready');
  redis.on('error', () => counted.error());
  let reachable = true;
  let closing = false;
  const lost = (error?: Error) => {
    if (!reachable || closing) return; // already said, or closed on purpose (shutdown)
    reachable = false;
    log.warn({ err: error }, 'redis unreachable: rate limits are not counted until it is back');
  };
  redis.on('error', (error: Error) => lost(error));
  redis.on('close', () => lost());
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info('redis is back: rate limits are counted and shared again');
  });
  return {
    redis,
    async close() {
      closing = true;
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}

/** Waits for the first connection (or the first failure), so that counting starts with the first request. */
function firstConnection(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    if (redis.status === 'ready') return resolve();
    redis.once('ready', () => resolve());
    redis.once('error', () => resolve());
  });
}

function bodyField(request: FastifyRequest, field: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

export interface RateLimits {
  afterAuthentication(): void;
  countFailedAuthentication(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export async function registerRateLimits(app: FastifyInstance, ctx: AppContext): Promise<RateLimits> {
  const { config } = ctx;
  const connection = config.redis_url ? await connectRedis(config.redis_url, app.log, ctx.metrics) : undefined;
  const redis = connection?.redis;
  if (connection) {
    await firstConnection(connection.redis);
    app.addHook('onClose', () => connection.close());
  }
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(redis ? { redis, nameSpace: `${config.redis_prefix}rate:` } : {}),
  });

  const cookieName = sessionCookieName(ctx);
  // request.ip is undefined once the client has reset its connection (the socket has no remote address left)
  // normalizeIP groups an IPv6 address by its /64 and lowercases anything else: without a ':' (IPv4), the same
  // without its IPv6 test (a long regexp, about 1 % of a cheap request's CPU).
  const ip = (request: FastifyRequest) =>
    request.ip ? (request.ip.includes(':') ? normalizeIP(request.ip) : request.ip.toLowerCase()) : 'gone';
  /** Whether the request sends a credential at all (validated or not). */
  const sendsCredential = (request: FastifyRequest) =>
    Boolean(request.headers.authorization || request.cookies?.[cookieName]);
  const limiter = (
    name: string,
    setting: { max: number; window_seconds: number },
    key: (request: FastifyRequest) => string,
  ): Check => ({
    name,
    check: app.createRateLimit({
      max: setting.max,
      timeWindow: setting.window_seconds * 1000,
      keyGenerator: (request) => `${name}:${key(request)}`,
    }),
  });
  const enforce = async (limit: Check, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await limit.check(request);
    if (result.isAllowed) return;
    tellAllowance(reply, result);
    if (!result.isExceeded) return;
    ctx.metrics.rateLimited.inc({ limit: limit.name });
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('Retry-After', String(seconds));
    throw new AppError('rate_limited', `Too many requests; try again in ${seconds} seconds`, { retry_after: seconds });
  };

  const limits = config.rate_limits;
  const checks = {
    defaultByIp: limiter('default', limits.default, (r) => `ip:${ip(r)}`),
    // Keyed by the validated credential: a made-up token never gets a bucket of its own.
    defaultByCredential: limiter('default', limits.default, (r) => credentialKey(r) ?? `ip:${ip(r)}`),
    // A developer key acts for a whole game's backend: a limit of its own (rate_limits.developer_key).
    developerKey: limiter('developer-key', limits.developer_key, (r) => credentialKey(r) ?? `ip:${ip(r)}`),
    loginByIp: limiter('login-ip', limits.login, ip),
    loginByName: limiter('login-name', limits.login, (r) => sha256(bodyField(r, 'login'))),
    register: limiter('register-ip', limits.register, ip),
    forgotPassword: limiter('forgot-email', limits.forgot_password, (r) => sha256(bodyField(r, 'email'))),
    // Account self-service, per player: resending the verification mail as forgot-password; a route that checks the
    // current password (change password or email, delete the account) as login.
    verificationEmail: limiter('verification-email', limits.forgot_password, (r) => playerKey(r) ?? `ip:${ip(r)}`),
    passwordCheck: limiter('password-check', limits.login, (r) => playerKey(r) ?? `ip:${ip(r)}`),
    // Asking to change the email mails the new address: as forgot-password, per player and per new address.
    emailChangeByPlayer: limiter('email-change', limits.forgot_password, (r) => playerKey(r) ?? `ip:${ip(r)}`),
    emailChangeByAddress: limiter('email-change-address', limits.forgot_password, (r) => sha256(bodyField(r, 'email'))),
  };

  // Before the credential hook: the routes with their own limits, and requests that send no credential (per IP).
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.healthProbe) return; // probes are never limited
    const rule = request.routeOptions.config?.rateLimitRule;
    if (rule === 'none') return;
    if (rule === 'login') return enforce(checks.loginByIp, request, reply);
    if (rule === 'register') return enforce(checks.register, request, reply);
    if (rule === 'forgot_password') return; // counted per address once the body is read
    // Player routes with a limit per player, counted once the player is known; without a credential, per IP.
    if (rule === 'verification_email' || rule === 'password_check' || rule === 'email_change')
      return sendsCredential(request) ? undefined : enforce(checks.defaultByIp, request, reply);
    if (!sendsCredential(request)) return enforce(checks.defaultByIp, request, reply);
  });
  // Limits keyed by a field of the body run once it is parsed and valid: a preHandler of the few routes with such a
  // rule (first among theirs), rather than a global one that every other request would run for nothing.
  const afterBody: Partial<Record<RateLimitRule, Check[]>> = {
    login: [checks.loginByName],
    forgot_password: [checks.forgotPassword],
    verification_email: [checks.verificationEmail],
    password_check: [checks.passwordCheck],
    email_change: [checks.passwordCheck, checks.emailChangeByPlayer, checks.emailChangeByAddress],
  };
  const bodyCounters = new WeakSet<object>();
  app.addHook('onRoute', (route) => {
    const rule = route.config?.rateLimitRule;
    const counted = rule ? afterBody[rule] : undefined;
    if (!counted) return;
    const own =
      route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    if (own.some((hook) => bodyCounters.has(hook))) return; // options seen twice (a HEAD made from a GET): counted once
    const countBody: preHandlerAsyncHookHandler = async (request, reply) => {
      for (const limit of counted) await enforce(limit, request, reply);
    };
    bodyCounters.add(countBody);
    route.preHandler = [countBody, ...own];
  });

  return {
    /** Registered after the credential hook: requests that send a credential count against it once it is known. */
    afterAuthentication() {
      app.addHook('onRequest', async (request, reply) => {
        if (
          request.routeOptions.config?.rateLimitRule ||
          request.routeOptions.config?.healthProbe ||
          !sendsCredential(request)
        )
          return;
        return enforce(
          request.credential?.kind === 'key' ? checks.developerKey : checks.defaultByCredential,
          request,
          reply,
        );
      });
    },
    /** A credential that failed to authenticate counts against the address that sent it. */
    async countFailedAuthentication(request: FastifyRequest, reply: FastifyReply) {
      // Requests that sent nothing were counted per address already.
      const rule = request.routeOptions.config?.rateLimitRule;
      if (
        (rule && rule !== 'verification_email' && rule !== 'password_check' && rule !== 'email_change') ||
        !sendsCredential(request)
      )
        return;
      await enforce(checks.defaultByIp, request, reply);
    },
  };
}

/** `player:<id>` once the credential layer has validated a player credential (any of the player's tokens). */
function playerKey(request: FastifyRequest): string | undefined {
  const credential = request.credential;
  return credential?.kind === 'player' ? `player:${credential.playerId}` : undefined;
}

/** `player-token:<id>` or `developer-key:<id>` once the credential layer has validated it. */
function credentialKey(request: FastifyRequest): string | undefined {
  const credential = request.credential;
  if (!credential) return undefined;
  return credential.kind === 'player' ? `player-token:${credential.tokenId}` : `developer-key:${credential.keyId}`;
}

/**
 * Tells the client its allowance (RateLimit-Limit, -Remaining, -Reset in seconds: the IETF draft's fields). A request
 * counted by two limits (login: per address and per name) is told the tighter one. Nothing is told while Redis is away.
 */
function tellAllowance(
  reply: FastifyReply,
  result: { max: number; remaining: number; ttl: number; ttlInSeconds: number },
): void {
  if (result.ttl <= 0) return;
  const told = reply.getHeader('RateLimit-Remaining');
  if (told !== undefined && Number(told) <= result.remaining) return;
  reply.header('RateLimit-Limit', String(result.max));
  reply.header('RateLimit-Remaining', String(result.remaining));
  reply.header('RateLimit-Reset', String(Math.max(1, result.ttlInSeconds)));
}
