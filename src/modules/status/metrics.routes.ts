// GET /metrics: the Prometheus text format; open unless metrics_token is set, then only with that Bearer token.
import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import type { Metrics } from '../../services/metrics/metrics.js';

/**
 * Counts every answer by route pattern (never the raw URL: its ids would make a series each), method and status.
 * The labelled children are kept per combination, so a request costs a map lookup, an increment and an observation
 * (prom-client would otherwise check and hash the labels on each call).
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  type Series = { requests: { inc(): void }; duration: { observe(seconds: number): void } };
  const series = new Map<string, Series>();
  // Synchronous (done): an async hook costs every request a promise.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let one = series.get(key);
    if (!one) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      one = { requests: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) };
      series.set(key, one);
    }
    one.requests.inc();
    one.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}

function bearerMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const sent = /^Bearer +(\S+)\s*$/i.exec(header)?.[1] ?? '';
  // Hashes have one length, so the comparison takes the same time whatever was sent.
  return timingSafeEqual(Buffer.from(sha256(sent), 'hex'), Buffer.from(sha256(token), 'hex'));
}

export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { config, metrics } = app.ctx;
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        // open when metrics_token is unset, else the token
        security: [{}, { metricsToken: [] }],
        summary: 'Prometheus metrics',
        description:
          'The metrics in the Prometheus text format (outside /v1, at the root of public_url): Node.js and process defaults, HTTP requests by route pattern, method and status with their durations, play, scores, saves, rate-limit refusals, the database pool and its errors, the object store, Redis, readiness and build info. With the setting metrics_port set it is served on that port of metrics_host instead (plain HTTP, for scraping each instance), and not here. Open when the setting metrics_token is unset; with it set, send `Authorization: Bearer <metrics_token>` (else 401 unauthenticated). Not rate-limited.',
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: Type.String() } },
          },
        },
      },
      // Scraped every few seconds: neither rate-limited nor logged at info on each call.
      config: { auth: 'none', rateLimitRule: 'none', errors: ['unauthenticated'] },
      logLevel: 'warn',
    },
    async (request, reply) => {
      if (config.metrics_token && !bearerMatches(request, config.metrics_token)) {
        void reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new AppError('unauthenticated', 'GET /metrics needs Authorization: Bearer <metrics_token>');
      }
      const { contentType, text } = await metrics.scrape();
      return reply.type(contentType).send(text);
    },
  );
}
