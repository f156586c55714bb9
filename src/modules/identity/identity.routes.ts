// Identity tokens: POST /v1/games/{slug}/identity-token (the player, through the SDK), GET /v1/.well-known/jwks.json (the
// public keys, for offline checks) and POST /v1/dev/identity-token/verify (a game backend, with its developer key).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { keyOf, playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { keyOnly } from '../dev/dev-docs.js';
import { IdentityToken, Jwks, SlugParams, VerifiedIdentity, VerifyBody } from './identity.schemas.js';
import { IDENTITY_TOKEN_SECONDS, issueIdentityToken, jwks, verifyIdentityToken } from './identity.service.js';

export const JWKS_PATH = '/v1/.well-known/jwks.json';

const OFFLINE = `A backend verifies a token offline with any JWT library against the keys at ${JWKS_PATH}
(algorithm ES256; issuer: the service's public origin; audience: the game's slug; then \`sub\` is the player id), or
online with POST /v1/dev/identity-token/verify and its developer key, which also refuses a player who is no longer active.`;

export async function identityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/games/:slug/identity-token',
    {
      schema: {
        tags: ['identity'],
        summary: 'An identity token for a game backend',
        description: `A signed token naming the calling player and this game, good for ${IDENTITY_TOKEN_SECONDS / 60} minutes. The SDK's
\`GamePlatform.identityToken()\` asks for it through the play shell; the game sends it to its own backend, which can then
trust which player is calling. 404 not_found for an unknown game or one that is not listed (draft, retired).

${OFFLINE}`,
        params: SlugParams,
        response: { 200: Ok(IdentityToken) },
      },
      config: { auth: 'player', errors: ['not_found'] },
    },
    async (request) => ok(await issueIdentityToken(app.ctx, request.params.slug, playerOf(request).playerId)),
  );

  app.get(
    JWKS_PATH,
    {
      schema: {
        tags: ['identity'],
        summary: 'The public keys of identity tokens (JWKS)',
        description: `A JSON Web Key Set, as JWT libraries read it (not wrapped in the envelope). The key is derived from the
service's \`secret\` setting: every instance publishes the same key, and it changes only when \`secret\` does. Cache it
for up to the \`Cache-Control\` max-age, and fetch it again when a token names a \`kid\` you do not know.

${OFFLINE}`,
        response: { 200: Jwks },
      },
      config: { auth: 'none' },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return jwks(app.ctx);
    },
  );

  app.post(
    '/v1/dev/identity-token/verify',
    {
      schema: {
        tags: ['game backends'],
        summary: 'Verify an identity token',
        description: `Checks a token a game received from \`GamePlatform.identityToken()\`: the signature, the expiry (at the service's
clock), that it is for the key's own game, and that the player is still an active player of the game. Answers the
player's id and public profile; anything else is 422 \`invalid_identity_token\` with \`error.reason\`: \`malformed\`,
\`bad_signature\`, \`expired\`, \`other_game\` or \`player_unavailable\` (suspended, deleted, or never played the game).

${keyOnly('players:read')}`,
        body: VerifyBody,
        response: { 200: Ok(VerifiedIdentity) },
      },
      config: { auth: 'key', scope: 'players:read', errors: ['invalid_identity_token'] },
    },
    async (request) => ok(await verifyIdentityToken(app.ctx, keyOf(request), request.body.token)),
  );
}
