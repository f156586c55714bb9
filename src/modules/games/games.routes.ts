// GET /v1/games, GET /v1/games/{slug}, POST /v1/games/{slug}/favorite.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, OkMeta, ok } from '../../http/envelope.js';
import { FavoriteSchema, GameListMeta, GameListQuery, GameSchema, SlugParams } from './games.schemas.js';
import { getGame, listGames, toggleFavorite } from './games.service.js';

export async function gamesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/games',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['games'],
        operationId: 'listGames',
        summary: 'List the games',
        description:
          'Published and beta games, most played first, then by name (ignoring case and accents; numbers in names sort by value); ' +
          'with `q`, the games matching it, best match first (`sort=relevance`, the default with `q`); ' +
          '`sort=new` lists the games most recently published here first, `sort=name` A to Z. ' +
          'No paging: the whole catalogue is one list. `meta.categories` counts the games matching `q` per category before ' +
          '`category` is applied; an unknown category gives an empty list.',
        querystring: GameListQuery,
        response: { 200: OkMeta(Type.Object({ games: Type.Array(GameSchema) }), GameListMeta) },
      },
    },
    async (request) => {
      const { games, meta } = await listGames(app.ctx, request.query);
      return ok({ games }, meta);
    },
  );

  app.get(
    '/v1/games/:slug',
    {
      config: { auth: 'optional', errors: ['not_found'] },
      schema: {
        tags: ['games'],
        operationId: 'getGame',
        summary: 'One game',
        description:
          'Draft, retired and unknown games answer 404 not_found. With a player credential the game carries `is_favorite`.',
        params: SlugParams,
        response: { 200: Ok(GameSchema) },
      },
    },
    async (request) => {
      const credential = request.credential?.kind === 'player' ? request.credential : null;
      return ok(await getGame(app.ctx, request.params.slug, credential));
    },
  );

  app.post(
    '/v1/games/:slug/favorite',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags: ['games'],
        operationId: 'toggleFavorite',
        summary: 'Toggle a favourite',
        description:
          "Marks the game as one of the player's favourites, or unmarks it when it is one. No body. Games that are not visible answer 404.",
        params: SlugParams,
        response: { 200: Ok(FavoriteSchema) },
      },
    },
    async (request) => ok(await toggleFavorite(app.ctx, request.params.slug, playerOf(request))),
  );
}
