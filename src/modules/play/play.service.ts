// Play sessions (docs/api.md, "Play sessions and the daily allowance"): start, heartbeat, end and the idle sweep, with exactly-once crediting against the daily allowance.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { AppError, notFound } from '../../http/errors.js';
import { newSecret, sha256 } from '../../lib/secrets.js';
import { dayWindow, formatTimestamp } from '../../time.js';
import type { PlayerCredential } from '../../http/auth.js';
import { playsWithoutLimit, type MembershipFields } from '../accounts/membership.js';
import { entitlementOf, getEntitlement, type Entitlement } from './entitlement.js';
import { planCredit } from './credit.js';
import type { EndReason } from './play.schemas.js';
import {
  claimInterval,
  closeIdleSessions,
  closePlayerSessions,
  countActiveSessions as countActive,
  countPlay,
  findActiveSessions,
  findGameBySlug,
  findPlayerMembership,
  findSessionByTokenHash,
  heartbeatInOneStatement,
  insertSession,
  lockPlayerStarts,
  moveSessions,
  settleClaim,
  type PlayableGame,
  type SessionRow,
} from './play.repository.js';
import { addUsage, addUsageDay, countSessionStart, lockUsageDays, usedSeconds } from './usage.repository.js';
import { gameFileUrl } from '../games/game-origin.js';
import { addPlaytime, playtimeShard } from '../games/playtime.repository.js';
import { isListed } from '../games/manifest.js';
import { forgetStatusCounts } from '../status/status.counts.js';

/** A write lost a race (another call credited or closed the session first): read again and redo. */
class Reread extends Error {}

const ATTEMPTS = 5;

/**
 * Races worth running again: a unique violation (two starts of one game: the second then replaces the first) and a
 * PostgreSQL deadlock. The lock order makes deadlocks impossible among play's own transactions as far as we can
 * tell; two sweeps walking the same rows could still meet in a different order, and the retry makes that harmless.
 */
function isRetryable(error: unknown): boolean {
  if (error instanceof Reread) return true;
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '40P01';
}

/** Runs `fn` again when it lost a race; each retry reads the state the winner left. */
async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}

/** 410 with the reason the session closed (replaced, timeout, limit, quit, …): a shell tells "taken over elsewhere" from "ended". */
const sessionEnded = (reason: string) =>
  new AppError('session_ended', 'This play session has ended; start a new one', { reason });
const noSession = () => notFound('No such play session');

function idleCutoff(ctx: AppContext, now: number): number {
  return now - ctx.config.session_idle_timeout * 1000;
}

const isIdle = (ctx: AppContext, s: SessionRow, now: number) => s.last_heartbeat_at <= idleCutoff(ctx, now);
const secondsBetween = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 1000));
const playerOfSession = (s: SessionRow) => ({ ...s, id: s.player_id });

/** Every listed game can be launched today; this is where a reason not to (files missing, maintenance) would go. */
function isLaunchable(_game: PlayableGame): boolean {
  return true;
}

/** The entry file of the current file set on the game's own origin: no redirect, and every relative URL stays in that set. */
export function entryUrl(ctx: AppContext, game: PlayableGame, token: string): string {
  return `${gameFileUrl(ctx.config, game.slug, game.files_dir, game.entry)}?session=${encodeURIComponent(token)}`;
}

export interface Credit {
  /** seconds this call added to the session and the daily counters */
  credited: number;
  /** the session's credited_seconds afterwards */
  total: number;
  usedToday: number;
  /** set when this call closed the session */
  closedAs: string | null;
}

/**
 * Credits the session up to `now` inside `trx`, in this order of row locks (the same in every transaction, so none
 * deadlock): the session (compare-and-set on credited_until), the player's day rows oldest first, the game's stats row.
 * A free player's credit is capped by the day counter's atomic update; the session is charged what the counter took.
 * `close` closes the session in the same write (end, replaced); otherwise a free player at the allowance is closed (limit).
 */
