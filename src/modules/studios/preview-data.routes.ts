// /v1/studio/games/{slug}/preview/…: what the play shell calls for a game in preview (saves, scores, leaderboard),
// for the studio's members; `build` names the build previewed, whose game.json sets the slots and the leaderboard.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { registerJsonParser } from '../../http/content.js';
import { Nullable, Ok, OkMeta, ok, Timestamp } from '../../http/envelope.js';
import { buildSettings } from '../games/preview.service.js';
import { BOARD_PATTERN } from '../scores/scores.schemas.js';
import { STATE_JSON_PARSING } from '../states/states.service.js';
import { STATE_BODY_LIMIT } from '../states/states.schemas.js';
import { gameAccess, memberOf } from './access.js';
import {
  checkSlot,
  clearPreviewData,
  deletePreviewSlot,
  getPreviewState,
  listPreviewStates,
  previewLeaderboard,
  putPreviewState,
  submitPreviewScore,
} from './preview-data.service.js';
import { GameParams } from './studios.schemas.js';

const tags = ['preview'];
const config = { auth: 'player' as const, errors: ['not_found' as const] };
const BuildQuery = Type.Object({
  build: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'the build previewed' }),
});
const SlotParams = Type.Object({
  slug: Type.String({ maxLength: 64 }),
  slot: Type.Integer({ minimum: 0, maximum: 1000, description: "0 to the build's save_slots − 1" }),
});
const Summary = Type.Object({
  slot: Type.Integer(),
  label: Nullable(Type.String()),
  version: Type.Integer(),
  size_bytes: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** The member, the game and the rules of the build previewed: 404 for anyone who is not the game studio's. */
async function previewOf(request: FastifyRequest, slug: string, build: number) {
  const player = memberOf(request.credential);
  const { game } = await gameAccess(request.server.ctx, request.credential, slug);
  const rules = await buildSettings(request.server.ctx, game, build);
  return { game, rules, key: { playerId: player.playerId, gameId: game.id } };
}

export async function previewDataRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  registerJsonParser(app, STATE_JSON_PARSING);

  app.get(
    '/v1/studio/games/:slug/preview/states',
    {
      config,
      schema: {
        tags,
        operationId: 'listPreviewStates',
        summary: "The caller's preview saves",
        description: 'As GET /games/{slug}/states, from the preview store.',
        params: GameParams,
        querystring: BuildQuery,
        response: { 200: Ok(Type.Object({ states: Type.Array(Summary) })) },
      },
    },
    async (request) => {
      const { key } = await previewOf(request, request.params.slug, request.query.build);
      return ok({ states: await listPreviewStates(ctx, key.playerId, key.gameId) });
    },
  );

  app.get(
    '/v1/studio/games/:slug/preview/states/:slot',
    {
      config,
      schema: {
        tags,
        operationId: 'getPreviewState',
        summary: 'A preview save',
        description: 'As GET /games/{slug}/states/{slot}: 404 for an empty slot.',
        params: SlotParams,
        querystring: BuildQuery,
        response: {
          200: Ok(Type.Object({ state: Type.Intersect([Summary, Type.Object({ state: Type.Unknown() })]) })),
        },
      },
    },
    async (request) => {
      const { rules, key } = await previewOf(request, request.params.slug, request.query.build);
      checkSlot(rules, request.params.slot);
      return ok({ state: await getPreviewState(ctx, { ...key, slot: request.params.slot }) });
    },
  );

  app.put(
    '/v1/studio/games/:slug/preview/states/:slot',
    {
      config: {
        ...config,
        errors: ['not_found', 'version_conflict', 'state_too_large'],
        tooLargeCode: 'state_too_large',
      },
      bodyLimit: STATE_BODY_LIMIT,
      schema: {
        tags,
        operationId: 'putPreviewState',
        summary: 'Save in preview',
        description:
          'As PUT /games/{slug}/states/{slot}, with expected_version and the 262,144-byte limit, into the preview store.',
        params: SlotParams,
        querystring: BuildQuery,
        body: Type.Object(
          {
            state: Type.Unknown({ description: 'any JSON value' }),
            label: Type.Optional(Nullable(Type.String({ maxLength: 80 }))),
            expected_version: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
          },
          { additionalProperties: false, required: ['state'] },
        ),
        response: {
          200: Ok(
            Type.Object({
              slot: Type.Integer(),
              version: Type.Integer(),
              size_bytes: Type.Integer(),
              created: Type.Boolean(),
            }),
          ),
          201: Ok(
            Type.Object({
              slot: Type.Integer(),
              version: Type.Integer(),
              size_bytes: Type.Integer(),
              created: Type.Boolean(),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { rules, key } = await previewOf(request, request.params.slug, request.query.build);
      checkSlot(rules, request.params.slot);
      const result = await putPreviewState(ctx, { ...key, slot: request.params.slot }, request.body);
      return reply.code(result.created ? 201 : 200).send(ok(result));
    },
  );

  app.delete(
    '/v1/studio/games/:slug/preview/states/:slot',
    {
      config,
      schema: {
        tags,
        operationId: 'deletePreviewState',
        summary: 'Delete a preview save',
        params: SlotParams,
        querystring: BuildQuery,
        response: { 200: Ok(Type.Object({ deleted: Type.Boolean() })) },
      },
    },
    async (request) => {
      const { rules, key } = await previewOf(request, request.params.slug, request.query.build);
      checkSlot(rules, request.params.slot);
      return ok(await deletePreviewSlot(ctx, { ...key, slot: request.params.slot }));
    },
  );

  app.post(
    '/v1/studio/games/:slug/preview/scores',
    {
      config: { ...config, errors: ['not_found', 'leaderboard_disabled'] },
      schema: {
        tags,
        operationId: 'submitPreviewScore',
        summary: 'Submit a score in preview',
        description:
          "As POST /games/{slug}/scores, on the preview's own boards (the build's leaderboard order and unit).",
        params: GameParams,
        querystring: BuildQuery,
        body: Type.Object(
          {
            score: Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
            board: Type.Optional(Type.String({ pattern: BOARD_PATTERN, default: 'main' })),
            meta: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
            play_session: Type.Optional(Type.String({ maxLength: 256, description: 'ignored in preview' })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Ok(
            Type.Object({
              accepted: Type.Literal(true),
              score: Type.Integer(),
              board: Type.String(),
              rank: Type.Object({ rank: Type.Integer(), best: Type.Integer() }),
              personal_best: Type.Boolean(),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const { rules, key } = await previewOf(request, request.params.slug, request.query.build);
      const { score, board, meta } = request.body;
      const result = await submitPreviewScore(ctx, rules, key, { score, board: board ?? 'main', meta });
      return reply.code(201).send(ok(result));
    },
  );

  app.get(
    '/v1/studio/games/:slug/preview/leaderboard',
    {
      config: { ...config, errors: ['not_found', 'leaderboard_disabled'] },
      schema: {
        tags,
        operationId: 'getPreviewLeaderboard',
        summary: 'A preview leaderboard',
        description:
          "Each member's best preview score on the board, over all time (`period` is always all in preview).",
        params: GameParams,
        querystring: Type.Object({
          build: BuildQuery.properties.build,
          board: Type.Optional(Type.String({ pattern: BOARD_PATTERN, default: 'main' })),
          period: Type.Optional(Type.String({ maxLength: 10, description: 'read as all' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
          around: Type.Optional(Type.String({ maxLength: 10 })),
        }),
        response: {
          200: OkMeta(
            Type.Object({
              leaderboard: Type.Array(Type.Unknown()),
              me: Type.Object({ rank: Nullable(Type.Integer()), best: Nullable(Type.Integer()) }),
            }),
            Type.Record(Type.String(), Type.Unknown()),
          ),
        },
      },
    },
    async (request) => {
      const { game, rules, key } = await previewOf(request, request.params.slug, request.query.build);
      const { board = 'main', limit = 10, offset = 0 } = request.query;
      const { data, meta } = await previewLeaderboard(ctx, rules, key, { board, limit, offset });
      return ok(data, { ...meta, game: game.slug });
    },
  );

  app.delete(
    '/v1/studio/games/:slug/preview/data',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'clearPreviewData',
        summary: 'Forget every preview save and score of the game',
        description: "Every member's, so that tests start over. The live saves and scores are not touched.",
        params: GameParams,
        response: { 200: Ok(Type.Object({ cleared: Type.Literal(true) })) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      await clearPreviewData(ctx, game.id);
      return ok({ cleared: true as const });
    },
  );
}
