// POST /v1/play/start, /heartbeat, /end and GET /v1/me/entitlement, /v1/me/playtime.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { EntitlementSchema } from './entitlement.js';
import {
  EndBody,
  HeartbeatBody,
  HeartbeatResponse,
  PlaytimeQuery,
  PlaytimeResponse,
  SessionSummary,
  StartBody,
  StartResponse,
} from './play.schemas.js';
import { endPlay, heartbeat, startPlay } from './play.service.js';
import { playerEntitlement, playtime } from './playtime.service.js';

export async function playRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/play/start',
    {
      schema: {
        tags: ['play'],
        operationId: 'startPlay',
        summary: 'Start a play session',
        description:
          'Checks, in this order: the game exists and is listed (404 not_found), it can be launched (403 game_unavailable; every listed game can be launched today), ' +
          'a premium game needs an Unlimited member or staff (402 premium_required), a free player needs time left today (402 limit_reached, with error.entitlement). ' +
          "Starting a game closes the player's earlier active session of the same game (credited up to now, reason replaced). " +
          "Counts a session in the player's day, and a play in the game's stats.plays unless it took over a session that was still active " +
          '(not idle for session_idle_timeout): a second tab or another device continues the same play.',
        body: StartBody,
        response: { 200: Ok(StartResponse) },
      },
      config: { auth: 'player', errors: ['not_found', 'game_unavailable', 'premium_required', 'limit_reached'] },
    },
    async (request) => ok(await startPlay(app.ctx, playerOf(request).playerId, request.body.game)),
  );

  app.post(
    '/v1/play/heartbeat',
    {
      schema: {
        tags: ['play'],
        operationId: 'heartbeat',
        summary: 'Keep a play session alive and credit the time played',
        description:
          'Credits the seconds since the last credit, at most max_heartbeat_gap (the rest of a longer silence is not counted), and for a free player at most what is left today; ' +
          'a credit that spans midnight in reset_timezone is split between the two days. Concurrent heartbeats credit an interval once. ' +
          'When a free player reaches the allowance the session closes (reason limit) and the response carries limit_reached: true. ' +
          'A closed session, or one without a heartbeat for session_idle_timeout (it is closed then, nothing credited for the silence), answers 410 session_ended ' +
          'with error.reason, why it closed: replaced (the same game was started again, in another tab or on another device: a shell should stop and offer to play here ' +
          'rather than start again), timeout, limit, merged (the guest playing logged in to an account, which now holds the session: start a new one as the account), or the reason given to POST /play/end (quit, navigate, hidden, error). ' +
          "Another player's session answers 404 like an unknown one.",
        body: HeartbeatBody,
        response: { 200: Ok(HeartbeatResponse) },
      },
      config: { auth: 'player', errors: ['not_found', 'session_ended'] },
    },
    async (request) => ok(await heartbeat(app.ctx, playerOf(request), request.body.session)),
  );

  app.post(
    '/v1/play/end',
    {
      schema: {
        tags: ['play'],
        operationId: 'endPlay',
        summary: 'End a play session',
        description:
          'Credits like a heartbeat, closes the session and returns its summary. Idempotent: on a closed session (ended, limit, timeout, replaced) it returns ' +
          'the same summary and credits nothing. A session idle for session_idle_timeout is closed with reason timeout, crediting nothing for the silence.',
        body: EndBody,
        response: { 200: Ok(SessionSummary) },
      },
      config: { auth: 'player', errors: ['not_found'] },
    },
    async (request) =>
      ok(await endPlay(app.ctx, playerOf(request).playerId, request.body.session, request.body.reason ?? 'quit')),
  );

  app.get(
    '/v1/me/entitlement',
    {
      schema: {
        tags: ['play'],
        operationId: 'getEntitlement',
        summary: "The player's entitlement today",
        description: 'Allowance, use and reset in reset_timezone. Reads only: it does not keep a play session alive.',
        response: { 200: Ok(EntitlementSchema) },
      },
      config: { auth: 'player' },
    },
    async (request) => ok(await playerEntitlement(app.ctx, playerOf(request).playerId)),
  );

  app.get(
    '/v1/me/playtime',
    {
      schema: {
        tags: ['play'],
        operationId: 'getPlaytime',
        summary: "The player's play time per day",
        description:
          "Today's entitlement, and one history entry per day of the last `days` days in reset_timezone (today first, days without play as zeros).",
        querystring: PlaytimeQuery,
        response: { 200: Ok(PlaytimeResponse) },
      },
      config: { auth: 'player' },
    },
    async (request) => ok(await playtime(app.ctx, playerOf(request).playerId, request.query.days)),
  );
}