export async function creditSession(
  ctx: AppContext,
  trx: Executor,
  s: SessionRow,
  now: number,
  close?: string,
): Promise<Credit> {
  const { free_seconds_per_day: allowance, max_heartbeat_gap: gap, reset_timezone: zone } = ctx.config;
  const plan = planCredit(s.credited_until, now, gap, zone);
  const unlimited = playsWithoutLimit(s, now);
  const claimed = await claimInterval(trx, {
    id: s.id,
    expectedUntil: s.credited_until,
    until: plan.until,
    seconds: plan.seconds,
    now,
    close,
  });
  if (claimed === undefined) throw new Reread();

  const today = dayWindow(now, zone).day;
  let credited = 0;
  let usedToday: number | undefined;
  for (const segment of plan.segments) {
    const usage = await addUsage(trx, s.player_id, segment.day, segment.seconds, unlimited ? null : allowance);
    credited += usage.added;
    if (segment.day === today) usedToday = usage.seconds;
  }
  usedToday ??= await usedSeconds(trx, s.player_id, today);
  const limit = !close && !unlimited && usedToday >= allowance;
  const refund = plan.seconds - credited;
  if (refund > 0 || limit) await settleClaim(trx, s.id, refund, now, limit ? 'limit' : null);
  if (credited > 0) await addPlaytime(trx, s.game_id, playtimeShard(s.id), credited);
  return { credited, total: claimed - refund, usedToday, closedAs: close ?? (limit ? 'limit' : null) };
}

/** Sessions this process closed: counted, and GET /status counts again (players_online). */
function countEnded(ctx: AppContext, reason: string, sessions: number): void {
  if (sessions > 0) {
    ctx.metrics.sessionsEnded.inc({ reason }, sessions);
    forgetStatusCounts(ctx);
  }
}

/** After the credit's transaction committed: its seconds, and the session it closed (end reason, or limit). */
function countCredit(ctx: AppContext, credit: Credit): void {
  if (credit.credited > 0) ctx.metrics.creditedSeconds.inc(credit.credited);
  if (credit.closedAs) countEnded(ctx, credit.closedAs, 1);
}

export interface StartResult {
  session: string;
  game: string;
  started_at: string;
  heartbeat_interval: number;
  entry_url: string;
  entitlement: Entitlement;
}

/** POST /play/start. Checks in DESIGN's order: game listed (404), launchable (403), premium (402), allowance (402). */
export async function startPlay(ctx: AppContext, playerId: number, slug: string): Promise<StartResult> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game || !isListed(game.status)) throw notFound('No such game');
  if (!isLaunchable(game)) throw new AppError('game_unavailable', 'This game cannot be launched right now');
  const player = await findPlayerMembership(ctx.db, playerId);
  if (!player) throw notFound('No such player');
  const now = ctx.clock.now();
  const unlimited = playsWithoutLimit(player, now);
  if (game.requires_premium && !unlimited) throw new AppError('premium_required', 'This game is for Unlimited members');

  // What the committed attempt closed and credited, counted once it has committed (a 402 rolls it all back).
  let closed: { replaced: number; timeout: number; credited: number } = { replaced: 0, timeout: 0, credited: 0 };
  const result = await retrying(() =>
    ctx.db.transaction().execute(async (trx) => {
      closed = { replaced: 0, timeout: 0, credited: 0 };
      await lockPlayerStarts(trx, playerId);
      // The earlier session of this game is credited up to now and closed (replaced); on a 402 below it all rolls back.
      // Taking over a session still alive (a second tab, another device) continues that play: it is not counted again.
      let continues = false;
      for (const earlier of await findActiveSessions(trx, playerId, game.id)) {
        if (isIdle(ctx, earlier, now)) closed.timeout += await closeIdleSessions(trx, idleCutoff(ctx, now), earlier.id);
        else {
          closed.credited += (await creditSession(ctx, trx, earlier, now, 'replaced')).credited;
          closed.replaced++;
          continues = true;
        }
      }
      const token = newSecret('ps_');
      await insertSession(trx, { token_hash: sha256(token), player_id: playerId, game_id: game.id, now, continues });
      const used = await countSessionStart(trx, playerId, dayWindow(now, ctx.config.reset_timezone).day);
      const entitlement = entitlementOf(ctx, player, used, now);
      if (entitlement.limit_reached)
        throw new AppError('limit_reached', 'The free play time for today is used up', { entitlement });
      if (!continues) await countPlay(trx, game.id);
      return {
        session: token,
        game: game.slug,
        started_at: formatTimestamp(now),
        heartbeat_interval: ctx.config.heartbeat_interval,
        entry_url: entryUrl(ctx, game, token),
        entitlement,
      };
    }),
  );
  const { metrics } = ctx;
  metrics.sessionsStarted.inc();
  forgetStatusCounts(ctx);
  if (closed.replaced) metrics.sessionsEnded.inc({ reason: 'replaced' }, closed.replaced);
  if (closed.timeout) metrics.sessionsEnded.inc({ reason: 'timeout' }, closed.timeout);
  if (closed.credited) metrics.creditedSeconds.inc(closed.credited);
  return result;
}

