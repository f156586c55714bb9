// /v1/admin/…: the operator console's API (staff and admin accounts): players, games, developer keys, the mail outbox
// and the audit log. Every change is recorded in the audit log (docs/api.md, "The operator console").
import { AuditEntrySchema } from '../audit/audit.schemas.js';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { Nullable, Ok, ok, RowId } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import {
  findPlayers,
  operatorActor,
  operatorPlayerView,
  operatorSetMembership,
  operatorSetRole,
  operatorSuspend,
  operatorUnsuspend,
} from '../accounts/admin.service.js';
import type { Actor } from '../audit/audit.service.js';
import {
  operatorCreateKey,
  operatorRevokeKey,
  operatorSetFeatured,
  operatorSetGameStatus,
} from '../games/admin.service.js';
import { listDeveloperKeys } from '../games/keys.service.js';
import { isOperator } from '../studios/access.js';
import {
  CreatedKeySchema,
  CreateKeyBody,
  GameStatusBody,
  KeySchema,
  MembershipBody,
  OperatorGameSchema,
  OperatorPlayerSchema,
  OutboxMailSchema,
  PageQuery,
  PlayerDetailSchema,
  PlayerIdParams,
  ReasonBody,
  RoleBody,
} from './admin.schemas.js';
import { operatorAudit, operatorGames, outboxPage, playerDetail, retryMail } from './admin.service.js';

const tags = ['admin'];
const config = { auth: 'player' as const };

function operatorOnly(request: FastifyRequest): void {
  if (!isOperator(request.credential))
    throw new AppError('forbidden', "This is for the platform's operators (staff and admin accounts)");
}

function actorOf(ctx: AppContext, request: FastifyRequest): Promise<Actor> {
  const credential = request.credential;
  if (credential?.kind !== 'player') throw new AppError('forbidden', 'Operators only');
  return operatorActor(ctx, credential.playerId);
}

