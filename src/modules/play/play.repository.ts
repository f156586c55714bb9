// Queries on play_sessions (and the game and player rows a session needs). Every write here is a conditional UPDATE:
// the condition is what makes concurrent heartbeats, ends, starts and sweeps safe without locks taken in advance.
import { sql, type Compilable } from 'kysely';
import { isPostgres, type Db, type Executor } from '../../db/connect.js';
import { prepared } from '../../db/prepared.js';
import type { MembershipFields } from '../accounts/membership.js';
import { LISTED_STATUSES } from '../games/manifest.js';

export interface PlayableGame {
  id: number;
  slug: string;
  status: string;
  entry: string;
  /** the current file set (its versioned URLs are cached for good) */
  files_dir: string;
  requires_premium: number;
}

/** The game named by `slug`. Unique index on games.slug. */
export function findGameBySlug(db: Executor, slug: string): Promise<PlayableGame | undefined> {
  return db.selectFrom('games').select(['id', 'slug', 'status', 'entry', 'files_dir', 'requires_premium']).where('slug', '=', slug).executeTakeFirst();
}

export type PlayerMembership = MembershipFields & { id: number };

/** What decides a player's entitlement. Primary-key lookup. */
export function findPlayerMembership(db: Executor, playerId: number): Promise<PlayerMembership | undefined> {
  return db
    .selectFrom('players')
    .select(['id', 'role', 'membership_plan', 'membership_status', 'membership_renews_at', 'membership_ends_at'])
    .where('id', '=', playerId)
    .executeTakeFirst();
}

export interface SessionRow extends MembershipFields {
  id: number;
  player_id: number;
  game_id: number;
  game_slug: string;
  status: string;
  started_at: number;
  last_heartbeat_at: number;
  credited_until: number;
  credited_seconds: number;
  ended_at: number | null;
  end_reason: string | null;
}

function sessions(db: Executor) {
  return db
    .selectFrom('play_sessions as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .innerJoin('players as p', 'p.id', 's.player_id')
    .select([
      's.id', 's.player_id', 's.game_id', 'g.slug as game_slug', 's.status', 's.started_at', 's.last_heartbeat_at',
      's.credited_until', 's.credited_seconds', 's.ended_at', 's.end_reason',
      'p.role', 'p.membership_plan', 'p.membership_status', 'p.membership_renews_at', 'p.membership_ends_at',
    ]);
}

/**
 * The session with this token hash, with its game's slug and its player's membership.
 * Hot (every heartbeat): unique index on play_sessions.token_hash, then primary-key lookups of games and players; three index probes.
 */
export function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  return sessionByTokenHash.first(db, tokenHash);
}
const sessionByTokenHash = prepared((db, tokenHash: string) => sessions(db).where('s.token_hash', '=', tokenHash));

/** The player's active sessions of one game (at most one: play_sessions_one_active_idx). Index play_sessions_player_idx. */
export function findActiveSessions(db: Executor, playerId: number, gameId: number): Promise<SessionRow[]> {
  return sessions(db).where('s.player_id', '=', playerId).where('s.status', '=', 'active').where('s.game_id', '=', gameId).execute();
}

