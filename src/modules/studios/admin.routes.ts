// /v1/admin/…: what the operators (staff and admin accounts) do for studios: create and approve them, hand them games,
// review the status changes studios ask for.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Nullable, Ok, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { decideReview, pendingReviews } from '../games/listing.service.js';
import { setGameStudio } from '../games/studio-games.service.js';
import { operatorActor } from '../accounts/admin.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { isOperator, memberOf } from './access.js';
import { findStudioById } from './studios.repository.js';
import { GameParams, StudioGameSchema, StudioParams, StudioSchema } from './studios.schemas.js';
import {
  approveStudio,
  createStudio,
  gameViewOf,
  listStudios,
  rejectStudio,
  studioNamed,
  summaryOf,
} from './studios.service.js';

const tags = ['admin'];
const config = { auth: 'player' as const };

function operatorOnly(request: FastifyRequest): void {
  if (!isOperator(request.credential))
    throw new AppError('forbidden', "This is for the platform's operators (staff and admin accounts)");
}

const CreateStudioBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    slug: Type.Optional(Type.String({ maxLength: 64, description: 'default: made from the name' })),
    owner: Type.Optional(Type.String({ maxLength: 254, description: 'the username or email of its first owner' })),
  },
  { additionalProperties: false },
);

export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  // Before the body is validated: a player who is not an operator learns nothing from a 422.
  app.addHook('preValidation', async (request) => operatorOnly(request));

  app.get(
    '/v1/admin/studios',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminListStudios',
        summary: 'Every studio',
        description: 'By slug; `status=pending` lists the studios waiting for approval.',
        querystring: Type.Object({
          status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('pending')])),
        }),
        response: { 200: Ok(Type.Object({ studios: Type.Array(StudioSchema) })) },
      },
    },
    async (request) => ok({ studios: (await listStudios(ctx, request.query.status)).map(summaryOf) }),
  );

  app.post(
    '/v1/admin/studios',
    {
      config: { ...config, errors: ['forbidden', 'not_found', 'slug_taken'] },
      schema: {
        tags,
        operationId: 'adminCreateStudio',
        summary: 'Create a studio',
        description:
          'Active at once, with its first owner when `owner` names a player (404 when none has that username or email). Recorded in the audit log (`studio.create`).',
        body: CreateStudioBody,
        response: { 201: Ok(StudioSchema) },
      },
    },
    async (request, reply) => {
      const actor = await operatorActor(ctx, memberOf(request.credential).playerId);
      return reply.code(201).send(ok(summaryOf(await createStudio(ctx, request.body, actor))));
    },
  );

  app.post(
    '/v1/admin/studios/:studio/approve',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminApproveStudio',
        summary: 'Approve a studio that signed up',
        description:
          'It becomes active: its members can make games; recorded in the audit log (`studio.approve`). Approving an active studio changes nothing.',
        params: StudioParams,
        response: { 200: Ok(StudioSchema) },
      },
    },
    async (request) => {
      const actor = await operatorActor(ctx, memberOf(request.credential).playerId);
      return ok(summaryOf(await approveStudio(ctx, request.params.studio, actor)));
    },
  );

  app.delete(
    '/v1/admin/studios/:studio',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminRejectStudio',
        summary: 'Turn down a studio that signed up',
        description: 'Deletes a studio waiting for approval (422 for an active one, or one with games).',
        params: StudioParams,
        response: { 200: Ok(Type.Object({ deleted: Type.Literal(true) })) },
      },
    },
    async (request) => {
      await rejectStudio(ctx, request.params.studio);
      return ok({ deleted: true as const });
    },
  );

  app.put(
    '/v1/admin/games/:slug/studio',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminSetGameStudio',
        summary: 'Hand a game to a studio',
        description:
          'The studio (by slug) owns the game from now on; null gives it back to the operators. Previews by the former studio end.',
        params: GameParams,
        body: Type.Object({ studio: Nullable(Type.String({ maxLength: 64 })) }, { additionalProperties: false }),
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      const studio = request.body.studio === null ? null : await studioNamed(ctx, request.body.studio);
      const actor = await operatorActor(ctx, memberOf(request.credential).playerId);
      const game = await setGameStudio(ctx, request.params.slug, studio?.id ?? null, async (trx, formerId) => {
        const former = formerId === null ? null : ((await findStudioById(trx, formerId))?.slug ?? null);
        await recordAudit(ctx, trx, {
          actor,
          studioId: null,
          action: 'game.set_studio',
          targetType: 'game',
          targetId: request.params.slug,
          before: { studio: former },
          after: { studio: studio?.slug ?? null },
        });
      });
      return ok(await gameViewOf(ctx, game));
    },
  );

  app.get(
    '/v1/admin/reviews',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminListReviews',
        summary: 'Status changes waiting for review',
        description:
          'Games whose studio asked for beta or published while studios.review is on, the oldest request first.',
        response: { 200: Ok(Type.Object({ games: Type.Array(StudioGameSchema) })) },
      },
    },
    async () => ok({ games: await Promise.all((await pendingReviews(ctx)).map((row) => gameViewOf(ctx, row))) }),
  );

  app.post(
    '/v1/admin/reviews/:slug',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminDecideReview',
        summary: 'Approve or reject a status change',
        description:
          'approve: the game takes the status asked for. reject: it keeps its status, and the studio sees the note.',
        params: GameParams,
        body: Type.Object(
          {
            decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
            note: Type.Optional(Type.String({ maxLength: 1000, description: 'why, for the studio' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      const { decision, note } = request.body;
      return ok(
        await gameViewOf(ctx, await decideReview(ctx, request.params.slug, decision === 'approve', note ?? null)),
      );
    },
  );
}
