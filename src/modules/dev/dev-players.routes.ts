// GET /v1/dev/players/{id} and /entitlement: what a game backend may know of one of its players.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { keyOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { EntitlementSchema } from '../play/entitlement.js';
import { keyOnly, PLAYERS_OF_THE_GAME } from './dev-docs.js';
import { DevProfile, PlayerParams } from './dev.schemas.js';
import { devPlayerEntitlement, devPlayerProfile } from './dev.service.js';

const TAGS = ['game backends'];

export async function devPlayersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/dev/players/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'devGetPlayer',
        summary: 'Public profile of a player of the game, by id',
        description: `The same object as GET /players/{username}: the public view of the player, \`unlimited\` (Unlimited membership;
staff roles are not shown), \`best_scores\` (with ranks and covers) and \`recently_played\`. Never the email address or an account setting (newsletter, role,
membership dates): the response schema has no field for them.

${PLAYERS_OF_THE_GAME}

${keyOnly('players:read')}`,
        params: PlayerParams,
        response: { 200: Ok(DevProfile) },
      },
      config: { auth: 'key', scope: 'players:read', errors: ['not_found'] },
    },
    async (request) => ok(await devPlayerProfile(app.ctx, keyOf(request), request.params.id)),
  );

  app.get(
    '/v1/dev/players/:id/entitlement',
    {
      schema: {
        tags: TAGS,
        operationId: 'devGetEntitlement',
        summary: "A player's entitlement today",
        description: `The Entitlement the player sees in GET /me/entitlement: allowance, use today (all games), time left, whether the limit
is reached, and when the day resets in reset_timezone. A backend can use it to tell the player how much time is left.
It reads only: it neither starts nor keeps alive a play session. \`unlimited\` is true for Unlimited members and staff
(neither has a daily limit).

The scope is \`players:read\`: the entitlement is a fact about the player, like the profile.

${PLAYERS_OF_THE_GAME}

${keyOnly('players:read')}`,
        params: PlayerParams,
        response: { 200: Ok(EntitlementSchema) },
      },
      config: { auth: 'key', scope: 'players:read', errors: ['not_found'] },
    },
    async (request) => ok(await devPlayerEntitlement(app.ctx, keyOf(request), request.params.id)),
  );
}
