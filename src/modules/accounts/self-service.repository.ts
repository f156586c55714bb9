// Queries of account self-service: what an export of the own data reads, and what purging a deleted account removes.
import type { Executor } from '../../db/connect.js';
import type { PlayerRow } from '../../db/schema.js';

/** Every token the player has had (revoked and expired ones too), by prefix: never the hash. */
export function exportTokens(db: Executor, playerId: number) {
  return db
    .selectFrom('player_tokens')
    .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'])
    .where('player_id', '=', playerId)
    .orderBy('id')
    .execute();
}

export function exportFavorites(db: Executor, playerId: number) {
  return db
    .selectFrom('favorites as f')
    .innerJoin('games as g', 'g.id', 'f.game_id')
    .select(['g.slug', 'g.name', 'f.created_at'])
    .where('f.player_id', '=', playerId)
    .orderBy('f.created_at')
    .orderBy('g.slug')
    .execute();
}

/** The player's votes on games (docs/api.md, "Ratings"): 1 up, -1 down. */
export function exportRatings(db: Executor, playerId: number) {
  return db
    .selectFrom('game_ratings as r')
    .innerJoin('games as g', 'g.id', 'r.game_id')
    .select(['g.slug', 'g.name', 'r.value', 'r.created_at', 'r.updated_at'])
    .where('r.player_id', '=', playerId)
    .orderBy('r.updated_at')
    .orderBy('g.slug')
    .execute();
}

/** Filled save slots with their payloads (an emptied slot holds no data). */
export function exportSaves(db: Executor, playerId: number) {
  return db
    .selectFrom('save_states as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .select(['g.slug', 's.slot', 's.version', 's.label', 's.state', 's.size_bytes', 's.created_at', 's.updated_at'])
    .where('s.player_id', '=', playerId)
    .where('s.state', 'is not', null)
    .orderBy('g.slug')
    .orderBy('s.slot')
    .execute();
}

export function exportScores(db: Executor, playerId: number) {
  return db
    .selectFrom('scores as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .select(['s.id', 'g.slug', 's.board', 's.score', 's.meta', 's.play_session_id', 's.created_at'])
    .where('s.player_id', '=', playerId)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
}

/** Play sessions without their token hashes. */
export function exportPlaySessions(db: Executor, playerId: number) {
  return db
    .selectFrom('play_sessions as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .select([
      's.id',
      'g.slug',
      's.status',
      's.started_at',
      's.last_heartbeat_at',
      's.ended_at',
      's.end_reason',
      's.credited_seconds',
    ])
    .where('s.player_id', '=', playerId)
    .orderBy('s.started_at')
    .orderBy('s.id')
    .execute();
}

export function exportDailyUsage(db: Executor, playerId: number) {
  return db
    .selectFrom('daily_usage')
    .select(['day', 'seconds', 'sessions'])
    .where('player_id', '=', playerId)
    .orderBy('day')
    .execute();
}

/**
 * The statuses of an account whose deletion is pending (deletion_due_at set): waiting for it, or suspended while
 * waiting. A suspension does not cancel a deletion the player asked for; only the player's own login does.
 */
export const PENDING_DELETION = ['deleting', 'suspended'] as const;

/** Players whose deletion grace period is over (index players_deletion_due_idx), oldest first. */
export async function playersDueForPurge(db: Executor, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('players')
    .select('id')
    .where('status', 'in', PENDING_DELETION)
    .where('deletion_due_at', '<=', now)
    .orderBy('deletion_due_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Deletes the player row if it is still due (a login that cancelled the deletion wins); everything keyed by the player
 * goes with it (ON DELETE CASCADE: tokens, mail tokens, sessions, usage, favourites, saves, scores, bests).
 */
export async function deleteDuePlayer(
  db: Executor,
  playerId: number,
  now: number,
): Promise<{ email: string | null; avatar_key: string | null } | undefined> {
  return db
    .deleteFrom('players')
    .where('id', '=', playerId)
    .where('status', 'in', PENDING_DELETION)
    .where('deletion_due_at', '<=', now)
    .returning(['email', 'avatar_key'])
    .executeTakeFirst();
}

/**
 * The account's mail still in the outbox (kept or waiting for the SMTP server) goes with it: every mail sent for the
 * player (to its address, a new address it asked for, an earlier one), and any other mail to its address.
 */
export async function deleteOutboxMailOf(db: Executor, playerId: number, address: string | null): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where((eb) =>
      address === null
        ? eb('player_id', '=', playerId)
        : eb.or([eb('player_id', '=', playerId), eb('to_address', '=', address)]),
    )
    .execute();
}

/** Score replies kept for Idempotency-Key replays hold the player's data too. */
export async function deleteScoreRequestsOf(db: Executor, playerId: number): Promise<void> {
  await db.deleteFrom('score_requests').where('caller', '=', `player:${playerId}`).execute();
}

/** Cancels a pending deletion (status back to active); undefined when the account is not waiting for deletion any more. */
export function restoreDeletingPlayer(db: Executor, playerId: number, now: number): Promise<PlayerRow | undefined> {
  return db
    .updateTable('players')
    .set({ status: 'active', deletion_due_at: null, updated_at: now })
    .where('id', '=', playerId)
    .where('status', '=', 'deleting')
    .returningAll()
    .executeTakeFirst();
}
