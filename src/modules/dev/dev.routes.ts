// The /v1/dev routes (docs/backend-developers.md): a game's backend acting, with a developer key, for the players of its game.
import type { FastifyInstance } from 'fastify';
import { devPlayersRoutes } from './dev-players.routes.js';
import { devScoresRoutes } from './dev-scores.routes.js';
import { devStatesRoutes } from './dev-states.routes.js';
import { devStatsRoutes } from './dev-stats.routes.js';

export async function devRoutes(app: FastifyInstance): Promise<void> {
  await app.register(devPlayersRoutes);
  await app.register(devStatesRoutes);
  await app.register(devScoresRoutes);
  await app.register(devStatsRoutes);
}
