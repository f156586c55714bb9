// GET, POST and DELETE /v1/me/tokens: the player's tokens.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, RowId, ok } from '../../http/envelope.js';
import { clearSessionCookie } from './session-cookie.js';
import { CreateTokenBody, NewTokenSchema, TokenRecordSchema } from './accounts.schemas.js';
import { normaliseBody } from './normalise.js';
import { createToken, deleteToken, listTokens, MAX_ACTIVE_TOKENS } from './tokens.service.js';

export async function tokenRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/me/tokens',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'listTokens',
        summary: "The player's active tokens",
        description: 'Active (unrevoked, unexpired) tokens, newest first, with their prefix only. `current` marks the token of this call. `last_used_at` is null until the token\'s first call, then updated at most once a minute.',
        response: { 200: Ok(Type.Object({ tokens: Type.Array(TokenRecordSchema) })) },
      },
    },
    async (request) => {
      const credential = playerOf(request);
      return ok({ tokens: await listTokens(ctx, credential.playerId, credential.tokenId) });
    },
  );

  app.post(
    '/v1/me/tokens',
    {
      config: { auth: 'player', errors: ['token_limit_reached'] },
      preValidation: normaliseBody({ name: 'text' }),
      schema: {
        tags: ['account'],
        operationId: 'createToken',
        summary: 'Create a token for an app or script',
        description: `The token value is shown once. With ${MAX_ACTIVE_TOKENS} active tokens the answer is 409 \`token_limit_reached\` (delete one first). Lifetime: api.token_ttl_days.`,
        body: CreateTokenBody,
        response: { 201: Ok(NewTokenSchema) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await createToken(ctx, playerOf(request).playerId, request.body.name))),
  );

  app.delete(
    '/v1/me/tokens/:id',
    {
      config: { auth: 'player', errors: ['not_found'], setsCookie: true },
      schema: {
        tags: ['account'],
        operationId: 'deleteToken',
        summary: 'Revoke one of the own tokens',
        description: "Revokes at once. Another player's token, or one already revoked or expired, is 404. Revoking the portal session's own token also clears its cookie.",
        params: Type.Object({ id: RowId('token id (1 to 2147483647, else 422)') }),
        response: { 200: Ok(Type.Object({ id: Type.Integer(), revoked: Type.Literal(true) })) },
      },
    },
    async (request, reply) => {
      const credential = playerOf(request);
      const result = await deleteToken(ctx, credential.playerId, request.params.id);
      if (credential.via === 'cookie' && credential.tokenId === request.params.id) clearSessionCookie(reply, ctx);
      return ok(result);
    },
  );
}
