// GET /v1/status.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, Timestamp, ok } from '../../http/envelope.js';
import { getStatus } from './status.service.js';

const Status = Type.Object({
  version: Type.String({ description: 'version of the service' }),
  api_version: Type.Literal('1.0.0'),
  server_time: Timestamp,
  games: Type.Integer({ description: 'games listed to clients (published and beta)' }),
  players_online: Type.Integer({
    description: 'distinct players with an active play session heard from within session_idle_timeout',
  }),
});

export async function statusRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/v1/status',
    {
      schema: {
        tags: ['service'],
        operationId: 'getStatus',
        summary: 'Health data',
        description:
          'Version of the service and of the API, the server time (UTC), the games listed to clients and the players with an active play session. Needs no credential; suitable for health checks. ' +
          'The two counts are kept for up to a second by each instance (a play start or end on that instance counts again at once): across instances, and as sessions go idle, they may lag by that much.',
        response: { 200: Ok(Status) },
      },
      config: { auth: 'none' },
    },
    async () => ok(await getStatus(app.ctx)),
  );
}
