// GET /healthz (liveness) and GET /readyz (readiness), for orchestrators and load balancers: outside /v1, never
// rate-limited, not logged at info, answered over plain HTTP in production too (probes reach the process directly).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, errorEnvelope, ok } from '../../http/envelope.js';
import type { ReadinessProbe } from '../../db/probe.js';
import { AppError } from '../../http/errors.js';
import { readiness } from './health.service.js';

export interface HealthOptions {
  /** the database connection /readyz reads on (never the request pool's) */
  probe: ReadinessProbe;
}

export async function healthRoutes(fastify: FastifyInstance, options: HealthOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const budgetMs = app.ctx.config.readiness_timeout_ms;
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['service'],
        summary: 'Liveness',
        description:
          'Answers 200 while the process can answer requests, also while it shuts down; touches no database. A failing liveness probe means: restart the process. Not rate-limited; needs no credential.',
        response: { 200: Ok(Type.Object({ status: Type.Literal('ok', { description: 'always ok' }) })) },
      },
      config: { healthProbe: 'liveness' },
      logLevel: 'warn',
    },
    async () => ok({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['service'],
        summary: 'Readiness',
        description:
          'Answers 200 when the database answers within `readiness_timeout_ms` (1 s by default) and has every migration of this version; 503 `unavailable` otherwise (`error.reason`: `database_unreachable` or `migrations_pending`) and while the process shuts down (no `reason`). The database is asked on a connection kept for this probe, so requests that hold every connection of the pool never delay the answer. A failing readiness probe means: send no traffic here for now. Not rate-limited; needs no credential.',
        response: {
          200: Ok(Type.Object({ status: Type.Literal('ready', { description: 'always ready' }) })),
          503: errorEnvelope(503, ['unavailable']),
        },
      },
      config: { healthProbe: 'readiness' },
      logLevel: 'warn',
    },
    async () => {
      const result = await readiness(options.probe, budgetMs);
      if (!result.ready) {
        // Not logged here: probes come every few seconds, and a lost database is logged by the pool and the requests.
        const message =
          result.reason === 'migrations_pending'
            ? 'The database lacks migrations of this version'
            : 'The database does not answer';
        throw new AppError('unavailable', message, { reason: result.reason });
      }
      return ok({ status: 'ready' as const });
    },
  );
}
