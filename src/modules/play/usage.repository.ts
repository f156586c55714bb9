// Queries on daily_usage: seconds credited and sessions started per player per day in reset_timezone.
// Primary key (player_id, day): every query here is a point lookup or a short range scan of one player's days.
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db, type Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';

/** Seconds credited to the player on `day`. Primary-key lookup. */
export async function usedSeconds(db: Executor, playerId: number, day: string): Promise<number> {
  const row = await usedSecondsQuery.first(db, { playerId, day });
  return row?.seconds ?? 0;
}
// Compiled once: a heartbeat with nothing to credit (a second one within the same second) reads it.
const usedSecondsQuery = statement('usage.usedSeconds', (p: Params<{ playerId: number; day: string }>, db) =>
  db.selectFrom('daily_usage').select('seconds').where('player_id', '=', p.playerId).where('day', '=', p.day),
);

export interface UsageAfterCredit {
  /** the day's counter after the credit */
  seconds: number;
  /** what the credit actually added: `add`, or less when the cap cut it */
  added: number;
}

/**
 * Adds `add` seconds to the player's day, never past `cap` (null: no cap), in one upsert.
 * The cap is applied inside the UPDATE against the row as locked (PostgreSQL: ON CONFLICT locks the existing row;
 * SQLite: the write lock is held), so sessions of several games crediting at once never pass it; `last_credit`
 * is computed in the same SET from the old value, which tells the caller what was really taken.
 * Cost: one primary-key upsert (index daily_usage_pk), one row lock held until the transaction commits.
 */
export async function addUsage(
  db: Executor,
  playerId: number,
  day: string,
  add: number,
  cap: number | null,
): Promise<UsageAfterCredit> {
  const row =
    cap === null
      ? await addUnlimited.first(db, { playerId, day, add })
      : await addCapped.first(db, { playerId, day, first: Math.min(add, cap), add, cap });
  return { seconds: Number(row!.seconds), added: Number(row!.last_credit) };
}

/** addUsage's upsert; `next` is the day's new counter from the old one (`daily_usage.seconds`) and the credit. */
function usageUpsert(
  db: Db,
  playerId: ValueOrParam<number>,
  day: ValueOrParam<string>,
  first: ValueOrParam<number>,
  next: RawBuilder<number>,
) {
  const old = sql.ref<number>('daily_usage.seconds');
  return db
    .insertInto('daily_usage')
    .values({ player_id: playerId, day, seconds: first, sessions: 0, last_credit: first })
    .onConflict((oc) =>
      oc.columns(['player_id', 'day']).doUpdateSet({ seconds: next, last_credit: sql<number>`${next} - ${old}` }),
    )
    .returning(['seconds', 'last_credit']);
}

const addUnlimited = statement('usage.addUnlimited', (p: Params<{ playerId: number; day: string; add: number }>, db) =>
  usageUpsert(db, p.playerId, p.day, p.add, sql<number>`daily_usage.seconds + cast(${p.add} as integer)`),
);

const addCapped = statement(
  'usage.addCapped',
  (p: Params<{ playerId: number; day: string; first: number; add: number; cap: number }>, db) => {
    const old = sql.ref<number>('daily_usage.seconds');
    const x = sql<number>`cast(${p.add} as integer)`;
    return usageUpsert(
      db,
      p.playerId,
      p.day,
      p.first,
      sql<number>`case when ${old} >= ${p.cap} then ${old} when ${old} + ${x} > ${p.cap} then cast(${p.cap} as integer) else ${old} + ${x} end`,
    );
  },
);

/** Counts a session started on `day`; returns the day's credited seconds. Primary-key upsert. */
export async function countSessionStart(db: Executor, playerId: number, day: string): Promise<number> {
  const row = await db
    .insertInto('daily_usage')
    .values({ player_id: playerId, day, seconds: 0, sessions: 1, last_credit: 0 })
    .onConflict((oc) =>
      oc.columns(['player_id', 'day']).doUpdateSet({ sessions: sql<number>`daily_usage.sessions + 1` }),
    )
    .returning('seconds')
    .executeTakeFirstOrThrow();
  return Number(row.seconds);
}

export interface UsageDay {
  day: string;
  seconds: number;
  sessions: number;
}

/** The player's days from `oldest` to `newest` (inclusive) that have a row. Range scan of daily_usage_pk. */
export async function usageBetween(
  db: Executor,
  playerId: number,
  oldest: string,
  newest: string,
): Promise<UsageDay[]> {
  const rows = await db
    .selectFrom('daily_usage')
    .select(['day', 'seconds', 'sessions'])
    .where('player_id', '=', playerId)
    .where('day', '>=', oldest)
    .where('day', '<=', newest)
    .execute();
  return rows.map((r) => ({ day: r.day, seconds: Number(r.seconds), sessions: Number(r.sessions) }));
}

/** Every day row of the player, oldest first, locked for update on PostgreSQL (a merge of a guest: the lock order of crediting). */
export async function lockUsageDays(db: Executor, playerId: number): Promise<UsageDay[]> {
  let query = db
    .selectFrom('daily_usage')
    .select(['day', 'seconds', 'sessions'])
    .where('player_id', '=', playerId)
    .orderBy('day');
  if (isPostgres(db)) query = query.forUpdate();
  const rows = await query.execute();
  return rows.map((r) => ({ day: r.day, seconds: Number(r.seconds), sessions: Number(r.sessions) }));
}

/**
 * Adds another player's day (a guest merged into this one): its sessions, and its seconds never past `cap` (null: no
 * cap), in one primary-key upsert; returns what the seconds really grew by.
 */
export async function addUsageDay(db: Executor, playerId: number, day: UsageDay, cap: number | null): Promise<number> {
  const old = sql.ref<number>('daily_usage.seconds');
  const add = sql<number>`cast(${day.seconds} as integer)`;
  const next =
    cap === null
      ? sql<number>`${old} + ${add}`
      : sql<number>`case when ${old} >= ${cap} then ${old} when ${old} + ${add} > ${cap} then cast(${cap} as integer) else ${old} + ${add} end`;
  const first = cap === null ? day.seconds : Math.min(day.seconds, cap);
  const row = await db
    .insertInto('daily_usage')
    .values({ player_id: playerId, day: day.day, seconds: first, sessions: day.sessions, last_credit: first })
    .onConflict((oc) =>
      oc.columns(['player_id', 'day']).doUpdateSet({
        seconds: next,
        sessions: sql<number>`daily_usage.sessions + cast(${day.sessions} as integer)`,
        last_credit: sql<number>`${next} - ${old}`,
      }),
    )
    .returning('last_credit')
    .executeTakeFirstOrThrow();
  return Number(row.last_credit);
}
