// POST /v1/dev/games/{slug}/players/{id}/scores: POST /games/{slug}/scores for the player in the path.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { keyOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { SubmitHeaders, SubmitResult } from '../scores/scores.schemas.js';
import { submitScore } from '../scores/scores.service.js';
import { keyOnly, PLAYERS_OF_THE_GAME } from './dev-docs.js';
import { DevSubmitBody, GamePlayerParams } from './dev.schemas.js';

export async function devScoresRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/dev/games/:slug/players/:id/scores',
    {
      schema: {
        tags: ['game backends'],
        operationId: 'devSubmitScore',
        summary: 'Submit a score for a player',
        description: `POST /games/{slug}/scores for the player in the path: the same body without \`player_id\` (sending it is 422), the same
rules and answer. Every submission is stored and counts on the board for all time and for the current month, ISO week
and day in reset_timezone; 201 \`{accepted, score, board, rank: {rank, best}, personal_best}\` with the all-time standing.
\`play_session\`, when given, must be a play session of this player for this game (422 \`invalid_play_session\`).
\`Idempotency-Key\` makes a retry safe: the same key from the same key within 24 hours returns the first response
(header \`Idempotent-Replayed: true\`) and stores nothing; it is the same request as POST /games/{slug}/scores with
\`player_id\`, so a key used on either route replays on both. Another body with that key is 422 \`idempotency_key_reused\`.

Unknown, draft and retired games are 404 \`not_found\`; a slug of another game than the key's is 403 \`forbidden\`;
a game with \`leaderboard.enabled: false\` is 404 \`leaderboard_disabled\`; a score outside the bounds the game declares
(game.json \`leaderboard.min\`, \`leaderboard.max\`) is 422 \`score_out_of_range\` with \`error.min\` and \`error.max\`.

${PLAYERS_OF_THE_GAME}

${keyOnly('scores:write')}`,
        params: GamePlayerParams,
        headers: SubmitHeaders,
        body: DevSubmitBody,
        response: { 201: Ok(SubmitResult) },
      },
      config: {
        auth: 'key',
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
        credential: keyOf(request),
        body: { ...request.body, player_id: request.params.id },
        idempotencyKey: request.headers['idempotency-key'],
      });
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(ok(outcome.result));
    },
  );
}
