// /v1/studio/studios…: the caller's studios, a studio's members (owners add and remove them), a new game of a studio.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { createStudioGame } from '../games/studio-games.service.js';
import { memberOf, studioAccess } from './access.js';
import {
  AddMemberBody,
  MemberParams,
  MemberSchema,
  MyStudioSchema,
  NewGameBody,
  RoleBody,
  SignUpBody,
  StudioDetailSchema,
  StudioGameSchema,
  StudioParams,
  StudioSchema,
} from './studios.schemas.js';
import {
  addMember,
  changeMember,
  findStudio,
  gameViewOf,
  signUpStudio,
  studioDetail,
  studiosOfPlayer,
  summaryOf,
} from './studios.service.js';

const tags = ['studios'];

export async function studioRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/studios',
    {
      config: { auth: 'player' },
      schema: {
        tags,
        operationId: 'listMyStudios',
        summary: 'The studios the caller belongs to',
        description: "Each with the caller's role in it. A player in no studio gets an empty list.",
        response: { 200: Ok(Type.Object({ studios: Type.Array(MyStudioSchema) })) },
      },
    },
    async (request) => ok({ studios: await studiosOfPlayer(ctx, memberOf(request.credential).playerId) }),
  );

  app.post(
    '/v1/studio/studios',
    {
      config: { auth: 'player', errors: ['slug_taken'] },
      schema: {
        tags,
        operationId: 'signUpStudio',
        summary: 'Sign a studio up',
        description:
          "Only where the setting studios.self_signup is on (else 403 forbidden). The caller becomes its owner; it waits (status pending) for an operator's approval before it can make games (403 studio_pending until then). The slug defaults to one made from the name.",
        body: SignUpBody,
        response: { 201: Ok(StudioSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok(summaryOf(await signUpStudio(ctx, memberOf(request.credential).playerId, request.body)))),
  );

  app.get(
    '/v1/studio/studios/:studio',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'getStudio',
        summary: 'A studio, its members and its games',
        description: 'For its members and the operators; anyone else gets 404, as for a studio that does not exist.',
        params: StudioParams,
        response: { 200: Ok(StudioDetailSchema) },
      },
    },
    async (request) => {
      const { studio, access } = await studioAccess(
        ctx,
        request.credential,
        await findStudio(ctx, request.params.studio),
      );
      return ok(await studioDetail(ctx, studio, access));
    },
  );

  app.post(
    '/v1/studio/studios/:studio/members',
    {
      config: { auth: 'player', errors: ['not_found', 'already_member', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'addStudioMember',
        summary: 'Add a member',
        description:
          'Owners (and operators) only, else 403. `login` is the username or the email of an active player (404 when there is none); role `developer` by default.',
        params: StudioParams,
        body: AddMemberBody,
        response: { 201: Ok(Type.Object({ members: Type.Array(MemberSchema) })) },
      },
    },
    async (request, reply) => {
      const { studio } = await studioAccess(ctx, request.credential, await findStudio(ctx, request.params.studio), {
        owner: true,
      });
      const members = await addMember(ctx, studio, request.body.login, request.body.role ?? 'developer');
      return reply.code(201).send(ok({ members }));
    },
  );

  app.patch(
    '/v1/studio/studios/:studio/members/:player_id',
    {
      config: { auth: 'player', errors: ['not_found', 'last_owner', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'changeStudioMember',
        summary: "Change a member's role",
        description: 'Owners only. The last owner cannot step down (409 last_owner): make another member owner first.',
        params: MemberParams,
        body: RoleBody,
        response: { 200: Ok(Type.Object({ members: Type.Array(MemberSchema) })) },
      },
    },
    async (request) => {
      const { studio } = await studioAccess(ctx, request.credential, await findStudio(ctx, request.params.studio), {
        owner: true,
      });
      return ok({ members: await changeMember(ctx, studio, request.params.player_id, request.body.role) });
    },
  );

  app.delete(
    '/v1/studio/studios/:studio/members/:player_id',
    {
      config: { auth: 'player', errors: ['not_found', 'last_owner'] },
      schema: {
        tags,
        operationId: 'removeStudioMember',
        summary: 'Remove a member (or leave)',
        description:
          'Owners remove any member; any member removes themself (leaves). The last owner cannot go (409 last_owner). ' +
          "The member's previews of the studio's games end.",
        params: MemberParams,
        response: { 200: Ok(Type.Object({ members: Type.Array(MemberSchema) })) },
      },
    },
    async (request) => {
      const self = memberOf(request.credential).playerId === request.params.player_id;
      const { studio } = await studioAccess(ctx, request.credential, await findStudio(ctx, request.params.studio), {
        owner: !self,
      });
      return ok({ members: await changeMember(ctx, studio, request.params.player_id, null) });
    },
  );

  app.post(
    '/v1/studio/studios/:studio/games',
    {
      config: { auth: 'player', errors: ['not_found', 'slug_taken', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'createStudioGame',
        summary: 'Create a game of the studio',
        description:
          'A new game in draft, with no files: deploy a build (its game.json names this slug) and release it. Its first released ' +
          'build fills the listing fields this call does not set (tagline, description, tags, author, orientation, premium); after that the listing is edited with PATCH /studio/games/{slug} only.',
        params: StudioParams,
        body: NewGameBody,
        response: { 201: Ok(StudioGameSchema) },
      },
    },
    async (request, reply) => {
      const { studio } = await studioAccess(ctx, request.credential, await findStudio(ctx, request.params.studio), {
        write: true,
      });
      const row = await createStudioGame(ctx, studio.id, { ...request.body, author: studio.name });
      return reply.code(201).send(ok(await gameViewOf(ctx, row)));
    },
  );
}
