// buildApp(config, database) → a Fastify instance with every route; it never listens (server.ts does).
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { DatabaseHandle } from './db/connect.js';
import { registerAuth } from './http/auth.js';
import {
  clientErrorHandler,
  registerConnectHandler,
  registerExpectationHandler,
  registerHostCheck,
} from './http/client-errors.js';
import { DEFAULT_BODY_LIMIT, registerBodyEncodingCheck, registerJsonParser } from './http/content.js';
import { errorHandler } from './http/error-handler.js';
import { AccessLog, lazyChildLogger, loggerOptions } from './http/logging.js';
import { registerNotFound } from './http/not-found.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimits } from './http/rate-limit.js';
import { requestIdGenerator } from './http/request-id.js';
import './http/route-config.js';
import { registerRouteDocs } from './http/route-docs.js';
import { registerSecurity } from './http/security.js';
import { validatorCompiler } from './http/validation.js';
import { loadPortalAssets, notFoundPage, portalRoutes, registerPageSecurity } from './modules/portal/portal.routes.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { type CredentialCache, startCredentialCache } from './modules/accounts/credential-cache.js';
import { playerTokenResolver } from './modules/accounts/credentials.js';
import { developerKeyCredential } from './modules/games/keys.service.js';
import { devRoutes } from './modules/dev/dev.routes.js';
import { createMailer } from './services/mail/mailer.js';
import { createMetrics } from './services/metrics/metrics.js';
import { instrumentStore } from './services/metrics/store-metrics.js';
import { metricsRoutes, registerHttpMetrics } from './modules/status/metrics.routes.js';
import { buildMetricsListener } from './modules/status/metrics-listener.js';
import { gameFilesRoutes } from './modules/games/game-files.routes.js';
import { gameRequestRewriter, isGameRequest } from './modules/games/game-origin.js';
import { gamesRoutes } from './modules/games/games.routes.js';
import { libraryRoutes } from './modules/games/library.routes.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { playRoutes } from './modules/play/play.routes.js';
import { countActiveSessions } from './modules/play/play.service.js';
import { statesRoutes } from './modules/states/states.routes.js';
import { leaderboardRoutes } from './modules/scores/leaderboard.routes.js';
import { scoresRoutes } from './modules/scores/scores.routes.js';
import { healthRoutes } from './modules/status/health.routes.js';
import { readiness } from './modules/status/health.service.js';
import { statusRoutes } from './modules/status/status.routes.js';
import { mediaRoutes } from './modules/games/media.routes.js';
import { adminRoutes } from './modules/studios/admin.routes.js';
import { operatorRoutes } from './modules/admin/admin.routes.js';
import { buildsRoutes } from './modules/studios/builds.routes.js';
import { keysRoutes } from './modules/studios/keys.routes.js';
import { listingMediaRoutes } from './modules/studios/listing-media.routes.js';
import { previewDataRoutes } from './modules/studios/preview-data.routes.js';
import { moderationRoutes } from './modules/studios/moderation.routes.js';
import { numbersRoutes } from './modules/studios/numbers.routes.js';
import { studioGamesRoutes } from './modules/studios/studio-games.routes.js';
import { studioRoutes } from './modules/studios/studio.routes.js';
import { uploadsRoutes } from './modules/studios/uploads.routes.js';
import { openStore } from './services/storage/storage.js';
import type { ObjectStore } from './services/storage/store.js';
import type { Tracing } from './services/tracing/tracing.js';

export type App = FastifyInstance & { ctx: AppContext };

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** PostgreSQL with credential_cache on: player tokens kept in memory, fresh by LISTEN/NOTIFY (else undefined) */
    credentialCache: CredentialCache | undefined;
    /** with metrics_port set: the plain-HTTP listener for /metrics and the probes, not listening yet (else undefined) */
    metricsListener: FastifyInstance | undefined;
  }
}

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  /** A logger to use instead of a new one (the server shares its logger with the pool's error handler). */
  logger?: FastifyBaseLogger;
  /** the file store (default: the one storage_url names) */
  storage?: ObjectStore;
  /** OpenTelemetry tracing, when the settings turn it on (server.ts starts it before the app is built) */
  tracing?: Tracing;
}

/**
 * How long a connection may take (settings http.*): Node enforces request and headers timeouts on a timer, every
 * connectionsCheckingInterval (30 s by default, which let a 1-byte-a-second body hold its connection past 100 s).
 */
function connectionLimits(config: Config) {
  const { request_timeout_seconds: request, headers_timeout_seconds: headers } = config.http;
  return {
    requestTimeout: request * 1000,
    headersTimeout: Math.min(headers, request) * 1000,
    connectionsCheckingInterval: 500,
    // A cookie bomb's header (about 740 KB) is taken and healed rather than refused (docs/operations.md, "Cookie bombs").
    maxHeaderSize: config.http.max_header_bytes,
    // A request without Host is answered in the envelope (registerHostCheck), not with Node's bare 400.
    requireHostHeader: false,
  };
}

/**
 * Node's headers timeout starts with a request's first byte: a connection that sends nothing at all was held until the
 * client went (1,000 of them, all held). One that has not sent a byte when the headers timeout passes is closed. No
 * 'data' listener: it would take the socket off Node's native parser path.
 */
