// Queries on play_sessions (and the game and player rows a session needs). Every write here is a conditional UPDATE:
// the condition is what makes concurrent heartbeats, ends, starts and sweeps safe without locks taken in advance.
import { sql, type Compilable } from 'kysely';
import { isPostgres, type Db, type Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { MembershipFields } from '../accounts/membership.js';
import { PLAYTIME_SHARDS } from '../games/playtime.repository.js';

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
  return db
    .selectFrom('games')
    .select(['id', 'slug', 'status', 'entry', 'files_dir', 'requires_premium'])
    .where('slug', '=', slug)
    .executeTakeFirst();
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
      's.id',
      's.player_id',
      's.game_id',
      'g.slug as game_slug',
      's.status',
      's.started_at',
      's.last_heartbeat_at',
      's.credited_until',
      's.credited_seconds',
      's.ended_at',
      's.end_reason',
      'p.role',
      'p.membership_plan',
      'p.membership_status',
      'p.membership_renews_at',
      'p.membership_ends_at',
    ]);
}

/**
 * The session with this token hash, with its game's slug and its player's membership.
 * Hot (every heartbeat): unique index on play_sessions.token_hash, then primary-key lookups of games and players; three index probes.
 */
export function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionRow | undefined> {
  return sessionByTokenHash.first(db, { tokenHash });
}
const sessionByTokenHash = statement(
  'play.sessionByTokenHash',
  (p: Params<{ tokenHash: string }>, db) => sessions(db).where('s.token_hash', '=', p.tokenHash),
  { sqliteParamsFromOneRow: true },
);

/** The player's active sessions of one game (at most one: play_sessions_one_active_idx). Index play_sessions_player_idx. */
export function findActiveSessions(db: Executor, playerId: number, gameId: number): Promise<SessionRow[]> {
  return sessions(db)
    .where('s.player_id', '=', playerId)
    .where('s.status', '=', 'active')
    .where('s.game_id', '=', gameId)
    .execute();
}

/**
 * Play sessions open now (GET /metrics, on each scrape). Counted from play_sessions_one_active_idx, which holds the
 * open sessions only (`status` as a literal, so SQLite uses that partial index).
 */
