// /v1/studio/games/{slug}/leaderboard and …/scores/removals: leaderboard moderation; /v1/studio/studios/{studio}/audit:
// the studio's audit log (every console action taken in the studio, newest first); …/leaderboards/{board}/seasons:
// board seasons.
import { type Static, Type } from '@sinclair/typebox';
import { AuditEntrySchema } from '../audit/audit.schemas.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Nullable, Ok, OkMeta, RowId, Timestamp, ok } from '../../http/envelope.js';
import { validationFailed } from '../../http/errors.js';
import { searchAudit } from '../audit/audit.service.js';
import { getLeaderboard } from '../scores/leaderboard.service.js';
import { removeScores } from '../scores/moderation.service.js';
import {
  BOARD_PATTERN,
  LeaderboardMeta,
  LeaderboardQuery,
  NewSeasonResult,
  StudioLeaderboardData,
  type StudioLeaderboardRow,
} from '../scores/scores.schemas.js';
import { startSeason } from '../scores/seasons.service.js';
import { operatorActor } from '../accounts/admin.service.js';
import { gameAccess, studioAccess } from './access.js';
import { findStudioBySlug } from './studios.repository.js';
import { GameParams, StudioParams } from './studios.schemas.js';

const tags = ['studios'];

const RemovalBody = Type.Object(
  {
    reason: Type.String({ minLength: 3, maxLength: 500, description: 'why: kept in the audit log' }),
    score_id: Type.Optional(RowId('remove this one submission')),
    player_id: Type.Optional(RowId("remove all of this player's submissions on `board`")),
    board: Type.Optional(Type.String({ pattern: BOARD_PATTERN, description: 'with player_id: the board' })),
  },
  { additionalProperties: false },
);

const RemovalResult = Type.Object(
  {
    board: Type.String(),
    player_id: Type.Integer(),
    removed: Type.Array(Type.Object({ id: Type.Integer(), score: Type.Number(), created_at: Timestamp })),
    boards_rebuilt: Type.Integer({ description: "the board's periods (all time, month, week, day) rebuilt" }),
  },
  { title: 'ScoreRemoval' },
);

const AuditQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 100, description: "words in the actor's name, the action, the target or the reason" }),
    ),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    before: Type.Optional(RowId('entries older than this id: next_before of the previous page')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);

export async function moderationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/games/:slug/leaderboard',
    {
      config: { auth: 'player', errors: ['not_found', 'leaderboard_disabled', 'validation_failed'] },
      schema: {
        tags,
        operationId: 'getStudioLeaderboard',
        summary: 'A page of a leaderboard, for moderation',
        description: `The page GET /v1/games/{slug}/leaderboard answers (same board, period, limit, offset and at; no around, no season), each row
also naming the submission that holds the player's best in the period (\`score_id\`) and the player (\`player_id\`): what
POST /v1/studio/games/{slug}/scores/removals takes. For the members of the game's studio and the operators; 404 for anyone else.`,
        params: GameParams,
        // An ended season is read on the public board (?season=): its rows are kept without submission ids.
        querystring: Type.Omit(LeaderboardQuery, ['around', 'season'], { additionalProperties: false }),
        response: { 200: OkMeta(StudioLeaderboardData, LeaderboardMeta) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      const { data, meta } = await getLeaderboard(ctx, game.slug, request.query, null, { ids: true });
      return ok({ leaderboard: data.leaderboard as Static<typeof StudioLeaderboardRow>[] }, meta);
    },
  );

  app.post(
    '/v1/studio/games/:slug/scores/removals',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending', 'validation_failed'] },
      schema: {
        tags,
        operationId: 'removeScores',
        summary: 'Remove a score, or all of a player’s scores on a board',
        description: `With \`score_id\`: that submission. With \`player_id\` and \`board\`: all of the player's submissions on the board.
The submissions are deleted and every period of the board the player was ranked on (all time, month, week, day) is
rebuilt from the submissions left, in one transaction: the player's best falls back to their next best, or they leave
the board, and every rank is exact at once. The reason, the caller and the removed submissions go to the studio's audit
log (GET /v1/studio/studios/{studio}/audit). 404 for a submission or a player without submissions on this game's
board, and for anyone outside the game's studio.`,
        params: GameParams,
        body: RemovalBody,
        response: { 200: Ok(RemovalResult) },
      },
    },
    async (request) => {
      const { game, playerId } = await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      const { reason, score_id, player_id, board } = request.body;
      const byScore = score_id !== undefined;
      const byPlayer = player_id !== undefined && board !== undefined;
      if (byScore === byPlayer || (byScore && (player_id !== undefined || board !== undefined)))
        throw validationFailed({ score_id: 'give either score_id, or player_id and board' });
      const outcome = await removeScores(
        ctx,
        game,
        byScore ? { scoreId: score_id } : { playerId: player_id!, board: board! },
        playerId!,
        reason.trim(),
      );
      return ok(outcome);
    },
  );

  app.post(
    '/v1/studio/games/:slug/leaderboards/:board/seasons',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending', 'leaderboard_disabled', 'season_busy'] },
      schema: {
        tags,
        operationId: 'startBoardSeason',
        summary: 'End a board’s season and start the next',
        description: `The board's all-time standings are kept as season N, with every rank as it stood (public:
GET /v1/games/{slug}/leaderboard?board=…&season=N), and every period of the board (all time, month, week, day) starts
empty for season N + 1; submissions from now on count in the new season only. One transaction with the audit entry
\`leaderboard.new_season\`. For the studio's members and the operators; 404 for anyone else, and for a board without a
score. 409 season_busy when another request ends the same season at the same time.`,
        params: Type.Object({
          slug: Type.String({ maxLength: 64, description: 'the game slug' }),
          board: Type.String({ pattern: BOARD_PATTERN, description: 'the board name' }),
        }),
        response: { 201: Ok(NewSeasonResult) },
      },
    },
    async (request, reply) => {
      const { game, playerId } = await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      const actor = await operatorActor(ctx, playerId!);
      return reply.code(201).send(ok(await startSeason(ctx, game, request.params.board, actor)));
    },
  );

  app.get(
    '/v1/studio/studios/:studio/audit',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'getStudioAudit',
        summary: "The studio's audit log",
        description:
          'Every console action taken in the studio (who, what, on what, why, before → after), newest first, a page at a time. ' +
          'For its members and the operators; 404 for anyone else.',
        params: StudioParams,
        querystring: AuditQuery,
        response: {
          200: Ok(Type.Object({ entries: Type.Array(AuditEntrySchema), next_before: Nullable(Type.Integer()) })),
        },
      },
    },
    async (request) => {
      const { studio } = await studioAccess(
        ctx,
        request.credential,
        await findStudioBySlug(ctx.db, request.params.studio),
      );
      const { q, action, before, limit } = request.query;
      return ok(await searchAudit(ctx, { studioId: studio.id, text: q, action, beforeId: before, limit: limit ?? 50 }));
    },
  );
}