function closeSilentConnections(server: FastifyInstance['server'], timeoutMs: number): void {
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/** TLS served directly when tls_cert and tls_key are set; a proxy is trusted for X-Forwarded-* when trust_proxy is. */
function transportOptions(config: Config): Partial<FastifyServerOptions> {
  const limits = connectionLimits(config);
  const options: Record<string, unknown> = {
    http: limits,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: config.http.keep_alive_timeout_seconds * 1000,
  };
  if (config.tls_cert)
    options.https = { ...limits, cert: readFileSync(config.tls_cert), key: readFileSync(config.tls_key) };
  const proxy = config.trust_proxy;
  if (proxy) options.trustProxy = proxy === 'true' ? true : /^\d+$/.test(proxy) ? Number(proxy) : proxy;
  return options;
}

function decodable(url: string): boolean {
  try {
    decodeURI(url);
    return true;
  } catch {
    return false;
  }
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.log_level) }),
    ...transportOptions(config),
    // One access line per request, at the response (logging.ts), rather than Fastify's two.
    logController: new AccessLog(),
    // A request's logger is made when it is first written to (most requests never write with it).
    childLoggerFactory: lazyChildLogger,
    genReqId: requestIdGenerator(config.trust_proxy),
    requestIdHeader: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    return503OnClosing: false,
    // Answers Node gives below the router (431, 400, 408) come in the envelope too.
    clientErrorHandler,
    routerOptions: { maxParamLength: 200 },
    // Requests on a game's own origin (games_url) go to the game files, and only there.
    rewriteUrl: gameRequestRewriter(config),
    // A URL the router cannot decode never reaches a route: answer it in the envelope too.
    // No hook has run for it, so the headers every answer carries are set here. The router also refuses a path
    // parameter over maxParamLength: such a URL reads fine and names nothing (404).
    frameworkErrors: (_error, request, reply) => {
      const answer = decodable(request.url)
        ? { status: 404, code: 'not_found', message: 'Nothing is found at this address' }
        : { status: 400, code: 'bad_request', message: 'The request URL cannot be read' };
      void (reply as FastifyReply)
        .code(answer.status)
        .header('X-Content-Type-Options', 'nosniff')
        .send({ ok: false, error: { code: answer.code, message: answer.message } });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // First, so that its request span wraps every hook and route after it.
  if (options.tracing) await app.register(options.tracing.plugin);
  app.server.maxConnections = config.http.max_connections;
  closeSilentConnections(app.server, connectionLimits(config).headersTimeout);

  const clock = options.clock ?? systemClock;
  const metrics = createMetrics();
  metrics.infrastructure.describeBuild(database.dialect);
  metrics.infrastructure.trackListeners(database.listenerStats);
  database.onError((kind) => metrics.infrastructure.databaseError(kind));
  const mailer = createMailer({ config, db: database.db, clock, log: app.log, metrics });
  const storage = instrumentStore(options.storage ?? (await openStore(config)), metrics.infrastructure);
  // A missing bucket or refused credentials stop the start here, not as a 500 on the first upload.
  await storage.check();
  const credentialCache = await startCredentialCache(config, database, app.log);
  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    log: app.log,
    mailer,
    metrics,
    storage,
  };
  metrics.setSources({
    activeSessions: () => countActiveSessions(ctx),
    waitingMail: () => mailer.waiting(),
    pool: database.poolStats,
    ready: async () => (await readiness(database.readiness, config.readiness_timeout_ms)).ready,
  });
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => storage.close());
  app.addHook('onClose', async () => credentialCache?.close());
  app.decorate('credentialCache', credentialCache);
  registerHttpMetrics(app, metrics);
  // Mail still being delivered finishes before the database closes (the caller destroys it after app.close()).
  app.addHook('onClose', async () => mailer.close());

  registerExpectationHandler(app);
  registerConnectHandler(app);
  app.setValidatorCompiler(validatorCompiler());
  app.setErrorHandler(errorHandler);
  registerJsonParser(app);
  registerBodyEncodingCheck(app);
  const portal = loadPortalAssets();
  registerNotFound(app, { htmlPage: notFoundPage(portal) });
  registerRouteDocs(app);
  await registerSecurity(app, config, isGameRequest);
  // After the security headers' hook: its refusal carries them too.
  registerHostCheck(app);
  await app.register(cookie, { secret: config.secret });
  const rateLimits = await registerRateLimits(app, ctx);
  const resolver = {
    playerToken: playerTokenResolver(ctx, credentialCache),
    developerKey: (secret: string) => developerKeyCredential(ctx, secret),
  };
  registerAuth(app, ctx, resolver, { onFailure: rateLimits.countFailedAuthentication });
  rateLimits.afterAuthentication();
  await registerOpenApi(app, config);

  await app.register(statusRoutes);
  await app.register(healthRoutes, { probe: database.readiness });
  // With a metrics listener of its own (metrics_port), /metrics is served there only.
  if (!config.metrics_port) await app.register(metricsRoutes);
  app.decorate(
    'metricsListener',
    config.metrics_port ? await buildMetricsListener(app, database.readiness) : undefined,
  );
  await app.register(accountsRoutes);
  await app.register(statesRoutes);
  await app.register(gamesRoutes);
  await app.register(libraryRoutes);
  await app.register(gameFilesRoutes, { prefix: '/g' });
  await app.register(playRoutes);
  await app.register(scoresRoutes);
  await app.register(leaderboardRoutes);
  await app.register(devRoutes);
  await app.register(identityRoutes);
  await app.register(studioRoutes);
  await app.register(studioGamesRoutes);
  await app.register(listingMediaRoutes);
  await app.register(uploadsRoutes);
  await app.register(buildsRoutes);
  await app.register(keysRoutes);
  await app.register(numbersRoutes);
  await app.register(moderationRoutes);
  await app.register(previewDataRoutes);
  await app.register(adminRoutes);
  await app.register(operatorRoutes);
  await app.register(mediaRoutes);

  registerPageSecurity(app);
  await app.register(portalRoutes(portal, resolver.playerToken));

  return app as unknown as App;
}
