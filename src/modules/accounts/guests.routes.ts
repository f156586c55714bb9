// POST /v1/auth/guest: a guest player for a visitor (the portal's Play) or an app, with no credential needed.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { clientAddress } from '../../http/client-address.js';
import { Ok, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { AuthResultSchema, GuestBody } from './accounts.schemas.js';
import { createGuest } from './guests.service.js';
import { normaliseBody } from './normalise.js';
import { fromSdk, setSessionCookie, webSessionName } from './session-cookie.js';

export async function guestRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.post(
    '/v1/auth/guest',
    {
      config: { auth: 'none', errors: ['guest_limit_reached'], setsCookie: true, optionalBody: true },
      preValidation: [
        async (request) => {
          request.body ??= {}; // no body at all: nothing to name
        },
        normaliseBody({ device_name: 'text' }),
      ],
      schema: {
        tags: ['auth'],
        operationId: 'createGuest',
        summary: 'Start playing as a guest',
        description:
          'Creates a guest player and a token, with no credential and no body needed (the body, when sent, may name ' +
          'the token in `device_name`); answers like register. A guest is a free player in every rule: ' +
          'free_seconds_per_day across all games, the reset at midnight in reset_timezone, premium games refused ' +
          'with 402 premium_required, heartbeats, saves with versions, scores. It has no email and no password: its ' +
          'own view has `guest: true` and `email: null`; leaderboards show a generated name ("Guest 7F3K"); it has no public profile ' +
          '(GET /players/{username} is 404), no API tokens, and the email, password, profile and deletion routes answer ' +
          '403 account_required. POST /auth/register with its credential turns it into an account (same id, everything ' +
          'kept); POST /auth/login with it merges it into an existing account. A guest whose tokens are not used for ' +
          'guests.idle_days is purged with everything attached. Each address may make guests.per_ip_per_day guests a day ' +
          "(behind trust_proxy, the client's address): past it, 429 guest_limit_reached with Retry-After (the seconds " +
          'to the reset): log in or register to play. Called with `X-Requested-With: ServiceSDK`, the response also ' +
          'sets the portal session cookie, as login and register do.',
        body: GuestBody,
        response: { 201: Ok(AuthResultSchema) },
      },
    },
    async (request, reply) => {
      const sdk = fromSdk(request);
      const name = request.body.device_name || (sdk ? webSessionName(request) : 'guest');
      const result = await createGuest(ctx, clientAddress(request), name, sdk ? 'web' : 'api').catch((error) => {
        if (error instanceof AppError && error.code === 'guest_limit_reached')
          reply.header('Retry-After', String(error.extra.retry_after));
        throw error;
      });
      if (sdk) setSessionCookie(reply, ctx, result.token, result.expiresAt);
      return reply.code(201).send(
        ok({
          player: result.player,
          token: result.token,
          token_expires_at: result.token_expires_at,
          entitlement: result.entitlement,
        }),
      );
    },
  );
}
