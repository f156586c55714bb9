// GET /v1/games, GET /v1/games/{slug}, its related games, POST /v1/games/{slug}/favorite, PUT and DELETE its rating.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, OkMeta, ok } from '../../http/envelope.js';
import {
  FavoriteSchema,
  GameListMeta,
  GameListQuery,
  GameSchema,
  RatingBody,
  RatingResultSchema,
  RelatedQuery,
  SlugParams,
} from './games.schemas.js';
import { getGame, listGames, relatedGames, toggleFavorite } from './games.service.js';
import { rateGame, unrateGame } from './ratings.service.js';

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
          'Draft, retired and unknown games answer 404 not_found. The game carries its `screenshots` and its `rating`; ' +
          'with a player credential also `is_favorite` and `my_rating`.',
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

  app.get(
    '/v1/games/:slug/related',
    {
      config: { auth: 'none', errors: ['not_found'] },
      schema: {
        tags: ['games'],
        operationId: 'listRelatedGames',
        summary: 'Games like this one',
        description:
          'Other published and beta games, for "More like this": those of the same category first, then those sharing ' +
          'the most tags with it, then the most played (stats.plays), then by slug; never the game itself. ' +
          'Draft, retired and unknown games answer 404 not_found.',
        params: SlugParams,
        querystring: RelatedQuery,
        response: { 200: Ok(Type.Object({ games: Type.Array(GameSchema) })) },
      },
    },
    async (request) => ok({ games: await relatedGames(app.ctx, request.params.slug, request.query.limit) }),
  );

  app.put(
    '/v1/games/:slug/rating',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags: ['games'],
        operationId: 'rateGame',
        summary: 'Rate a game',
        description:
          "Records the player's thumbs up or down on the game (guests too), replacing the vote the player gave it before: " +
          'one vote per player and game. Answers the game rating and the vote. Games that are not visible answer 404.',
        params: SlugParams,
        body: RatingBody,
        response: { 200: Ok(RatingResultSchema) },
      },
    },
    async (request) => ok(await rateGame(app.ctx, request.params.slug, playerOf(request), request.body.value)),
  );

  app.delete(
    '/v1/games/:slug/rating',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags: ['games'],
        operationId: 'unrateGame',
        summary: 'Take a rating back',
        description:
          "Removes the player's vote on the game, if any (no vote is no error). Answers the game rating. " +
          'Games that are not visible answer 404.',
        params: SlugParams,
        response: { 200: Ok(RatingResultSchema) },
      },
    },
    async (request) => ok(await unrateGame(app.ctx, request.params.slug, playerOf(request))),
  );
}
