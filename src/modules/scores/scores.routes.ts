// POST /games/{slug}/scores, GET /games/{slug}/scores/me and GET /me/scores.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { myScores } from './leaderboard.service.js';
import { GameScores, MyScores, SlugParams, SubmitBody, SubmitHeaders, SubmitResult } from './scores.schemas.js';
import { myScoresForGame, submitScore } from './scores.service.js';

export async function scoresRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/games/:slug/scores',
    {
      schema: {
        tags: ['scores'],
        operationId: 'submitScore',
        summary: 'Submit a score',
        description:
          'With a player credential, or a developer key of this game with scope scores:write naming `player_id` (a player who has started a play session ' +
          'of this game; anyone else is 404 not_found). Every submission is stored; it counts on the board for all time and for the current month, ' +
          'ISO week and day in reset_timezone. `rank` is the all-time standing after this score. `Idempotency-Key` makes retries safe: the same key ' +
          'from the same caller within 24 hours returns the first response (header `Idempotent-Replayed: true`) and stores nothing; another body with ' +
          'that key is 422 idempotency_key_reused. 404 leaderboard_disabled when the game has no leaderboard. A score outside the bounds the game ' +
          'declares (game.json `leaderboard.min`, `leaderboard.max`) is 422 score_out_of_range, with `error.min` and `error.max`.',
        params: SlugParams,
        headers: SubmitHeaders,
        body: SubmitBody,
        response: { 201: Ok(SubmitResult) },
      },
      config: {
        auth: 'player_or_key',
        scope: 'scores:write',
        errors: [
          'not_found',
          'leaderboard_disabled',
          'invalid_play_session',
          'score_out_of_range',
          'idempotency_key_reused',
        ],
      },
    },
    async (request, reply) => {
      const outcome = await submitScore(app.ctx, {
        slug: request.params.slug,
        credential: request.credential!,
        body: request.body,
        idempotencyKey: request.headers['idempotency-key'],
      });
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(ok(outcome.result));
    },
  );

  app.get(
    '/v1/games/:slug/scores/me',
    {
      schema: {
        tags: ['scores'],
        operationId: 'listMyGameScores',
        summary: "The player's last 50 submissions for a game",
        description: 'All boards, newest first. 404 leaderboard_disabled when the game has no leaderboard.',
        params: SlugParams,
        response: { 200: Ok(GameScores) },
      },
      config: { auth: 'player', errors: ['not_found', 'leaderboard_disabled'] },
    },
    async (request) => ok(await myScoresForGame(app.ctx, request.params.slug, playerOf(request).playerId)),
  );

  app.get(
    '/v1/me/scores',
    {
      schema: {
        tags: ['scores'],
        operationId: 'getMyScores',
        summary: "The player's bests and recent submissions",
        description:
          '`best`: the all-time best and rank on every board the player has scored on, for games that are listed and have a leaderboard. ' +
          '`recent`: the 20 most recent submissions on those games, newest first.',
        response: { 200: Ok(MyScores) },
      },
      config: { auth: 'player' },
    },
    async (request) => ok(await myScores(app.ctx, playerOf(request).playerId)),
  );
}
