// TypeBox schemas of account self-service: change password or email, delete the account, export the own data.
import { Type } from '@sinclair/typebox';
import { DateString, Nullable, Timestamp } from '../../http/envelope.js';
import { EntitlementSchema } from '../play/entitlement.js';
import {
  EmailField,
  MailTokenField,
  MembershipSchema,
  PasswordField,
  PlayerOwnSchema,
  closed,
} from './accounts.schemas.js';
import { PASSWORD_MAX } from './password.js';

const CurrentPassword = (description = 'the current password') =>
  Type.String({ minLength: 1, maxLength: PASSWORD_MAX, description });
const IsoTimestamp = Type.String({ description: 'ISO 8601 with offset', examples: ['2027-02-19T10:00:00+00:00'] });

export const ChangePasswordBody = Type.Object(
  { current_password: CurrentPassword('the password in use now'), new_password: PasswordField },
  closed,
);
export const ChangeEmailBody = Type.Object({ email: EmailField, password: CurrentPassword() }, closed);
export const ConfirmEmailBody = Type.Object({ token: MailTokenField }, closed);
export const DeleteMeBody = Type.Object({ password: CurrentPassword() }, closed);

export const VerificationSentSchema = Type.Object({
  sent: Type.Literal(true),
  email: Type.String({ description: 'the address the link went to' }),
});

export const PasswordChangedSchema = Type.Object({
  password_changed: Type.Literal(true),
  tokens_revoked: Type.Integer({
    description: "how many of the player's other tokens (and portal sessions) were revoked",
  }),
});

export const EmailChangeRequestedSchema = Type.Object({
  pending_email: Type.String({
    description: 'the new address, lower-case; the account keeps the old one until the link is used',
  }),
  expires_at: IsoTimestamp,
});

export const EmailChangedSchema = Type.Object({
  email: Type.String({ description: 'the account address now' }),
  email_verified: Type.Literal(true),
});

export const DeletionScheduledSchema = Type.Object({
  deletion_scheduled: Type.Literal(true),
  deletion_due_at: Timestamp,
  grace_days: Type.Integer({ description: 'days between the request and the purge' }),
});

export const ExportSchema = Type.Object(
  {
    exported_at: Timestamp,
    player: PlayerOwnSchema,
    membership: MembershipSchema,
    entitlement: EntitlementSchema,
    tokens: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        prefix: Type.String({
          description: 'the first 12 characters (the token itself and its hash are never exported)',
        }),
        created_at: Timestamp,
        last_used_at: Nullable(Timestamp),
        token_expires_at: IsoTimestamp,
        revoked_at: Nullable(Timestamp),
      }),
      { description: 'every token the player has had, revoked and expired ones too' },
    ),
    favorites: Type.Array(
      Type.Object({ game: Type.String({ description: 'game slug' }), game_name: Type.String(), created_at: Timestamp }),
    ),
    ratings: Type.Array(
      Type.Object({
        game: Type.String({ description: 'game slug' }),
        game_name: Type.String(),
        value: Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'thumbs up or down' }),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
      { description: "the player's votes on games" },
    ),
    saves: Type.Array(
      Type.Object({
        game: Type.String({ description: 'game slug' }),
        slot: Type.Integer(),
        version: Type.Integer(),
        label: Nullable(Type.String()),
        state: Type.Unknown({ description: 'the saved JSON value' }),
        size_bytes: Type.Integer(),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
      { description: 'filled save slots with their payloads' },
    ),
    scores: Type.Array(
      Type.Object({
        id: Type.Integer(),
        game: Type.String({ description: 'game slug' }),
        board: Type.String(),
        score: Type.Integer(),
        meta: Type.Unknown({ description: 'the JSON object sent with the score, or null' }),
        play_session_id: Nullable(Type.Integer()),
        created_at: Timestamp,
      }),
      { description: 'every submitted score' },
    ),
    play_sessions: Type.Array(
      Type.Object({
        id: Type.Integer(),
        game: Type.String({ description: 'game slug' }),
        status: Type.String(),
        started_at: Timestamp,
        last_heartbeat_at: Timestamp,
        ended_at: Nullable(Timestamp),
        end_reason: Nullable(Type.String()),
        credited_seconds: Type.Integer(),
      }),
    ),
    daily_usage: Type.Array(
      Type.Object({
        day: DateString,
        seconds: Type.Integer({ description: 'credited play time that day' }),
        sessions: Type.Integer(),
      }),
    ),
  },
  {
    title: 'AccountExport',
    description: 'everything the service holds about the player; never a password or token hash',
  },
);
