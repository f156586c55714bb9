// GET, POST and DELETE /v1/me/tokens: the player's API tokens; GET and DELETE /v1/me/sessions: the signed-in browsers.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, RowId, ok } from '../../http/envelope.js';
import { clearSessionCookie } from './session-cookie.js';
import { CreateTokenBody, NewTokenSchema, SessionRecordSchema, TokenRecordSchema } from './accounts.schemas.js';
import { normaliseBody } from './normalise.js';
import {
  createToken,
  deleteOtherSessions,
  deleteSession,
  deleteToken,
  listSessions,
  listTokens,
  MAX_ACTIVE_TOKENS,
} from './tokens.service.js';

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
        description:
          `Every active (unrevoked, unexpired) token, newest first, with its prefix only, ${MAX_ACTIVE_TOKENS} at most. \`kind\` tells an API token (POST /me/tokens, and logins and registrations made without \`X-Requested-With: ServiceSDK\`) from a web session (a signed-in browser; GET /v1/me/sessions lists those alone). ` +
          "`current` marks the token of this call. `last_used_at` is null until the token's first call, then updated at most once a minute.",
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
      config: { auth: 'player', errors: ['token_limit_reached', 'account_required'] },
      preValidation: normaliseBody({ name: 'text' }),
      schema: {
        tags: ['account'],
        operationId: 'createToken',
        summary: 'Create a token for an app or script',
        description: `An API token. The token value is shown once. With ${MAX_ACTIVE_TOKENS} active tokens (API tokens and web sessions together) the answer is 409 \`token_limit_reached\`: revoke one first. Lifetime: api.token_ttl_days.`,
        body: CreateTokenBody,
        response: { 201: Ok(NewTokenSchema) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok(await createToken(ctx, playerOf(request).playerId, request.body.name))),
  );

  app.delete(
    '/v1/me/tokens/:id',
    {
      config: { auth: 'player', errors: ['not_found'], setsCookie: true },
      schema: {
        tags: ['account'],
        operationId: 'deleteToken',
        summary: 'Revoke one of the own tokens',
        description:
          "Revokes at once, of either kind (revoking a web session signs that browser out). Another player's token, or one already revoked or expired, is 404. Revoking the token of a portal call also clears its cookie.",
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

  app.get(
    '/v1/me/sessions',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'listSessions',
        summary: "The player's signed-in browsers",
        description:
          'Active web sessions, newest first: the portal sessions made by logging in or registering with `X-Requested-With: ServiceSDK` (the session cookie). ' +
          `GET /v1/me/tokens lists them too, with the API tokens: ${MAX_ACTIVE_TOKENS} active in all. With ${MAX_ACTIVE_TOKENS}, a browser signing in signs out the least recently used browser (an API token only when no other browser is signed in), and the login answer names it in \`revoked_token\`. ` +
          "`current` marks the browser making this call. No prefix: the session's token lives in an HttpOnly cookie.",
        response: { 200: Ok(Type.Object({ sessions: Type.Array(SessionRecordSchema) })) },
      },
    },
    async (request) => {
      const credential = playerOf(request);
      return ok({ sessions: await listSessions(ctx, credential.playerId, credential.tokenId) });
    },
  );

  app.delete(
    '/v1/me/sessions/:id',
    {
      config: { auth: 'player', errors: ['not_found'], setsCookie: true },
      schema: {
        tags: ['account'],
        operationId: 'deleteSession',
        summary: 'Sign one browser out',
        description:
          "Revokes the web session at once. An API token (see DELETE /v1/me/tokens/{id}), another player's session, or one already revoked or expired, is 404. Signing out the browser making the call also clears its cookie.",
        params: Type.Object({ id: RowId('session id (1 to 2147483647, else 422)') }),
        response: { 200: Ok(Type.Object({ id: Type.Integer(), revoked: Type.Literal(true) })) },
      },
    },
    async (request, reply) => {
      const credential = playerOf(request);
      const result = await deleteSession(ctx, credential.playerId, request.params.id);
      if (credential.via === 'cookie' && credential.tokenId === request.params.id) clearSessionCookie(reply, ctx);
      return ok(result);
    },
  );

  app.delete(
    '/v1/me/sessions',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'deleteOtherSessions',
        summary: 'Sign every other browser out',
        description:
          'Revokes every active web session of the player except the one making the call (when it is one). API tokens are not touched. `revoked` counts the sessions signed out.',
        response: {
          200: Ok(Type.Object({ revoked: Type.Integer({ description: 'how many browsers were signed out' }) })),
        },
      },
    },
    async (request) => {
      const credential = playerOf(request);
      return ok(await deleteOtherSessions(ctx, credential.playerId, credential.tokenId));
    },
  );
}
