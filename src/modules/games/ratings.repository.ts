// Every query on game_ratings: a player's thumbs up (1) or down (-1) on a game (docs/api.md, "Ratings").
import { sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { LISTED_STATUSES } from './manifest.js';

export const UP = 1;
export const DOWN = -1;

/** A listed game's id by slug (unique index on slug). */
export function findListedGameId(db: Executor, slug: string): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('games')
    .select('id')
    .where('slug', '=', slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .executeTakeFirst();
}

/** The game's votes of each kind, counted from game_ratings_game_idx (game_id, value) alone. */
export async function countRatings(db: Executor, gameId: number): Promise<{ up: number; down: number }> {
  const rows = await db
    .selectFrom('game_ratings')
    .select(['value', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('game_id', '=', gameId)
    .groupBy('value')
    .execute();
  const count = (value: number) => Number(rows.find((r) => Number(r.value) === value)?.n ?? 0);
  return { up: count(UP), down: count(DOWN) };
}

/** The player's vote on the game (primary key), or undefined. */
export async function findPlayerRating(db: Executor, playerId: number, gameId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('game_ratings')
    .select('value')
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.value);
}

/** Records the player's vote, replacing the one it had on the game. */
export async function upsertRating(
  db: Executor,
  playerId: number,
  gameId: number,
  value: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('game_ratings')
    .values({ player_id: playerId, game_id: gameId, value, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['player_id', 'game_id']).doUpdateSet({
        value: (eb) => eb.ref('excluded.value'),
        updated_at: (eb) => eb.ref('excluded.updated_at'),
      }),
    )
    .execute();
}

export async function deleteRating(db: Executor, playerId: number, gameId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('game_ratings')
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A guest merged into an account: the guest's votes on games the account has not rated join the account's; how many. */
export async function copyRatings(db: Executor, fromId: number, toId: number): Promise<number> {
  const rows = await db
    .insertInto('game_ratings')
    .columns(['player_id', 'game_id', 'value', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('game_ratings')
        .select([sql<number>`cast(${toId} as integer)`.as('player_id'), 'game_id', 'value', 'created_at', 'updated_at'])
        .where('player_id', '=', fromId),
    )
    .onConflict((oc) => oc.columns(['player_id', 'game_id']).doNothing())
    .returning('game_id')
    .execute();
  return rows.length;
}
