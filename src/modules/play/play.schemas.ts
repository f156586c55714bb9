// TypeBox schemas of the play routes: request bodies and the response objects (their descriptions are the OpenAPI documentation).
import { Type } from '@sinclair/typebox';
import { DateString, Timestamp } from '../../http/envelope.js';
import { EntitlementSchema } from './entitlement.js';

export const END_REASONS = ['quit', 'navigate', 'hidden', 'error'] as const;
export type EndReason = (typeof END_REASONS)[number];

const SessionToken = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'the play session token (ps_…) returned by POST /play/start',
});

export const StartBody = Type.Object(
  { game: Type.String({ minLength: 1, maxLength: 200, description: 'slug of the game to launch' }) },
  { additionalProperties: false },
);

export const StartResponse = Type.Object({
  session: Type.String({
    description:
      'the play session token (ps_…); send it with every heartbeat, with POST /play/end and as ?session= of the entry file',
  }),
  game: Type.String({ description: 'slug of the game' }),
  started_at: Timestamp,
  heartbeat_interval: Type.Integer({
    description: 'seconds between heartbeats the shell should send (setting heartbeat_interval)',
  }),
  entry_url: Type.String({
    description:
      "URL of the game's entry file for this session, on the game's own origin (setting games_url) and in its current file set: {games_url with the slug}/~{set}/{entry}?session=<token>",
  }),
  entitlement: EntitlementSchema,
});

export const HeartbeatBody = Type.Object({ session: SessionToken }, { additionalProperties: false });

export const HeartbeatResponse = Type.Object({
  credited_seconds: Type.Integer({
    description: 'seconds credited to this session so far, this heartbeat included (what the daily counter took)',
  }),
  session_seconds: Type.Integer({ description: 'seconds since the session started (wall clock)' }),
  entitlement: EntitlementSchema,
  limit_reached: Type.Boolean({
    description:
      "true when this heartbeat brought a free player's day to the allowance: the session is now closed (reason limit) and the shell removes the game",
  }),
});

export const EndBody = Type.Object(
  {
    session: SessionToken,
    reason: Type.Optional(
      Type.Union(
        END_REASONS.map((r) => Type.Literal(r)),
        { default: 'quit', description: 'why the shell ends the session: quit (default), navigate, hidden or error' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SessionSummary = Type.Object({
  session: Type.String({ description: 'the play session token' }),
  game: Type.String({ description: 'slug of the game' }),
  started_at: Timestamp,
  ended_at: Timestamp,
  session_seconds: Type.Integer({
    description: 'seconds from start to end (wall clock); a timed-out session ends when it was last heard from',
  }),
  credited_seconds: Type.Integer({
    description: 'seconds credited to the session in total (what counted toward the daily allowance)',
  }),
  reason: Type.String({
    description:
      'why the session ended: quit, navigate, hidden, error (sent to POST /play/end), limit (the allowance ran out), timeout (no heartbeat for session_idle_timeout), replaced (the player started the same game again) or merged (the guest playing it logged in to an account, which now holds the session: start a new one)',
  }),
  entitlement: EntitlementSchema,
});

export const PlaytimeQuery = Type.Object({
  days: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 14,
    description: 'days of history, today included (1 to 365, default 14)',
  }),
});

export const PlaytimeDay = Type.Object({
  day: DateString,
  seconds: Type.Integer({ description: 'seconds credited that day, all games' }),
  sessions: Type.Integer({ description: 'play sessions started that day' }),
});

export const PlaytimeResponse = Type.Object({
  today: EntitlementSchema,
  total_seconds: Type.Integer({ description: 'seconds credited over the days of history' }),
  history: Type.Array(PlaytimeDay, {
    description: 'one entry per day of the window, newest first, days without play included with zeros',
  }),
});