/** Play sessions open now (GET /metrics, on each scrape). Counted from play_sessions_sweep_idx (status, last_heartbeat_at). */
export async function countActiveSessions(db: Executor): Promise<number> {
  const row = await db.selectFrom('play_sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'active').executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises the starts of one player: two starts of the same game at once would otherwise both replace the same
 * earlier session and race to insert. PostgreSQL: a row lock on the player (heartbeats never take it, so the lock
 * order player → session → day → game has no cycle). SQLite: BEGIN IMMEDIATE already holds the database's write lock.
 */
export async function lockPlayerStarts(db: Executor, playerId: number): Promise<void> {
  if (isPostgres(db)) await db.selectFrom('players').select('id').where('id', '=', playerId).forUpdate().execute();
}

export interface NewSession {
  token_hash: string;
  player_id: number;
  game_id: number;
  now: number;
  /** it takes over the player's still-active session of this game (another tab or device): not a new play */
  continues: boolean;
}

export async function insertSession(db: Executor, s: NewSession): Promise<void> {
  await db
    .insertInto('play_sessions')
    .values({
      token_hash: s.token_hash, player_id: s.player_id, game_id: s.game_id, status: 'active', started_at: s.now, last_heartbeat_at: s.now,
      credited_until: s.now, credited_seconds: 0, continues_play: s.continues ? 1 : 0,
    })
    .execute();
}

export interface Claim {
  id: number;
  /** credited_until as read: the compare of the compare-and-set */
  expectedUntil: number;
  until: number;
  seconds: number;
  now: number;
  /** close the session in the same statement (end, replaced) */
  close?: string;
}

/**
 * Claims the interval up to `until` for this call: compare-and-set on credited_until (and status active).
 * Two heartbeats that read the same credited_until cannot both match: on PostgreSQL the second waits for the first's
 * row lock, re-reads the row and no longer matches; on SQLite writers are serialised.
 * Returns the session's credited_seconds after the claim, or undefined when it lost. Hot: primary-key update of one row.
 */
export async function claimInterval(db: Executor, c: Claim): Promise<number | undefined> {
  if (!c.close) {
    const row = await claim.first(db, c.until, c.now, c.seconds, c.id, c.expectedUntil);
    return row && Number(row.credited_seconds);
  }
  const row = await db
    .updateTable('play_sessions')
    .set({
      credited_until: c.until,
      last_heartbeat_at: c.now,
      credited_seconds: sql<number>`credited_seconds + ${c.seconds}`,
      ...(c.close ? { status: 'closed', ended_at: c.now, end_reason: c.close } : {}),
    })
    .where('id', '=', c.id)
    .where('status', '=', 'active')
    .where('credited_until', '=', c.expectedUntil)
    .returning('credited_seconds')
    .executeTakeFirst();
  return row && Number(row.credited_seconds);
}

/** claimInterval without closing: the heartbeat's statement. */
const claim = prepared((db, until: number, now: number, seconds: number, id: number, expectedUntil: number) =>
  db
    .updateTable('play_sessions')
    .set({ credited_until: until, last_heartbeat_at: now, credited_seconds: sql<number>`credited_seconds + ${seconds}` })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('credited_until', '=', expectedUntil)
    .returning('credited_seconds'),
);

/**
 * After the daily cap took less than claimed: gives back the difference, and closes the session when `close` is set
 * (the limit). The row is already locked by this transaction's claim. Primary-key update.
 */
export async function settleClaim(db: Executor, id: number, refund: number, now: number, close: string | null): Promise<void> {
  await db
    .updateTable('play_sessions')
    .set({ credited_seconds: sql<number>`credited_seconds - ${refund}`, ...(close ? { status: 'closed', ended_at: now, end_reason: close } : {}) })
    .where('id', '=', id)
    .execute();
}

/**
 * Closes idle sessions (no heartbeat since `cutoff`) with reason timeout; ended_at is the last time the session was
 * heard from, and nothing is credited for the silence. One statement: a session that a concurrent heartbeat refreshed,
 * or a concurrent sweep closed, no longer matches when its row lock is granted, so each session closes once.
 * `id` narrows it to one session (a heartbeat or end that finds it idle). Index play_sessions_sweep_idx (status, last_heartbeat_at):
 * a range scan over the idle active sessions only.
 */
export async function closeIdleSessions(db: Executor, cutoff: number, id?: number): Promise<number> {
  const result = await db
    .updateTable('play_sessions')
    .set({ status: 'closed', ended_at: sql<number>`last_heartbeat_at`, end_reason: 'timeout' })
    .where('status', '=', 'active')
    .where('last_heartbeat_at', '<=', cutoff)
    .$if(id !== undefined, (qb) => qb.where('id', '=', id!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Adds to the game's stats.plays. Primary-key update; the row lock is held to commit, so it is the last write of start. */
export async function countPlay(db: Executor, gameId: number): Promise<void> {
  await db.updateTable('games').set({ plays: sql<number>`plays + 1` }).where('id', '=', gameId).execute();
}

/**
 * Adds credited seconds to the game's stats (playtime_hours). Primary-key update of one hot row (every player of the
 * game heartbeats): it is the last write of the heartbeat transaction, so its row lock is held only until the commit.
 */
export async function addPlaytime(db: Executor, gameId: number, seconds: number): Promise<void> {
  await playtime.execute(db, seconds, gameId);
}
const playtime = prepared((db, seconds: number, gameId: number) =>
  db.updateTable('games').set({ playtime_seconds: sql<number>`playtime_seconds + ${seconds}` }).where('id', '=', gameId),
);

export interface OneStatementCredit {
  id: number;
  playerId: number;
  gameId: number;
  /** credited_until as read: the compare of the compare-and-set */
  expectedUntil: number;
  until: number;
  now: number;
  /** `YYYY-MM-DD` in reset_timezone of the one day segment: today */
  day: string;
  /** 0: nothing to credit, the session is only kept alive (and closed if today is used up) */
  seconds: number;
  /** the daily allowance of a free player; null: no cap and never closed for the limit */
  cap: number | null;
}

export interface OneStatementResult {
  /** seconds the day counter took (≤ seconds; less when the cap cut it) */
  credited: number;
  /** the session's credited_seconds afterwards */
  total: number;
  /** the day's counter afterwards */
  usedToday: number;
  /** the session was closed for the limit */
  limit: boolean;
}

/**
 * PostgreSQL only: a heartbeat's whole credit of one day segment, or of nothing (no close asked), in one statement, so no
 * BEGIN and COMMIT round trips. The same row locks in the same order as the transaction path (session → day row → game):
 *   s:     SELECT … FOR UPDATE of the session with the compare-and-set's condition (status active, credited_until as
 *          read). The losing racer waits for the winner's lock, re-reads the row, no longer matches: no row, and nothing
 *          below runs (every later step reads from s), so the caller re-reads (Reread).
 *   u:     the capped daily_usage upsert of usage.repository (ON CONFLICT locks the day row; last_credit is what it took).
 *   upd:   one UPDATE of the session, charged what u took (claim and refund at once: a statement may not update a
 *          row twice), closed for the limit when a capped day reached the cap.
 *   games: playtime, only when something was credited; its hot row lock is the last one taken.
 * The steps chain by reading each other's rows, which orders them; s is MATERIALIZED so it is never inlined.
 * Named prepared statement (prepared.ts). Returns undefined when the claim lost.
 */
export async function creditInOneStatement(db: Executor, c: OneStatementCredit): Promise<OneStatementResult | undefined> {
  const row = c.seconds === 0
    ? c.cap === null
      ? await keepAliveUnlimited.first(db, c.id, c.expectedUntil, c.playerId, c.day, c.now)
      : await keepAliveCapped.first(db, c.id, c.expectedUntil, c.playerId, c.day, c.now, c.cap)
    : c.cap === null
    ? await creditUnlimited.first(db, c.id, c.expectedUntil, c.playerId, c.day, c.seconds, c.until, c.now, c.gameId)
    : await creditCapped.first(db, c.id, c.expectedUntil, c.playerId, c.day, c.seconds, c.until, c.now, c.gameId, c.cap);
  if (!row) return undefined;
  return { credited: Number(row.credited), total: Number(row.total), usedToday: Number(row.used_today), limit: row.closed === 1 };
}

interface OneStatementRow {
  credited: number;
  total: number;
  used_today: number;
  closed: number;
}

/** The statement of creditInOneStatement; `cap` absent: the unlimited variant (no cap, no limit close). */
function oneStatementCredit(
  db: Db, id: number, expectedUntil: number, playerId: number, day: string, seconds: number, until: number, now: number, gameId: number, cap?: number,
): Compilable<OneStatementRow> {
  const add = sql<number>`cast(${seconds} as integer)`;
  const first = cap === undefined ? add : sql<number>`least(${add}, cast(${cap} as integer))`;
  const old = sql`daily_usage.seconds`;
  const next = cap === undefined
    ? sql`${old} + ${add}`
    : sql`case when ${old} >= cast(${cap} as integer) then ${old} when ${old} + ${add} > cast(${cap} as integer) then cast(${cap} as integer) else ${old} + ${add} end`;
  const closes = cap === undefined ? sql`false` : sql`u.seconds >= cast(${cap} as integer)`;
  const query = sql<OneStatementRow>`with s as materialized (
  select id from play_sessions where id = cast(${id} as integer) and status = 'active' and credited_until = cast(${expectedUntil} as bigint) for update
), u as (
  insert into daily_usage (player_id, day, seconds, sessions, last_credit)
  select cast(${playerId} as integer), cast(${day} as text), ${first}, 0, ${first} from s
  on conflict (player_id, day) do update set seconds = ${next}, last_credit = (${next}) - ${old}
  returning seconds, last_credit
), upd as (
  update play_sessions p set credited_until = cast(${until} as bigint), last_heartbeat_at = cast(${now} as bigint),
    credited_seconds = p.credited_seconds + u.last_credit,
    status = case when ${closes} then 'closed' else p.status end,
    ended_at = case when ${closes} then cast(${now} as bigint) else p.ended_at end,
    end_reason = case when ${closes} then 'limit' else p.end_reason end
  from u where p.id = cast(${id} as integer)
  returning p.credited_seconds, p.status
), g as (
  update games set playtime_seconds = playtime_seconds + u.last_credit from u where games.id = cast(${gameId} as integer) and u.last_credit > 0
)
select u.last_credit as credited, upd.credited_seconds as total, u.seconds as used_today, case when upd.status = 'closed' then 1 else 0 end as closed
from upd cross join u`;
  return { compile: () => query.compile(db) };
}

/**
 * The statement of creditInOneStatement when there is nothing to credit (under a second since credited_until, as when
 * a shell sends a heartbeat again at once): s as in oneStatementCredit; u only reads the day's counter (no day row is
 * written or created); upd keeps the session alive and closes it for the limit when another game used up the day.
 */
function keepAliveStatement(db: Db, id: number, expectedUntil: number, playerId: number, day: string, now: number, cap?: number): Compilable<OneStatementRow> {
  const closes = cap === undefined ? sql`false` : sql`u.seconds >= cast(${cap} as integer)`;
  const query = sql<OneStatementRow>`with s as materialized (
  select id from play_sessions where id = cast(${id} as integer) and status = 'active' and credited_until = cast(${expectedUntil} as bigint) for update
), u as (
  select coalesce((select seconds from daily_usage where player_id = cast(${playerId} as integer) and day = cast(${day} as text)), 0) as seconds from s
), upd as (
  update play_sessions p set last_heartbeat_at = cast(${now} as bigint),
    status = case when ${closes} then 'closed' else p.status end,
    ended_at = case when ${closes} then cast(${now} as bigint) else p.ended_at end,
    end_reason = case when ${closes} then 'limit' else p.end_reason end
  from u where p.id = cast(${id} as integer)
  returning p.credited_seconds, p.status
)
select 0 as credited, upd.credited_seconds as total, u.seconds as used_today, case when upd.status = 'closed' then 1 else 0 end as closed
from upd cross join u`;
  return { compile: () => query.compile(db) };
}

const keepAliveUnlimited = prepared((db, id: number, expectedUntil: number, playerId: number, day: string, now: number) =>
  keepAliveStatement(db, id, expectedUntil, playerId, day, now),
);
const keepAliveCapped = prepared((db, id: number, expectedUntil: number, playerId: number, day: string, now: number, cap: number) =>
  keepAliveStatement(db, id, expectedUntil, playerId, day, now, cap),
);

const creditUnlimited = prepared((db, id: number, expectedUntil: number, playerId: number, day: string, seconds: number, until: number, now: number, gameId: number) =>
  oneStatementCredit(db, id, expectedUntil, playerId, day, seconds, until, now, gameId),
);
const creditCapped = prepared((db, id: number, expectedUntil: number, playerId: number, day: string, seconds: number, until: number, now: number, gameId: number, cap: number) =>
  oneStatementCredit(db, id, expectedUntil, playerId, day, seconds, until, now, gameId, cap),
);
