// Counts shown by GET /status.
import type { Executor } from '../../db/connect.js';
import { LISTED_STATUSES } from '../games/manifest.js';

/** Games clients can see (published and beta). */
export async function countListedGames(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('games')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Distinct players with an active play session heard from after `since` (an idle session the sweep has not closed
 * yet does not count). Index play_sessions_sweep_idx (status, last_heartbeat_at): a range scan over the live sessions.
 */
export async function countPlayersOnline(db: Executor, since: number): Promise<number> {
  const row = await db
    .selectFrom('play_sessions')
    .select((eb) => eb.fn.count<number>('player_id').distinct().as('n'))
    .where('status', '=', 'active')
    .where('last_heartbeat_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
