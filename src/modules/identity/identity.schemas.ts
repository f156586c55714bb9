// TypeBox schemas of the identity-token routes: validation, response serialisation and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../http/envelope.js';
import { PlayerPublicSchema } from '../accounts/accounts.schemas.js';

export const SlugParams = Type.Object({ slug: Type.String({ maxLength: 200, description: 'game slug' }) });

export const IdentityToken = Type.Object(
  {
    token: Type.String({
      description:
        'a JWT (JWS compact form, ES256): claims `iss` (the service origin), `sub` (the player id as text), `aud` (the game slug), `player_id`, `game`, `iat`, `exp`',
    }),
    player_id: Type.Integer({ description: 'the player the token names' }),
    game: Type.String({ description: 'the game slug the token is for (its `aud`)' }),
    expires_in: Type.Integer({ description: 'seconds until the token expires' }),
    expires_at: Timestamp,
  },
  { description: 'A short-lived identity token for a game backend to verify' },
);
export type IdentityToken = Static<typeof IdentityToken>;

export const VerifyBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'the identity token the game received from the SDK',
    }),
  },
  { additionalProperties: false },
);
export type VerifyBody = Static<typeof VerifyBody>;

export const VerifiedIdentity = Type.Object(
  {
    player_id: Type.Integer({ description: "the player the token names: an active player of the key's game" }),
    game: Type.String({ description: "the game slug: always the key's own game" }),
    issued_at: Timestamp,
    expires_at: Timestamp,
    player: PlayerPublicSchema,
  },
  { description: 'A trusted identity: who is playing the game' },
);
export type VerifiedIdentity = Static<typeof VerifiedIdentity>;

const JwkSchema = Type.Object(
  {
    kty: Type.Literal('EC', { description: 'key type' }),
    crv: Type.Literal('P-256', { description: 'curve' }),
    x: Type.String({ description: 'x coordinate (base64url)' }),
    y: Type.String({ description: 'y coordinate (base64url)' }),
    kid: Type.String({ description: "key id: the RFC 7638 thumbprint, also in each token's header" }),
    alg: Type.Literal('ES256', { description: 'signing algorithm' }),
    use: Type.Literal('sig', { description: 'signatures' }),
  },
  { description: 'a public signing key' },
);

export const Jwks = Type.Object(
  { keys: Type.Array(JwkSchema, { description: 'the keys identity tokens are signed with' }) },
  { description: 'JSON Web Key Set (RFC 7517), not wrapped in the envelope, so that JWT libraries read it as it is' },
);
export type Jwks = Static<typeof Jwks>;
