// Calls of the play routes and reads of the play tables, shared by the play tests.
import { sha256 } from '../../src/lib/secrets.js';
import { gamePlaytime } from '../../src/modules/games/playtime.repository.js';
import type { Harness } from '../helpers/harness.js';
import { createGame, createPlayerWithToken, type PlayerOptions } from '../helpers/factories.js';
import type { NewGame } from '../../src/db/schema.js';

export function playApi(h: Harness) {
  return {
    start: (token: string, game: string) => h.http.post('/v1/play/start', { token, body: { game } }),
    heartbeat: (token: string, session: string) => h.http.post('/v1/play/heartbeat', { token, body: { session } }),
    end: (token: string, session: string, reason?: string) =>
      h.http.post('/v1/play/end', { token, body: reason === undefined ? { session } : { session, reason } }),
    entitlement: (token: string) => h.http.get('/v1/me/entitlement', { token }),
    playtime: (token: string, days?: number | string) =>
      h.http.get('/v1/me/playtime', { token, query: days === undefined ? undefined : { days } }),
  };
}

/** A player with a token, a game, and a session of it started through the API. */
export async function playing(h: Harness, player: PlayerOptions = {}, game: Partial<NewGame> = {}) {
  const who = await createPlayerWithToken(h.ctx, player);
  const g = await createGame(h.ctx, game);
  const res = await playApi(h).start(who.token, g.slug);
  if (res.status !== 200) throw new Error(`start answered ${res.status}: ${res.text}`);
  return { ...who, game: g, session: res.body.data.session as string, started: res.body.data };
}

export function sessionRow(h: Harness, session: string) {
  return h.ctx.db
    .selectFrom('play_sessions')
    .selectAll()
    .where('token_hash', '=', sha256(session))
    .executeTakeFirstOrThrow();
}

export async function usage(h: Harness, playerId: number, day: string) {
  const row = await h.ctx.db
    .selectFrom('daily_usage')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row ? { seconds: Number(row.seconds), sessions: Number(row.sessions) } : { seconds: 0, sessions: 0 };
}

/** Sets the player's credited seconds for a day, as if played earlier. */
export async function setUsage(h: Harness, playerId: number, day: string, seconds: number) {
  await h.ctx.db
    .insertInto('daily_usage')
    .values({ player_id: playerId, day, seconds, sessions: 1 })
    .onConflict((oc) => oc.columns(['player_id', 'day']).doUpdateSet({ seconds }))
    .execute();
}

export async function gameStats(h: Harness, gameId: number) {
  const row = await h.ctx.db.selectFrom('games').select('plays').where('id', '=', gameId).executeTakeFirstOrThrow();
  return { plays: Number(row.plays), playtime_seconds: await gamePlaytime(h.ctx.db, gameId) };
}

/** Epoch ms of an ISO time (give the offset). */
export const at = (iso: string) => new Date(iso).getTime();
