// Queries on preview_sessions: the `pv_` tokens a build's entry file is served with while a studio member previews it.
import type { Executor } from '../../db/connect.js';

export interface NewPreviewSession {
  token_hash: string;
  game_id: number;
  build_id: number;
  player_id: number;
  created_at: number;
  expires_at: number;
}

export async function insertPreviewSession(db: Executor, values: NewPreviewSession): Promise<void> {
  await db.insertInto('preview_sessions').values(values).execute();
}

/** The unexpired preview session of this build whose player is active. Unique index on token_hash. */
export async function findPreviewSession(
  db: Executor,
  tokenHash: string,
  buildId: number,
  now: number,
): Promise<{ player_id: number } | undefined> {
  return db
    .selectFrom('preview_sessions as s')
    .innerJoin('players as p', 'p.id', 's.player_id')
    .select('s.player_id')
    .where('s.token_hash', '=', tokenHash)
    .where('s.build_id', '=', buildId)
    .where('s.expires_at', '>', now)
    .where('p.status', '=', 'active')
    .executeTakeFirst();
}

/** Ends a player's preview sessions of these games (the player left their studio, or the game changed hands). */
export async function deletePreviewSessions(db: Executor, gameIds: number[], playerId?: number): Promise<void> {
  if (!gameIds.length) return;
  let query = db.deleteFrom('preview_sessions').where('game_id', 'in', gameIds);
  if (playerId !== undefined) query = query.where('player_id', '=', playerId);
  await query.execute();
}

export async function deleteExpiredPreviewSessions(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('preview_sessions').where('expires_at', '<=', now).execute();
}
