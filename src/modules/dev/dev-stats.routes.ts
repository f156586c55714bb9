// GET /v1/dev/games/{slug}/stats: the game's numbers for its studio.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { keyOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { keyOnly } from './dev-docs.js';
import { GameParams } from './dev.schemas.js';
import { GameStats } from './stats.schemas.js';
import { gameStats } from './stats.service.js';

export async function devStatsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/dev/games/:slug/stats',
    {
      schema: {
        tags: ['game backends'],
        operationId: 'devGetStats',
        summary: 'Statistics of the game',
        description: `Players, plays and play time since the game began; sessions running now; plays and distinct players today, over the
last seven days and day by day (calendar days in reset_timezone, as the daily allowance counts them); save slots in use.
Every number is for this game only and counts what happened, whoever the player is now (suspended players included).
Each figure is read at \`generated_at\`; the figures are not one snapshot, so two of them may differ by a play that
happened while they were read.

A key always sees its own game's statistics, whatever the game's status (draft and retired too). Another game's slug is
403 \`forbidden\` when that game is listed (published or beta) and 404 \`not_found\` otherwise, as is an unknown slug.

${keyOnly('stats:read')}`,
        params: GameParams,
        response: { 200: Ok(GameStats) },
      },
      config: { auth: 'key', scope: 'stats:read', errors: ['not_found'] },
    },
    async (request) => ok(await gameStats(app.ctx, keyOf(request), request.params.slug)),
  );
}
