// The rate limits of DESIGN §4 with @fastify/rate-limit: 429 rate_limited with Retry-After, counted in process or shared through Redis.
// Redis keys read <redis_prefix>rate:undefinedundefined-<limit>:<key>: the plugin names limiters made with createRateLimit so.
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { sha256 } from '../lib/secrets.js';
import { sessionCookieName } from './auth.js';
import { AppError } from './errors.js';

/** A route's own limit; every other route counts against `default` (per credential, else per IP). */
export type RateLimitRule = 'login' | 'register' | 'forgot_password';

type Check = ReturnType<FastifyInstance['createRateLimit']>;

const REDIS_ERROR_LOG_INTERVAL_MS = 60_000;

function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  // Fail fast when Redis is away: the limits are skipped (skipOnError) rather than holding requests.
  const redis = new Redis(url, { connectTimeout: 2000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let lastLogged = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastLogged < REDIS_ERROR_LOG_INTERVAL_MS) return;
    lastLogged = Date.now();
    log.warn({ err: error }, 'redis unreachable: rate limits are not counted until it is back');
  });
  return redis;
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

export async function registerRateLimits(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config } = ctx;
  const redis = config.redis_url ? connectRedis(config.redis_url, app.log) : undefined;
  if (redis) {
    await firstConnection(redis);
    app.addHook('onClose', async () => {
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    });
  }
  await app.register(rateLimit, { global: false, skipOnError: true, ...(redis ? { redis, nameSpace: `${config.redis_prefix}rate:` } : {}) });

  const cookieName = sessionCookieName(ctx);
  const ip = (request: FastifyRequest) => normalizeIP(request.ip);
  /** The credential sent (hashed: the key never holds a secret), else the address. */
  const credentialOrIp = (request: FastifyRequest) => {
    const bearer = /^Bearer[ ]+(\S+)/i.exec(request.headers.authorization ?? '')?.[1];
    const secret = bearer ?? request.cookies?.[cookieName];
    return secret ? `credential:${sha256(secret)}` : `ip:${ip(request)}`;
  };
  const limiter = (name: string, setting: { max: number; window_seconds: number }, key: (request: FastifyRequest) => string): Check =>
    app.createRateLimit({ max: setting.max, timeWindow: setting.window_seconds * 1000, keyGenerator: (request) => `${name}:${key(request)}` });

  const limits = config.rate_limits;
  const checks = {
    default: limiter('default', limits.default, credentialOrIp),
    loginByIp: limiter('login-ip', limits.login, ip),
    loginByName: limiter('login-name', limits.login, (r) => sha256(bodyField(r, 'login'))),
    register: limiter('register-ip', limits.register, ip),
    forgotPassword: limiter('forgot-email', limits.forgot_password, (r) => sha256(bodyField(r, 'email'))),
  };

  // Added before the credential hook: requests with a bad credential count too.
  app.addHook('onRequest', async (request, reply) => {
    const rule = request.routeOptions.config?.rateLimitRule;
    if (rule === 'login') return enforce(checks.loginByIp, request, reply);
    if (rule === 'register') return enforce(checks.register, request, reply);
    if (rule === 'forgot_password') return; // counted per address once the body is read
    return enforce(checks.default, request, reply);
  });
  // Limits keyed by a field of the body run once it is parsed and valid.
  app.addHook('preHandler', async (request, reply) => {
    const rule = request.routeOptions.config?.rateLimitRule;
    if (rule === 'login') return enforce(checks.loginByName, request, reply);
    if (rule === 'forgot_password') return enforce(checks.forgotPassword, request, reply);
  });
}

async function enforce(check: Check, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const result = await check(request);
  if (result.isAllowed || !result.isExceeded) return;
  const seconds = Math.max(1, result.ttlInSeconds);
  reply.header('Retry-After', String(seconds));
  throw new AppError('rate_limited', `Too many requests; try again in ${seconds} seconds`, { retry_after: seconds });
}