/** The session behind `token` for this player: 404 when unknown or another player's (its existence is not revealed). */
async function ownSession(ctx: AppContext, playerId: number, tokenHash: string): Promise<SessionRow> {
  return own(await findSessionByTokenHash(ctx.db, tokenHash), playerId);
}

function own(s: SessionRow | undefined, playerId: number): SessionRow {
  if (!s || s.player_id !== playerId) throw noSession();
  return s;
}

export interface HeartbeatResult {
  credited_seconds: number;
  session_seconds: number;
  entitlement: Entitlement;
  limit_reached: boolean;
}

/**
 * POST /play/heartbeat, the hottest route (every player, every heartbeat_interval). After the credential lookup
 * (unique index player_tokens.token_hash, which also reads the player's membership):
 *   PostgreSQL: one statement (heartbeatInOneStatement) reads the session by its token hash, locks it, and credits it
 *     when the credit falls in today: 2 round trips in all. A heartbeat it does not write (an unknown, closed or idle
 *     session, another player's, or a credit across midnight) goes on below with the row it read.
 *   SQLite, and a retry: the same call (on SQLite) or findSessionByTokenHash reads play_sessions by token_hash (unique
 *     index) joined to games and players by primary key, then the write transaction, no read inside it in the common
 *     case:
 *       UPDATE play_sessions … WHERE id = ? AND status = 'active' AND credited_until = ?   (primary key; the claim)
 *       INSERT INTO daily_usage … ON CONFLICT (player_id, day) DO UPDATE … RETURNING        (primary key; 2 at midnight)
 *       INSERT INTO game_playtime … ON CONFLICT (game_id, shard) DO UPDATE …             (primary key; last: the game's shard)
 *     plus one more primary-key UPDATE of the session only when the cap cut the credit or the limit closes it.
 *     The read runs outside the transaction: the claim's compare-and-set turns a stale read into a retry.
 */
export async function heartbeat(ctx: AppContext, player: PlayerCredential, token: string): Promise<HeartbeatResult> {
  const tokenHash = sha256(token);
  let attempt = 0;
  return retrying(async () => {
    const now = ctx.clock.now();
    let s: SessionRow;
    if (attempt++ === 0) {
      const { session, credit } = await creditInOneStatement(ctx, player, tokenHash, now);
      s = own(session, player.playerId);
      if (credit) return heartbeatResult(ctx, s, player.membership, credit, now);
    } else s = await ownSession(ctx, player.playerId, tokenHash);
    if (s.status !== 'active') throw sessionEnded(s.end_reason ?? 'quit');
    if (isIdle(ctx, s, now)) {
      countEnded(ctx, 'timeout', await closeIdleSessions(ctx.db, idleCutoff(ctx, now), s.id));
      throw sessionEnded('timeout');
    }
    const credit = await ctx.db.transaction().execute((trx) => creditSession(ctx, trx, s, now));
    return heartbeatResult(ctx, s, s, credit, now);
  });
}

/**
 * The heartbeat's statement (PostgreSQL; on SQLite a read of the session), with the cap of the caller's membership
 * as the credential read it. It and creditSession are the credit rule's two flows: test/play/credit-rule.test.ts runs
 * one table of cases through both.
 */
export async function creditInOneStatement(ctx: AppContext, player: PlayerCredential, tokenHash: string, now: number) {
  const { free_seconds_per_day: allowance, max_heartbeat_gap: gap, reset_timezone: zone } = ctx.config;
  const today = dayWindow(now, zone);
  const { session, credit } = await heartbeatInOneStatement(ctx.db, {
    tokenHash,
    playerId: player.playerId,
    now,
    gapMs: gap * 1000,
    idleCutoff: idleCutoff(ctx, now),
    dayStart: today.start,
    day: today.day,
    cap: playsWithoutLimit(player.membership, now) ? null : allowance,
  });
  const asCredit = credit && {
    credited: credit.credited,
    total: credit.total,
    usedToday: credit.usedToday,
    closedAs: credit.limit ? 'limit' : null,
  };
  return { session, credit: asCredit };
}

