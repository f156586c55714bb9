// Counts shown by GET /status.
import type { Executor } from '../../db/connect.js';

/** Games clients can see (published and beta). */
export async function countListedGames(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('games')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['published', 'beta'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Distinct players with an active play session: none until play sessions exist. */
export async function countPlayersOnline(_db: Executor): Promise<number> {
  return 0;
}
