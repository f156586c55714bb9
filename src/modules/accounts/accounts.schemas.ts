// TypeBox schemas of the accounts routes: the Player views, Membership, token records and the request bodies with their limits.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { EntitlementSchema } from '../play/entitlement.js';
import { MEMBERSHIP_STATUSES, PLANS, ROLES } from './membership.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './password.js';

/** A string with a fixed set of values (documented as an enum, serialised as a plain string). */
const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

// Field rules. String lengths count Unicode code points and apply after the normalisation of normalise.ts
// (surrounding white space trimmed, NFC for free text).
export const EmailField = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'an email address; surrounding spaces are trimmed and it is stored lower-case',
});
export const PasswordField = Type.String({
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters (Unicode code points, after NFC normalisation); not trimmed`,
});
export const DisplayNameField = Type.String({
  minLength: 2,
  maxLength: 40,
  pattern: '^[^\\p{Cc}]*$',
  description: '2 to 40 characters after trimming; no control characters',
});
export const UsernameField = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_]+$',
  description: '3 to 32 letters, digits or underscores; unique case-insensitively (the case given is kept for display)',
});
export const BioField = Nullable(
  Type.String({
    maxLength: 300,
    pattern: '^[^\\x00-\\x08\\x0B-\\x1F\\x7F]*$',
    description: 'up to 300 characters after trimming; line breaks allowed; "" or null clears it',
  }),
);
export const CountryField = Nullable(
  Type.String({
    format: 'iso-country',
    description: 'ISO 3166-1 alpha-2 code, any case (stored upper-case); "" or null clears it',
    examples: ['DE'],
  }),
);
const TokenNameField = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'a name for the token, 1 to 100 characters',
});
export const MailTokenField = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'the token from the mail link',
});

export const PlayerPublicSchema = Type.Object(
  {
    id: Type.Integer({ description: 'player id' }),
    username: Type.String({ description: '3-32 letters, digits, underscore; unique case-insensitively' }),
    display_name: Type.String({ description: '2-40 characters' }),
    avatar_url: Type.String({
      description:
        'absolute URL of the uploaded avatar (under the public base assets_url when the deployment sets one), or of the generated initials avatar (SVG) when none is set',
    }),
    bio: Type.Union([Type.String(), Type.Null()], { description: 'up to 300 characters, or null' }),
    country: Type.Union([Type.String(), Type.Null()], { description: 'ISO 3166-1 alpha-2, upper-case, or null' }),
    member_since: Timestamp,
  },
  { title: 'Player', description: 'Player (public view)' },
);

export const PlayerOwnSchema = Type.Object(
  {
    ...PlayerPublicSchema.properties,
    email: Type.Union([Type.String(), Type.Null()], { description: 'visible only to the player; null for a guest' }),
    email_verified: Type.Boolean({ description: 'false for a guest' }),
    role: StringEnum(ROLES, 'staff and admin play without limit and may launch premium games'),
    newsletter: Type.Boolean(),
    guest: Type.Boolean({
      description:
        'true for a guest player (POST /auth/guest): no email, password, API tokens or public profile; registering turns it into an account, logging in merges it into one',
    }),
  },
  {
    title: 'OwnPlayer',
    description: 'Player (own view): the public view with the account fields only the player sees',
  },
);

export const MembershipSchema = Type.Object(
  {
    unlimited: Type.Boolean({ description: 'Unlimited member now: status active, or canceled with ends_at ahead' }),
    plan: StringEnum(PLANS),
    status: StringEnum(MEMBERSHIP_STATUSES, 'canceled: runs until ends_at; expired: over'),
    renews_at: Nullable(Timestamp),
    ends_at: Nullable(Timestamp),
  },
  { title: 'Membership', description: 'Membership' },
);

export const BestScoreSchema = Type.Object(
  {
    game: Type.String({ description: 'game slug' }),
    game_name: Type.String({ description: "the game's name" }),
    best: Type.Integer({ description: "the player's best on the game's main board" }),
    unit: Type.String({ description: "unit of the game's scores" }),
    rank: Type.Integer({ description: 'the rank of that best on the all-time board main, from 1' }),
    cover_url: Nullable(Type.String({ description: "the game's cover; null before its first release" })),
  },
  { title: 'BestScore', description: 'Best-score entry on a public profile' },
);

export const RecentlyPlayedSchema = Type.Object(
  {
    game: Type.String({ description: 'game slug' }),
    game_name: Type.String({ description: "the game's name" }),
    cover_url: Nullable(Type.String({ description: "the game's cover" })),
    last_played_at: Type.String({ description: 'when the player last played it (YYYY-MM-DD HH:MM:SS UTC)' }),
  },
  { title: 'RecentlyPlayed', description: 'A game a player played lately, on their public profile' },
);

const IsoTimestamp = Type.String({ description: 'ISO 8601 with offset', examples: ['2027-02-19T10:00:00+00:00'] });

export const TokenKindSchema = StringEnum(
  ['api', 'web'] as const,
  "'web': a portal session (a signed-in browser); 'api': any other token",
);

const RevokedTokenSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: TokenKindSchema,
    name: Type.String({ description: 'the device name of the revoked token' }),
    prefix: Type.String({ description: 'the first 12 characters of the revoked token' }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
  },
  {
    title: 'RevokedToken',
    description:
      'present only when this login or register revoked a token to stay within ten active tokens: that token, of the same kind as the new one unless the player had no other of that kind',
  },
);

export const ClaimedGuestSchema = Type.Object(
  {
    guest_id: Type.Integer({ description: 'the guest player the call claimed' }),
    via: StringEnum(
      ['register', 'merge'] as const,
      'register: the guest became this account (the same player id: time, saves, scores, favourites and history kept); merge: the guest was merged into this account and removed',
    ),
    seconds_added_today: Type.Optional(
      Type.Integer({
        description:
          "merge: seconds of today's play the account took over from the guest (for a free account, up to the daily allowance)",
      }),
    ),
    saves_moved: Type.Optional(Type.Integer({ description: "merge: the guest's saves moved into empty slots" })),
    saves_not_moved: Type.Optional(
      Type.Integer({
        description: "merge: the guest's saves left out because the account's slot was in use (never overwritten)",
      }),
    ),
    scores_moved: Type.Optional(Type.Integer({ description: "merge: the guest's score submissions moved" })),
    favorites_added: Type.Optional(
      Type.Integer({ description: "merge: the guest's favourites added to the account's" }),
    ),
  },
  {
    title: 'ClaimedGuest',
    description:
      "present when register or login carried a guest's credential (its portal session or Bearer token): what became of the guest",
  },
);

export const AuthResultSchema = Type.Object(
  {
    player: PlayerOwnSchema,
    token: Type.String({ description: 'player token agp_…; shown only this once' }),
    token_expires_at: IsoTimestamp,
    entitlement: EntitlementSchema,
    revoked_token: Type.Optional(RevokedTokenSchema),
    deletion_canceled: Type.Optional(
      Type.Literal(true, {
        description: 'login only: the account was waiting for deletion (DELETE /me) and this login cancelled it',
      }),
    ),
    claimed_guest: Type.Optional(ClaimedGuestSchema),
  },
  { title: 'AuthResult', description: 'the player, a new token and the entitlement (register, log in, a new guest)' },
);

export const MeSchema = Type.Object({
  player: PlayerOwnSchema,
  entitlement: EntitlementSchema,
  membership: MembershipSchema,
});

export const ProfileSchema = Type.Object({
  player: PlayerPublicSchema,
  unlimited: Type.Boolean({ description: 'the player is an Unlimited member (membership, not staff role)' }),
  best_scores: Type.Array(BestScoreSchema, { description: "the player's best on each game's main board" }),
  recently_played: Type.Array(RecentlyPlayedSchema, {
    maxItems: 6,
    description: 'the listed games the player played last, newest first (at most 6; no saves, no times played)',
  }),
});

export const TokenRecordSchema = Type.Object({
  id: Type.Integer(),
  kind: TokenKindSchema,
  name: Type.String(),
  prefix: Type.String({ description: 'the first 12 characters of the token' }),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  token_expires_at: IsoTimestamp,
  current: Type.Boolean({ description: 'true for the token that made this call' }),
});

export const SessionRecordSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'the device name given at login, e.g. "Web portal (Firefox)"' }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    token_expires_at: IsoTimestamp,
    current: Type.Boolean({ description: 'true for the browser that made this call (its session cookie)' }),
  },
  { title: 'WebSession', description: 'a signed-in browser: a portal session made by a cookie login or register' },
);

export const NewTokenSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  token: Type.String({ description: 'player token agp_…; shown only this once' }),
  prefix: Type.String({ description: 'the first 12 characters of the token' }),
  token_expires_at: IsoTimestamp,
});

export const AvatarSchema = Type.Object({ avatar_url: Type.String({ description: 'absolute URL of the avatar' }) });

export const closed = { additionalProperties: false } as const;

export const RegisterBody = Type.Object(
  {
    email: EmailField,
    password: PasswordField,
    display_name: DisplayNameField,
    username: Type.Optional(UsernameField),
    newsletter: Type.Optional(Type.Boolean({ default: false })),
  },
  closed,
);

export const LoginBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 254, description: 'email or username, case-insensitive' }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
    device_name: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'names the token (GET /me/tokens, or GET /me/sessions for the SDK); default "login", or for the SDK "Web portal (<browser>)"',
      }),
    ),
  },
  closed,
);

export const GuestBody = Type.Object(
  {
    device_name: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'names the token (GET /me/tokens); default "guest", or for the SDK "Web portal (<browser>)" from the User-Agent',
      }),
    ),
  },
  closed,
);

export const ForgotPasswordBody = Type.Object({ email: EmailField }, closed);
export const VerifyEmailBody = Type.Object({ token: MailTokenField }, closed);
export const ResetPasswordBody = Type.Object({ token: MailTokenField, password: PasswordField }, closed);

export const PatchMeBody = Type.Object(
  {
    display_name: Type.Optional(DisplayNameField),
    username: Type.Optional(UsernameField),
    bio: Type.Optional(BioField),
    country: Type.Optional(CountryField),
    newsletter: Type.Optional(Type.Boolean()),
  },
  closed,
);

export const CreateTokenBody = Type.Object({ name: TokenNameField }, closed);

export type PlayerPublic = Static<typeof PlayerPublicSchema>;
export type PlayerOwn = Static<typeof PlayerOwnSchema>;
export type Membership = Static<typeof MembershipSchema>;
export type BestScore = Static<typeof BestScoreSchema>;
export type RegisterInput = Static<typeof RegisterBody>;
export type LoginInput = Static<typeof LoginBody>;
export type ClaimedGuest = Static<typeof ClaimedGuestSchema>;
export type PatchMeInput = Static<typeof PatchMeBody>;
