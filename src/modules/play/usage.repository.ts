// Queries on daily_usage: seconds credited per player per day in reset_timezone.
import type { Executor } from '../../db/connect.js';

/** Seconds credited to the player on `day`. Primary-key lookup. */
export async function usedSeconds(db: Executor, playerId: number, day: string): Promise<number> {
  const row = await db.selectFrom('daily_usage').select('seconds').where('player_id', '=', playerId).where('day', '=', day).executeTakeFirst();
  return row?.seconds ?? 0;
}
