// TypeBox schemas of the operator console's routes (/v1/admin/players, games, keys, mail, audit).
import { Type } from '@sinclair/typebox';
import { Nullable, RowId, Timestamp } from '../../http/envelope.js';
import { MembershipSchema } from '../accounts/accounts.schemas.js';
import { ROLES } from '../accounts/membership.js';
import { GAME_STATUSES } from '../games/manifest.js';
import { PlaytimeResponse } from '../play/play.schemas.js';

const literals = (values: readonly string[]) => values.map((v) => Type.Literal(v));

export const Reason = Type.Optional(
  Nullable(Type.String({ maxLength: 500, description: 'why, kept in the audit log' })),
);

export const PlayerIdParams = Type.Object({ id: RowId('the player id') });

export const OperatorPlayerSchema = Type.Object(
  {
    id: Type.Integer({ description: 'the player id' }),
    username: Type.String({ description: 'unique, case-insensitively' }),
    display_name: Type.String({ description: 'the name shown to other players' }),
    email: Nullable(Type.String({ description: 'null for a guest' })),
    email_verified: Type.Boolean({ description: 'whether the address was confirmed' }),
    guest: Type.Boolean({ description: 'a guest player: no email, no password' }),
    role: Type.Union(literals(ROLES), { description: 'staff and admin are operators and play without limit' }),
    status: Type.String({ description: 'active, suspended or deleting' }),
    membership: MembershipSchema,
    deletion_due_at: Nullable({ ...Timestamp, description: 'when a deletion the player asked for is carried out' }),
    created_at: Timestamp,
  },
  { title: 'OperatorPlayer', description: 'a player as an operator sees them (the email included)' },
);

export const OperatorTokenSchema = Type.Object(
  {
    id: Type.Integer({ description: 'the token id' }),
    kind: Type.Union(literals(['api', 'web']), { description: 'web: a portal session; api: any other token' }),
    name: Type.String({ description: 'the name given at creation' }),
    prefix: Type.String({ description: 'the first characters of the token; the secret itself is never shown' }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    expires_at: Timestamp,
  },
  { title: 'OperatorToken', description: "one of a player's active tokens or web sessions, without its secret" },
);

export const PlayerDetailSchema = Type.Object({
  player: OperatorPlayerSchema,
  tokens: Type.Array(OperatorTokenSchema, { description: 'active tokens and web sessions, newest first' }),
  playtime: Type.Object(PlaytimeResponse.properties, { description: 'the last 30 days in reset_timezone' }),
  studios: Type.Array(
    Type.Object({
      slug: Type.String({ description: 'the studio slug' }),
      name: Type.String({ description: "the studio's name" }),
      role: Type.String({ description: 'owner or developer' }),
    }),
    { description: 'the studios the player belongs to' },
  ),
});

export const RoleBody = Type.Object(
  { role: Type.Union(literals(ROLES), { description: 'the new role' }), reason: Reason },
  { additionalProperties: false },
);

export const MembershipBody = Type.Object(
  {
    plan: Type.Union(literals(['free', 'unlimited']), { description: 'unlimited: granted by hand, no billing' }),
    until: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 10,
          description: 'Unlimited until the end of this day (YYYY-MM-DD, in reset_timezone); absent or null: no end',
        }),
      ),
    ),
    reason: Reason,
  },
  { additionalProperties: false },
);

export const ReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false });

export const OperatorGameSchema = Type.Object(
  {
    slug: Type.String({ description: 'the game slug' }),
    name: Type.String({ description: "the game's name" }),
    status: Type.Union(literals(GAME_STATUSES), { description: 'only published and beta games are listed to players' }),
    version: Type.String({ description: 'the version live now' }),
    category: Type.String({ description: "the game's category" }),
    plays: Type.Integer({ description: 'plays counted so far' }),
    studio: Nullable(Type.String({ description: 'the slug of the studio that owns it; null: the operators' })),
    featured: Type.Boolean({ description: 'the home page features it (PUT/DELETE /v1/admin/games/{slug}/featured)' }),
  },
  { title: 'OperatorGame', description: 'a game as an operator sees it, whatever its status' },
);

export const GameStatusBody = Type.Object(
  { status: Type.Union(literals(GAME_STATUSES), { description: 'the new status' }), reason: Reason },
  { additionalProperties: false },
);

export const KeySchema = Type.Object(
  {
    id: Type.Integer({ description: 'the key id' }),
    game: Type.String({ description: 'the slug of its game' }),
    name: Type.String({ description: 'the name given at creation' }),
    prefix: Type.String({ description: 'the first characters of the key; only its SHA-256 is stored' }),
    scopes: Type.Array(Type.String(), { description: 'what the key may do' }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
  },
  { title: 'OperatorKey', description: "a game backend's developer key, without its secret" },
);

export const CreateKeyBody = Type.Object(
  {
    game: Type.String({ maxLength: 64, description: 'the game slug' }),
    scopes: Type.String({
      maxLength: 400,
      description: 'scopes separated by commas or spaces, as `gameplatform keys create --scopes`',
    }),
    name: Type.Optional(Type.String({ maxLength: 80, description: 'default: "<game> key"' })),
  },
  { additionalProperties: false },
);

export const CreatedKeySchema = Type.Object({
  id: Type.Integer({ description: 'the key id' }),
  game: Type.String({ description: 'the slug of its game' }),
  name: Type.String({ description: 'the name given' }),
  scopes: Type.Array(Type.String(), { description: 'what the key may do' }),
  prefix: Type.String({ description: 'the first characters of the key' }),
  key: Type.String({ description: 'the key itself, shown this once: only its SHA-256 is stored' }),
});

export const OutboxMailSchema = Type.Object(
  {
    id: Type.Integer({ description: 'the mail id' }),
    state: Type.Union(literals(['pending', 'failed', 'kept']), {
      description: 'pending: waiting for the SMTP server; failed: refused by it for good; kept: no smtp_url set',
    }),
    to: Type.String({ description: 'the address' }),
    subject: Type.String({ description: 'the subject' }),
    text: Type.String({ description: 'the plain-text body' }),
    created_at: Timestamp,
    attempts: Type.Integer({ description: 'delivery attempts so far' }),
    next_attempt_at: Nullable(Timestamp),
    last_error: Nullable(Type.String({ description: "the SMTP server's last answer" })),
  },
  { title: 'OutboxMail', description: 'a mail in the outbox' },
);

export const PageQuery = {
  before: Type.Optional(RowId('the next page: entries with a smaller id (next_before of the previous page)')),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'entries per page' }),
};
