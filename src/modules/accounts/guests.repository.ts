// Queries of guest players: the count of new guests per address and day, the guest row a claim takes over, and the
// idle guests the sweep purges.
import { sql } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import type { PlayerRow, PlayerUpdate } from '../../db/schema.js';

/**
 * Counts one more guest made from `address` on `day`, unless it made `cap` already: one upsert on the primary key
 * (address, day), whose DO UPDATE is skipped at the cap (then no row comes back). Two requests at once cannot both
 * take the last place: the row is locked by the first (PostgreSQL), or the write lock is held (SQLite).
 */
export async function countNewGuest(db: Executor, address: string, day: string, cap: number): Promise<boolean> {
  const row = await db
    .insertInto('guest_quotas')
    .values({ address, day, created: 1 })
    .onConflict((oc) =>
      oc
        .columns(['address', 'day'])
        .doUpdateSet({ created: sql<number>`guest_quotas.created + 1` })
        .where('guest_quotas.created', '<', cap),
    )
    .returning('created')
    .executeTakeFirst();
  return row !== undefined;
}

/** The counts of days before `day` (the sweep's cleanup: only today's count matters). */
export async function forgetQuotasBefore(db: Executor, day: string): Promise<void> {
  await db.deleteFrom('guest_quotas').where('day', '<', day).execute();
}

/** The guest with this id, locked (PostgreSQL; SQLite holds the write lock), if it is still a guest. */
export async function lockGuest(db: Executor, id: number): Promise<PlayerRow | undefined> {
  let query = db.selectFrom('players').selectAll().where('id', '=', id).where('guest', '=', 1);
  if (isPostgres(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Turns the guest into an account (the registration's fields); undefined when it is no longer a guest. */
export function claimGuestRow(db: Executor, id: number, changes: PlayerUpdate): Promise<PlayerRow | undefined> {
  return db
    .updateTable('players')
    .set({ ...changes, guest: 0 })
    .where('id', '=', id)
    .where('guest', '=', 1)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the guest row; everything keyed by the player goes with it (ON DELETE CASCADE). */
export async function deleteGuestRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('players').where('id', '=', id).where('guest', '=', 1).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A guest none of whose tokens was made or used after `cutoff` (tokens: player_tokens_player_idx). */
const idleSince = (cutoff: number) =>
  sql<boolean>`not exists (select 1 from player_tokens t where t.player_id = players.id
    and coalesce(t.last_used_at, t.created_at) > ${cutoff})`;

/**
 * Guests made at or before `cutoff` with no token used since, oldest first: the partial index players_guest_idx
 * (guests only, by created_at; `guest` as a literal so that SQLite uses it), then each one's tokens.
 */
export async function idleGuests(db: Executor, cutoff: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('players')
    .select('id')
    .where('guest', '=', sql.lit(1))
    .where('created_at', '<=', cutoff)
    .where(idleSince(cutoff))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether the guest is still idle since `cutoff`, under the caller's lock (a token used meanwhile keeps it). */
export async function isIdleGuest(db: Executor, id: number, cutoff: number): Promise<boolean> {
  const row = await db
    .selectFrom('players')
    .select('id')
    .where('id', '=', id)
    .where('guest', '=', 1)
    .where('created_at', '<=', cutoff)
    .where(idleSince(cutoff))
    .executeTakeFirst();
  return row !== undefined;
}