function heartbeatResult(
  ctx: AppContext,
  s: SessionRow,
  membership: MembershipFields,
  credit: Credit,
  now: number,
): HeartbeatResult {
  countCredit(ctx, credit);
  ctx.metrics.heartbeats.inc();
  return {
    credited_seconds: credit.total,
    session_seconds: secondsBetween(s.started_at, now),
    entitlement: entitlementOf(ctx, membership, credit.usedToday, now),
    limit_reached: credit.closedAs === 'limit',
  };
}

export interface SessionSummary {
  session: string;
  game: string;
  started_at: string;
  ended_at: string;
  session_seconds: number;
  credited_seconds: number;
  reason: string;
  entitlement: Entitlement;
}

function summaryOf(
  token: string,
  s: SessionRow,
  endedAt: number,
  reason: string,
  credited: number,
  entitlement: Entitlement,
): SessionSummary {
  return {
    session: token,
    game: s.game_slug,
    started_at: formatTimestamp(s.started_at),
    ended_at: formatTimestamp(endedAt),
    session_seconds: secondsBetween(s.started_at, endedAt),
    credited_seconds: credited,
    reason,
    entitlement,
  };
}

/** POST /play/end: credits like a heartbeat and closes; on a closed session returns its summary and credits nothing. */
export async function endPlay(
  ctx: AppContext,
  playerId: number,
  token: string,
  reason: EndReason,
): Promise<SessionSummary> {
  const tokenHash = sha256(token);
  return retrying(async () => {
    const now = ctx.clock.now();
    const s = await ownSession(ctx, playerId, tokenHash);
    if (s.status !== 'active') {
      return summaryOf(
        token,
        s,
        s.ended_at ?? now,
        s.end_reason ?? 'quit',
        s.credited_seconds,
        await getEntitlement(ctx, playerOfSession(s)),
      );
    }
    if (isIdle(ctx, s, now)) {
      countEnded(ctx, 'timeout', await closeIdleSessions(ctx.db, idleCutoff(ctx, now), s.id));
      throw new Reread(); // read it back closed, with reason timeout
    }
    const credit = await ctx.db.transaction().execute((trx) => creditSession(ctx, trx, s, now, reason));
    countCredit(ctx, credit);
    return summaryOf(token, s, now, reason, credit.total, entitlementOf(ctx, s, credit.usedToday, now));
  });
}

/** Closes every session idle for session_idle_timeout (reason timeout); returns how many. Safe to run from many processes at once. */
export async function sweepIdleSessions(ctx: AppContext): Promise<number> {
  const closed = await retrying(() => closeIdleSessions(ctx.db, idleCutoff(ctx, ctx.clock.now())));
  countEnded(ctx, 'timeout', closed);
  return closed;
}

/** Play sessions open now, for the gameplatform_play_sessions_active gauge (read on each scrape, not per request). */
export function countActiveSessions(ctx: AppContext): Promise<number> {
  return countActive(ctx.db);
}

/** What a guest's merge into an account did to its play (mergePlayerPlay). */
export interface PlayMerge {
  /** seconds of today the account took over */
  secondsAddedToday: number;
  /** the guest's sessions that were still active, closed with reason `merged` */
  sessionsClosed: number;
}

/**
 * A guest merged into an account, inside the caller's transaction: the guest's active sessions close (reason merged:
 * a shell whose heartbeat then answers 410 starts a new session as the account), each of its days is added to the
 * account's (for a free account never past the allowance), and its sessions become the account's history. Lock order
 * as crediting: the sessions, then the day rows oldest first (the guest's, then the account's).
 */
export async function mergePlayerPlay(
  ctx: AppContext,
  trx: Executor,
  fromId: number,
  to: MembershipFields & { id: number },
): Promise<PlayMerge> {
  const now = ctx.clock.now();
  const sessionsClosed = await closePlayerSessions(trx, fromId, now, 'merged');
  const cap = playsWithoutLimit(to, now) ? null : ctx.config.free_seconds_per_day;
  const today = dayWindow(now, ctx.config.reset_timezone).day;
  let secondsAddedToday = 0;
  for (const day of await lockUsageDays(trx, fromId)) {
    const added = await addUsageDay(trx, to.id, day, cap);
    if (day.day === today) secondsAddedToday = added;
  }
  await moveSessions(trx, fromId, to.id);
  return { secondsAddedToday, sessionsClosed };
}

/** After the merge's transaction committed: the sessions it closed are counted (metrics, players online). */
export function countMergedSessions(ctx: AppContext, merge: PlayMerge): void {
  countEnded(ctx, 'merged', merge.sessionsClosed);
}
