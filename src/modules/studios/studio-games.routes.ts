// /v1/studio/games…: a studio's games, whatever their status; the listing editor and the status (with its review).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { requestStatus, updateListing } from '../games/listing.service.js';
import { findStudioGame } from '../games/studio-games.service.js';
import { gameAccess, memberOf } from './access.js';
import { GameParams, ListingBody, StatusBody, StatusResult, StudioGameSchema } from './studios.schemas.js';
import { gameViewOf, gamesOfPlayer } from './studios.service.js';

const tags = ['studios'];

export async function studioGamesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/games',
    {
      config: { auth: 'player' },
      schema: {
        tags,
        operationId: 'listStudioGames',
        summary: "The games of the caller's studios",
        description: 'Every status, by slug. A player in no studio gets an empty list.',
        response: { 200: Ok(Type.Object({ games: Type.Array(StudioGameSchema) })) },
      },
    },
    async (request) => {
      const rows = await gamesOfPlayer(ctx, memberOf(request.credential).playerId);
      return ok({ games: await Promise.all(rows.map((row) => gameViewOf(ctx, row))) });
    },
  );

  app.get(
    '/v1/studio/games/:slug',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'getStudioGame',
        summary: 'A game of the studio',
        description:
          "Whatever its status, with its live build and its review. For the members of the game's studio and the operators; anyone else gets 404, as for a game that does not exist.",
        params: GameParams,
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      return ok(await gameViewOf(ctx, game));
    },
  );

  app.patch(
    '/v1/studio/games/:slug',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'updateListing',
        summary: "Edit the game's listing",
        description:
          "name, tagline, description, category, tags, orientation and requires_premium, checked as game.json's fields are (the same messages); " +
          'the fields left out stay. Takes effect at once, in every status. A build released later does not change the listing.',
        params: GameParams,
        body: ListingBody,
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      const row = await updateListing(ctx, request.params.slug, request.body);
      return ok(await gameViewOf(ctx, row));
    },
  );

  app.put(
    '/v1/studio/games/:slug/status',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'changeGameStatus',
        summary: "Change the game's status",
        description:
          'draft, beta or published (beta and published need a released build: 422 otherwise). Players see beta and published games. ' +
          "With the setting studios.review on, a studio's move to beta or published waits for an operator's review: 202 with `applied: false` " +
          'and `game.review`; asking again replaces the request, and draft withdraws it (taking a game down is never reviewed). ' +
          'Operators change it at once. A game an operator retired stays retired (403).',
        params: GameParams,
        body: StatusBody,
        response: { 200: Ok(StatusResult), 202: Ok(StatusResult) },
      },
    },
    async (request, reply) => {
      const { access } = await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      const outcome = await requestStatus(ctx, request.params.slug, request.body.status, access === 'operator');
      const game = await gameViewOf(ctx, (await findStudioGame(ctx, request.params.slug)) ?? outcome.game);
      return reply.code(outcome.applied ? 200 : 202).send(ok({ game, applied: outcome.applied }));
    },
  );
}