export async function operatorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  // Before the body is validated: a player who is not an operator learns nothing from a 422.
  app.addHook('preValidation', async (request) => operatorOnly(request));
  const now = () => ctx.clock.now();

  app.get(
    '/v1/admin/players',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminFindPlayers',
        summary: 'Find players',
        description:
          'The player with this id, and players whose username or email starts with `q` (case-insensitively), accounts before guests.',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 254, description: 'an id, a username, an email, or their start' }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'at most this many' }),
        }),
        response: {
          200: Ok(
            Type.Object({ players: Type.Array(OperatorPlayerSchema, { description: 'at most `limit` players' }) }),
          ),
        },
      },
    },
    async (request) => ok({ players: await findPlayers(ctx, request.query.q, request.query.limit) }),
  );

  app.get(
    '/v1/admin/players/:id',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminGetPlayer',
        summary: "A player's detail",
        description:
          'The account, its active tokens and web sessions (never their secrets), its playtime over the last 30 days and its studios.',
        params: PlayerIdParams,
        response: { 200: Ok(PlayerDetailSchema) },
      },
    },
    async (request) => ok(await playerDetail(ctx, request.params.id)),
  );

  const playerAction = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    act: (actor: Actor, id: number, body: never) => Promise<Parameters<typeof operatorPlayerView>[0]>,
    body: typeof ReasonBody | typeof RoleBody | typeof MembershipBody,
    method: 'post' | 'put',
  ) =>
    app.route({
      method: method.toUpperCase() as 'POST' | 'PUT',
      url: `/v1/admin/players/:id/${path}`,
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId,
        summary,
        description,
        params: PlayerIdParams,
        body,
        response: { 200: Ok(OperatorPlayerSchema) },
      },
      handler: async (request) => {
        const { id } = request.params as { id: number };
        const player = await act(await actorOf(ctx, request), id, request.body as never);
        return ok(operatorPlayerView(player, now()));
      },
    });

  playerAction(
    'suspend',
    'adminSuspendPlayer',
    'Suspend a player',
    'Every token and web session is revoked in the same transaction: the next request with one is 401, login is refused, the profile answers 404. 422 when suspended already.',
    (actor, id, body: { reason?: string | null }) => operatorSuspend(ctx, actor, id, body.reason ?? null),
    ReasonBody,
    'post',
  );
  playerAction(
    'unsuspend',
    'adminUnsuspendPlayer',
    'Lift a suspension',
    'The player logs in again (the old tokens stay revoked); a deletion asked for before is pending again. 422 when not suspended.',
    (actor, id, body: { reason?: string | null }) => operatorUnsuspend(ctx, actor, id, body.reason ?? null),
    ReasonBody,
    'post',
  );
  playerAction(
    'role',
    'adminSetPlayerRole',
    "Set a player's role",
    'player, staff or admin; staff and admin are operators and play without limit.',
    (actor, id, body: { role: 'player' | 'staff' | 'admin'; reason?: string | null }) =>
      operatorSetRole(ctx, actor, id, body.role, body.reason ?? null),
    RoleBody,
    'put',
  );
  playerAction(
    'membership',
    'adminSetPlayerMembership',
    "Change a player's membership",
    'unlimited: granted by hand, with no end or until the end of `until` (in reset_timezone); free: back to the free plan at once. 422 for a guest.',
    (actor, id, body: { plan: 'free' | 'unlimited'; until?: string | null; reason?: string | null }) =>
      operatorSetMembership(ctx, actor, id, body, body.reason ?? null),
    MembershipBody,
    'put',
  );

  app.get(
    '/v1/admin/games',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminListGames',
        summary: 'Every game',
        description: 'Whatever its status, by slug, with the studio that owns it.',
        response: {
          200: Ok(Type.Object({ games: Type.Array(OperatorGameSchema, { description: 'every game, by slug' }) })),
        },
      },
    },
    async () => ok({ games: await operatorGames(ctx) }),
  );

  app.put(
    '/v1/admin/games/:slug/status',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminSetGameStatus',
        summary: "Set a game's status",
        description:
          'Any status to any other, as `gameplatform games set-status`; only published and beta games are listed.',
        params: Type.Object({ slug: Type.String({ maxLength: 64, description: 'the game slug' }) }),
        body: GameStatusBody,
        response: {
          200: Ok(
            Type.Object({
              slug: Type.String({ description: 'the game slug' }),
              from: Type.String({ description: 'the status before' }),
              to: Type.String({ description: 'the status now' }),
            }),
          ),
        },
      },
    },
    async (request) =>
      ok(
        await operatorSetGameStatus(
          ctx,
          await actorOf(ctx, request),
          request.params.slug,
          request.body.status,
          request.body.reason ?? null,
        ),
      ),
  );

  const FeaturedResult = Ok(
    Type.Object({
      slug: Type.String({ description: 'the game slug' }),
      featured: Type.Boolean({ description: 'whether the home page features it now' }),
      featured_at: Nullable(Type.String({ description: 'when it was featured (ISO 8601); null when it is not' })),
    }),
  );
  for (const featured of [true, false]) {
    const route = {
      config: { ...config, errors: ['forbidden' as const, 'not_found' as const] },
      schema: {
        tags,
        operationId: featured ? 'adminFeatureGame' : 'adminUnfeatureGame',
        summary: featured ? 'Feature a game on the home page' : 'Stop featuring a game',
        description: featured
          ? 'The home page shows the featured games first, in a "Featured" row, the most recently featured first (GET /v1/games?featured=true); only a published or beta game shows. Recorded in the audit log (`game.feature`); featuring a featured game changes nothing.'
          : 'The game leaves the "Featured" row. Recorded in the audit log (`game.unfeature`); a game not featured is left as it is.',
        params: Type.Object({ slug: Type.String({ maxLength: 64, description: 'the game slug' }) }),
        response: { 200: FeaturedResult },
      },
    };
    const handler = async (request: FastifyRequest) => {
      const { slug } = request.params as { slug: string };
      return ok(await operatorSetFeatured(ctx, await actorOf(ctx, request), slug, featured, null));
    };
    if (featured) app.put('/v1/admin/games/:slug/featured', route, handler);
    else app.delete('/v1/admin/games/:slug/featured', route, handler);
  }

  app.get(
    '/v1/admin/keys',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminListKeys',
        summary: 'Developer keys',
        description: "Every game's keys (their prefix only), revoked ones included; one game's with `game`.",
        querystring: Type.Object({
          game: Type.Optional(Type.String({ maxLength: 64, description: 'only this game slug' })),
        }),
        response: {
          200: Ok(Type.Object({ keys: Type.Array(KeySchema, { description: 'the keys, revoked ones included' }) })),
        },
      },
    },
    async (request) => ok({ keys: await listDeveloperKeys(ctx, request.query.game) }),
  );

  app.post(
    '/v1/admin/keys',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminCreateKey',
        summary: 'Create a developer key',
        description: 'The key is in this answer only: only its SHA-256 is stored.',
        body: CreateKeyBody,
        response: { 201: Ok(CreatedKeySchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok(await operatorCreateKey(ctx, await actorOf(ctx, request), request.body))),
  );

  app.delete(
    '/v1/admin/keys/:id',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminRevokeKey',
        summary: 'Revoke a developer key',
        description: 'Requests with it get 401 from now on; revoking a revoked key changes nothing (`revoked: false`).',
        params: Type.Object({ id: RowId('the key id') }),
        response: { 200: Ok(Type.Object({ revoked: Type.Boolean({ description: 'whether it was active' }) })) },
      },
    },
    async (request) => ok(await operatorRevokeKey(ctx, await actorOf(ctx, request), request.params.id)),
  );

  app.get(
    '/v1/admin/mail',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminListMail',
        summary: 'The mail outbox',
        description:
          'Newest first: pending (waiting for the SMTP server), failed (refused for good) or kept (no smtp_url).',
        querystring: Type.Object({
          state: Type.Optional(
            Type.Union([Type.Literal('pending'), Type.Literal('failed'), Type.Literal('kept')], {
              description: 'only mail in this state',
            }),
          ),
          ...PageQuery,
        }),
        response: {
          200: Ok(
            Type.Object({
              mail: Type.Array(OutboxMailSchema, { description: 'newest first' }),
              next_before: Nullable(Type.Integer({ description: 'pass as `before` for the next page' })),
            }),
          ),
        },
      },
    },
    async (request) => ok(await outboxPage(ctx, request.query)),
  );

  app.post(
    '/v1/admin/mail/:id/retry',
    {
      config: { ...config, errors: ['forbidden', 'not_found'] },
      schema: {
        tags,
        operationId: 'adminRetryMail',
        summary: 'Send a failed mail again',
        description:
          'A mail the SMTP server refused is tried again at once, then by the retry timer. 422 for a mail that is not failed, or without smtp_url.',
        params: Type.Object({ id: RowId('the mail id') }),
        response: { 200: Ok(OutboxMailSchema) },
      },
    },
    async (request) => ok(await retryMail(ctx, await actorOf(ctx, request), request.params.id)),
  );

  app.get(
    '/v1/admin/audit',
    {
      config: { ...config, errors: ['forbidden'] },
      schema: {
        tags,
        operationId: 'adminSearchAudit',
        summary: 'Search the audit log',
        description:
          "Every console action of operators and studio members, newest first. `q` finds words in the actor's name, the action, the target or the reason.",
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 200, description: 'words to find' })),
          actor: Type.Optional(Type.String({ maxLength: 64, description: "the actor's player id or username" })),
          action: Type.Optional(Type.String({ maxLength: 64, description: 'e.g. player.suspend' })),
          target_type: Type.Optional(Type.String({ maxLength: 32, description: 'player, game, key, mail, studio…' })),
          target_id: Type.Optional(Type.String({ maxLength: 128, description: "the target's id or slug" })),
          ...PageQuery,
        }),
        response: {
          200: Ok(
            Type.Object({
              entries: Type.Array(AuditEntrySchema, { description: 'newest first' }),
              next_before: Nullable(Type.Integer({ description: 'pass as `before` for the next page' })),
            }),
          ),
        },
      },
    },
    async (request) => ok(await operatorAudit(ctx, request.query)),
  );
}
