// /v1/studio/games/{slug}/keys…: the developer keys of a studio's game, made, listed and revoked by its members.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SCOPES } from '../../http/auth.js';
import { Nullable, Ok, RowId, Timestamp, ok } from '../../http/envelope.js';
import { createDeveloperKey, listDeveloperKeys, revokeDeveloperKey } from '../games/keys.service.js';
import { gameAccess } from './access.js';
import { GameParams } from './studios.schemas.js';

const tags = ['studios'];
const Scope = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
  { description: 'what the key may do' },
);

const KeySchema = Type.Object(
  {
    id: Type.Integer(),
    game: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'the first 12 characters of the key: the key itself is never shown again' }),
    scopes: Type.Array(Type.String()),
    created_at: Timestamp,
    last_used_at: Nullable({ ...Timestamp, description: 'written at most once a minute; null: never used' }),
    revoked_at: Nullable(Timestamp),
  },
  { title: 'DeveloperKey', description: 'a developer key of a game (its prefix only)' },
);

const NewKeySchema = Type.Object({
  id: Type.Integer(),
  game: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  key: Type.String({ description: 'the key (agk_…): shown once, only its SHA-256 is stored' }),
});

const CreateKeyBody = Type.Object(
  {
    scopes: Type.Array(Scope, { minItems: 1, maxItems: SCOPES.length }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'default: "<slug> key"' })),
  },
  { additionalProperties: false },
);

export async function keysRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/games/:slug/keys',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'listGameKeys',
        summary: "The game's developer keys",
        description: 'Revoked ones included, oldest first, each with its prefix and when it was last used.',
        params: GameParams,
        response: { 200: Ok(Type.Object({ keys: Type.Array(KeySchema) })) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      return ok({ keys: await listDeveloperKeys(ctx, game.slug) });
    },
  );

  app.post(
    '/v1/studio/games/:slug/keys',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'createGameKey',
        summary: 'Create a developer key',
        description:
          "A key for this game only, with the scopes asked for: the game backend's (states:read, states:write, scores:write, players:read, stats:read), " +
          'and for deploying from CI, builds:write (upload and list builds) and builds:release (release and roll back). The key is shown once.',
        params: GameParams,
        body: CreateKeyBody,
        response: { 201: Ok(NewKeySchema) },
      },
    },
    async (request, reply) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      const key = await createDeveloperKey(ctx, {
        game: game.slug,
        scopes: request.body.scopes.join(','),
        ...(request.body.name === undefined ? {} : { name: request.body.name }),
      });
      return reply.code(201).send(ok(key));
    },
  );

  app.delete(
    '/v1/studio/games/:slug/keys/:id',
    {
      config: { auth: 'player', errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'revokeGameKey',
        summary: 'Revoke a developer key',
        description: 'At once: the next request with it gets 401. A key of another game is 404.',
        params: Type.Object({ slug: Type.String({ maxLength: 64 }), id: RowId('the key id') }),
        response: { 200: Ok(Type.Object({ revoked: Type.Boolean({ description: 'false: it was revoked already' }) })) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      return ok(await revokeDeveloperKey(ctx, request.params.id, game.id));
    },
  );
}
