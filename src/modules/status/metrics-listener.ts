// The metrics listener (metrics_port): GET /metrics and the probes over plain HTTP on an internal address, so that
// Prometheus scrapes each instance directly while the public port stays HTTPS-only in production.
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { ReadinessProbe } from '../../db/probe.js';
import { errorHandler } from '../../http/error-handler.js';
import { AppError } from '../../http/errors.js';
import { healthRoutes } from './health.routes.js';
import { metricsRoutes } from './metrics.routes.js';

/**
 * Builds the listener for an app and its readiness probe, and ties it to the app: while the app shuts down its /readyz
 * answers 503 here too, and it closes with the app. Called by buildApp before the app is ready (it adds the app's
 * hooks); it does not listen yet (listenForMetrics does, in the server).
 */
export async function buildMetricsListener(app: FastifyInstance, probe: ReadinessProbe): Promise<FastifyInstance> {
  const ctx: AppContext = app.ctx;
  const internal = Fastify({ loggerInstance: ctx.log, return503OnClosing: false });
  internal.decorate('ctx', ctx);
  internal.setErrorHandler(errorHandler);
  internal.setNotFoundHandler((request) => {
    throw new AppError(
      'not_found',
      `Nothing at ${request.method} ${request.url.split('?')[0]}; this port serves /metrics, /healthz and /readyz`,
    );
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  internal.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (closing && request.routeOptions.config?.healthProbe === 'readiness')
      return done(new AppError('unavailable', 'The service is restarting; try again shortly'));
    done();
  });
  await internal.register(metricsRoutes);
  await internal.register(healthRoutes, { probe });
  app.addHook('onClose', async () => internal.close());
  return internal;
}

/** Starts the app's metrics listener (built by buildApp when metrics_port is set) on metrics_host:metrics_port. */
export async function listenForMetrics(app: FastifyInstance): Promise<FastifyInstance | undefined> {
  const { metrics_port: port, metrics_host: host } = app.ctx.config;
  const internal = app.metricsListener;
  if (!internal) return undefined;
  await internal.listen({ port, host });
  return internal;
}
