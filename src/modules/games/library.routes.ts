// GET /v1/me/favorites and GET /v1/me/recent: the player's favourite and recently played games.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { OkMeta, ok } from '../../http/envelope.js';
import { CountMeta, FavoritesData, RecentData, RecentQuery } from './library.schemas.js';
import { listFavorites, listRecent } from './library.service.js';

export async function libraryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/me/favorites',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'listMyFavorites',
        summary: 'The own favourite games',
        description:
          'The games the player marked with POST /games/{slug}/favorite, as in GET /games, the most recently marked first. ' +
          'Only published and beta games are listed (a favourite of a game taken down is kept and shows again when it returns). ' +
          'No paging. A developer key gets 403 `forbidden`.',
        response: { 200: OkMeta(FavoritesData, CountMeta) },
      },
    },
    async (request) => {
      const games = await listFavorites(app.ctx, playerOf(request).playerId);
      return ok({ games }, { count: games.length });
    },
  );

  app.get(
    '/v1/me/recent',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'listMyRecentGames',
        summary: 'The own recently played games',
        description:
          'The games the player has started play sessions of, the most recently played first (by the last time a session was heard ' +
          'from), at most `limit`. Each comes with `last_save`: the save slot the player wrote last for that game, or null. Only ' +
          'published and beta games are listed. A developer key gets 403 `forbidden`.',
        querystring: RecentQuery,
        response: { 200: OkMeta(RecentData, CountMeta) },
      },
    },
    async (request) => {
      const recent = await listRecent(app.ctx, playerOf(request).playerId, request.query.limit);
      return ok({ recent }, { count: recent.length });
    },
  );
}