export async function countActiveSessions(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('play_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', sql.lit('active'))
    .executeTakeFirstOrThrow();
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
      token_hash: s.token_hash,
      player_id: s.player_id,
      game_id: s.game_id,
      status: 'active',
      started_at: s.now,
      last_heartbeat_at: s.now,
      credited_until: s.now,
      credited_seconds: 0,
      continues_play: s.continues ? 1 : 0,
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
    const row = await claim.first(db, {
      until: c.until,
      now: c.now,
      seconds: c.seconds,
      id: c.id,
      expectedUntil: c.expectedUntil,
    });
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
const claim = statement(
  'play.claim',
  (p: Params<{ until: number; now: number; seconds: number; id: number; expectedUntil: number }>, db) =>
    db
      .updateTable('play_sessions')
      .set({
        credited_until: p.until,
        last_heartbeat_at: p.now,
        credited_seconds: sql<number>`credited_seconds + ${p.seconds}`,
      })
      .where('id', '=', p.id)
      .where('status', '=', 'active')
      .where('credited_until', '=', p.expectedUntil)
      .returning('credited_seconds'),
);

/**
 * After the daily cap took less than claimed: gives back the difference, and closes the session when `close` is set
 * (the limit). The row is already locked by this transaction's claim. Primary-key update.
 */
export async function settleClaim(
  db: Executor,
  id: number,
  refund: number,
  now: number,
  close: string | null,
): Promise<void> {
  await db
    .updateTable('play_sessions')
    .set({
      credited_seconds: sql<number>`credited_seconds - ${refund}`,
      ...(close ? { status: 'closed', ended_at: now, end_reason: close } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Closes idle sessions (no heartbeat since `cutoff`) with reason timeout; ended_at is the last time the session was
 * heard from, and nothing is credited for the silence. One statement: a session that a concurrent heartbeat refreshed,
 * or a concurrent sweep closed, no longer matches when its row lock is granted, so each session closes once.
 * `id` narrows it to one session (a heartbeat or end that finds it idle). Without it, the open sessions from
 * play_sessions_one_active_idx (a partial index of those only; `status` as a literal so that SQLite uses it), each
 * one's last heartbeat checked in its row: no index holds last_heartbeat_at, so a heartbeat changes no index
 * (migration 2026_11_27_1900).
 */
export async function closeIdleSessions(db: Executor, cutoff: number, id?: number): Promise<number> {
  const result = await db
    .updateTable('play_sessions')
    .set({ status: 'closed', ended_at: sql<number>`last_heartbeat_at`, end_reason: 'timeout' })
    .where('status', '=', sql.lit('active'))
    .where('last_heartbeat_at', '<=', cutoff)
    .$if(id !== undefined, (qb) => qb.where('id', '=', id!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Adds to the game's stats.plays. Primary-key update; the row lock is held to commit, so it is the last write of start. */
export async function countPlay(db: Executor, gameId: number): Promise<void> {
  await db.updateTable('games').set({ plays: sql<number>`plays + 1` }).where('id', '=', gameId).execute();
}

export interface HeartbeatInput {
  tokenHash: string;
  /** the caller: another player's session is read, and neither written nor kept alive */
  playerId: number;
  now: number;
  /** max_heartbeat_gap, in ms */
  gapMs: number;
  /** a session whose last heartbeat is at or before this is idle: not written here */
  idleCutoff: number;
  /** today in reset_timezone: its first instant, and its `YYYY-MM-DD` */
  dayStart: number;
  day: string;
  /** the daily allowance of a free player; null: no cap and never closed for the limit */
  cap: number | null;
}

export interface HeartbeatCredit {
  /** seconds the day counter took (less than the plan when the cap cut it) */
  credited: number;
  /** the session's credited_seconds afterwards */
  total: number;
  /** the day's counter afterwards */
  usedToday: number;
  /** the session was closed for the limit */
  limit: boolean;
}

export interface HeartbeatOutcome {
  /** the session with this token, as read (locked) before the write; undefined when no session has it */
  session: SessionRow | undefined;
  /** what was credited; undefined when nothing was written (see heartbeatInOneStatement) */
  credit: HeartbeatCredit | undefined;
}

/**
 * PostgreSQL only: a whole heartbeat in one statement, the session read included (one round trip after the credential).
 * It reads the session by its token hash and locks it (FOR UPDATE: a concurrent heartbeat waits, then reads the row the
 * first one left, so an interval is credited once). It writes only when the session is the caller's, active, not idle,
 * and its credit falls in today: the credit rule of credit.ts (planCredit), with the seconds since credited_until, at
 * most gapMs, whole seconds, and the whole interval at or after dayStart; or nothing to credit (under a second), when
 * the session is only kept alive. Otherwise it writes nothing and returns the row: the caller answers 404 or 410,
 * closes an idle session, or credits across midnight in a transaction.
 * The writes, in the lock order of the transaction path (session, day row, game):
 *   u:   the capped daily_usage upsert of usage.repository (ON CONFLICT locks the day row; last_credit is what it took);
 *        skipped when there is nothing to credit (no day row is created), then today's counter is only read;
 *   upd: the session, charged what u took, closed for the limit when a capped day reached the cap;
 *   g:   the game's playtime shard (games/playtime.repository.ts), only when something was credited; last.
 * Named prepared statement (db/statement.ts). On SQLite, whose writes are not worth folding into one statement (no round
 * trip), it only reads the session: the caller credits it in a transaction, as after any heartbeat this cannot write.
 */
export async function heartbeatInOneStatement(db: Executor, input: HeartbeatInput): Promise<HeartbeatOutcome> {
  const { cap, ...args } = input;
  if (!isPostgres(db)) return { session: await findSessionByTokenHash(db, args.tokenHash), credit: undefined };
  const row =
    cap === null ? await heartbeatUnlimited.first(db, args) : await heartbeatCapped.first(db, { ...args, cap });
  if (!row) return { session: undefined, credit: undefined };
  const { written, credited, total, used_today, closed, ...session } = row;
  const credit = written
    ? { credited: Number(credited), total: Number(total), usedToday: Number(used_today), limit: closed }
    : undefined;
  return { session, credit };
}

interface HeartbeatRow extends SessionRow {
  written: boolean;
  credited: number | null;
  total: number | null;
  used_today: number | null;
  closed: boolean;
}

type HeartbeatArgs = Omit<HeartbeatInput, 'cap'>;

function heartbeatStatement(db: Db, p: Params<HeartbeatArgs>, cap?: ValueOrParam<number>): Compilable<HeartbeatRow> {
  const { tokenHash, playerId, now, gapMs, idleCutoff, dayStart, day } = p;
  const at = sql`cast(${now} as bigint)`;
  const player = sql`cast(${playerId} as integer)`;
  const today = sql`cast(${day} as text)`;
  const limit = sql`cast(${cap} as integer)`;
  // excluded.seconds is what the insert would take: the plan's seconds, capped (the same outcome as capping old + seconds)
  const first = cap === undefined ? sql`c.seconds` : sql`least(c.seconds, ${limit})`;
  const old = sql`daily_usage.seconds`;
  const next =
    cap === undefined
      ? sql`${old} + excluded.seconds`
      : sql`case when ${old} >= ${limit} then ${old} when ${old} + excluded.seconds > ${limit} then ${limit} else ${old} + excluded.seconds end`;
  const closes = cap === undefined ? sql`false` : sql`t.used_today >= ${limit}`;
  // The session read of findSessionByTokenHash, locking the session row (not the game's or the player's).
  const read = sessions(db).where('s.token_hash', '=', tokenHash).forUpdate('s');
  const query = sql<HeartbeatRow>`with r as materialized (${read}), f as materialized (
  select id, credited_until, greatest(credited_until, ${at} - cast(${gapMs} as bigint)) as from_ms from r
  where player_id = ${player} and status = 'active' and last_heartbeat_at > cast(${idleCutoff} as bigint)
), c as materialized (
  select id, seconds, case when seconds = 0 then credited_until else from_ms + seconds * 1000 end as until
  from (select id, credited_until, from_ms, greatest(0, (${at} - from_ms) / 1000) as seconds from f) plan
  where seconds = 0 or from_ms >= cast(${dayStart} as bigint)
), u as (
  insert into daily_usage (player_id, day, seconds, sessions, last_credit)
  select ${player}, ${today}, ${first}, 0, ${first} from c where c.seconds > 0
  on conflict (player_id, day) do update set seconds = ${next}, last_credit = (${next}) - ${old}
  returning seconds, last_credit
), t as materialized (
  select c.id, c.until, coalesce((select last_credit from u), 0) as credited,
    coalesce((select seconds from u), (select seconds from daily_usage where player_id = ${player} and day = ${today}), 0) as used_today
  from c
), upd as (
  update play_sessions p set credited_until = t.until, last_heartbeat_at = ${at}, credited_seconds = p.credited_seconds + t.credited,
    status = case when ${closes} then 'closed' else p.status end,
    ended_at = case when ${closes} then ${at} else p.ended_at end,
    end_reason = case when ${closes} then 'limit' else p.end_reason end
  from t where p.id = t.id
  returning p.credited_seconds, p.status
), g as (
  insert into game_playtime (game_id, shard, seconds) select r.game_id, r.id % ${sql.lit(PLAYTIME_SHARDS)}, t.credited from t, r where t.credited > 0
  on conflict (game_id, shard) do update set seconds = game_playtime.seconds + excluded.seconds
)
select r.*, upd.status is not null as written, t.credited, upd.credited_seconds as total, t.used_today, coalesce(upd.status = 'closed', false) as closed
from r left join t on true left join upd on true`;
  return { compile: () => query.compile(db) };
}

const heartbeatUnlimited = statement('play.heartbeatUnlimited', (p: Params<HeartbeatArgs>, db) =>
  heartbeatStatement(db, p),
);
const heartbeatCapped = statement('play.heartbeatCapped', (p: Params<HeartbeatArgs & { cap: number }>, db) =>
  heartbeatStatement(db, p, p.cap),
);

/**
 * Closes the player's active sessions with `reason`, nothing credited past their last credit (a guest merged into an
 * account). PostgreSQL: the rows' locks make a heartbeat in flight finish first, or find the session closed after.
 * Index play_sessions_player_idx (player_id, status, game_id).
 */
export async function closePlayerSessions(
  db: Executor,
  playerId: number,
  now: number,
  reason: string,
): Promise<number> {
  const result = await db
    .updateTable('play_sessions')
    .set({ status: 'closed', ended_at: now, end_reason: reason })
    .where('player_id', '=', playerId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Gives every (closed) session of one player to another: the history a merged guest leaves to the account. */
export async function moveSessions(db: Executor, fromId: number, toId: number): Promise<void> {
  await db.updateTable('play_sessions').set({ player_id: toId }).where('player_id', '=', fromId).execute();
}
