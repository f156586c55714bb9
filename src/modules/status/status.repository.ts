// Counts shown by GET /status.
import { sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { type Params, statement } from '../../db/statement.js';
import { LISTED_STATUSES } from '../games/manifest.js';

/** Games clients can see (published and beta). */
export async function countListedGames(db: Executor): Promise<number> {
  return Number((await listedGames.first(db))!.n);
}
const listedGames = statement('status.listedGames', (_p, db) =>
  db
    .selectFrom('games')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', [...LISTED_STATUSES]),
);

/**
 * Distinct players with an active play session heard from after `since` (an idle session the sweep has not closed
 * yet does not count). The open sessions from play_sessions_one_active_idx (partial: open sessions only; `status`
 * as a literal so that SQLite uses it), each one's last heartbeat checked in its row.
 */
export async function countPlayersOnline(db: Executor, since: number): Promise<number> {
  return Number((await playersOnline.first(db, { since }))!.n);
}
const playersOnline = statement('status.playersOnline', (p: Params<{ since: number }>, db) =>
  db
    .selectFrom('play_sessions')
    .select((eb) => eb.fn.count<number>('player_id').distinct().as('n'))
    .where('status', '=', sql.lit('active'))
    .where('last_heartbeat_at', '>', p.since),
);
