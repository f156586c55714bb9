// GET /v1/players/{username}: a public profile.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { ProfileSchema } from './accounts.schemas.js';
import { publicProfile } from './accounts.service.js';

export async function playerRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/v1/players/:username',
    {
      config: { auth: 'none', errors: ['not_found'] },
      schema: {
        tags: ['players'],
        operationId: 'getPlayer',
        summary: 'Public profile of a player',
        description:
          'The username matches in any letter case. Unknown and suspended players are both 404 `not_found`. ' +
          "`unlimited` tells Unlimited membership (staff roles are not shown). `best_scores` holds the best on each game's `main` board.",
        params: Type.Object({ username: Type.String() }),
        response: { 200: Ok(ProfileSchema) },
      },
    },
    async (request) => ok(await publicProfile(app.ctx, request.params.username)),
  );
}
