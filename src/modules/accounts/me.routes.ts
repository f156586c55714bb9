// GET and PATCH /v1/me: the own account.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { MeSchema, PatchMeBody, PlayerOwnSchema } from './accounts.schemas.js';
import { getMe, updateMe } from './accounts.service.js';
import { normaliseBody } from './normalise.js';

export async function meRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/me',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'getMe',
        summary: 'The own account',
        description:
          "The player (own view, with email), today's entitlement and the membership. A developer key gets 403 `forbidden`.",
        response: { 200: Ok(MeSchema) },
      },
    },
    async (request) => ok(await getMe(ctx, playerOf(request).playerId)),
  );

  app.patch(
    '/v1/me',
    {
      config: { auth: 'player', errors: ['username_taken', 'account_required'] },
      preValidation: normaliseBody({ display_name: 'text', username: 'trim', bio: 'multiline', country: 'trim' }),
      schema: {
        tags: ['account'],
        operationId: 'updateMe',
        summary: 'Change the own profile',
        description:
          'Every field is optional; only those sent change. Surrounding white space is trimmed from every field (display ' +
          'name and bio are also NFC-normalised; the bio keeps inner line breaks) and lengths count Unicode code points ' +
          'after that. `bio` "" or null clears it; `country` "" or null clears it, any letter case is accepted and it is ' +
          'stored upper-case; it must be an assigned ISO 3166-1 alpha-2 code. A username held by another player in any ' +
          "letter case is 409 `username_taken`; changing the case of one's own username is allowed. " +
          'Answers with the updated player (own view) as `data`.',
        body: PatchMeBody,
        response: { 200: Ok(PlayerOwnSchema) },
      },
    },
    async (request) => ok(await updateMe(ctx, playerOf(request).playerId, request.body)),
  );
}
