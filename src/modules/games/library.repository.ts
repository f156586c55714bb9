// The player's own shelf: favourite games and recently played ones (with their latest save), read from favorites,
// play_sessions and save_states joined to the listed games.
import { sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { GAME_COLUMNS, type GameRecord } from './games.repository.js';
import { LISTED_STATUSES } from './manifest.js';
import { playtimeSeconds } from './playtime.repository.js';

const QUALIFIED = [...GAME_COLUMNS.map((c) => `g.${c}` as const), playtimeSeconds('g')];

/** The player's favourite listed games, the most recently favourited first. Primary key (player_id, game_id) narrows it to the player. */
export function findFavoriteGames(
  db: Executor,
  playerId: number,
): Promise<Array<GameRecord & { favorited_at: number }>> {
  return db
    .selectFrom('favorites as f')
    .innerJoin('games as g', 'g.id', 'f.game_id')
    .select([...QUALIFIED, 'f.created_at as favorited_at'])
    .where('f.player_id', '=', playerId)
    .where('g.status', 'in', [...LISTED_STATUSES])
    .orderBy('f.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .execute();
}

/**
 * The listed games the player has played, the last played first, with when (the last time a session of the game was
 * heard from). play_sessions_player_idx (player_id, status, game_id) gives the player's sessions; one row per session.
 */
export async function findRecentGames(
  db: Executor,
  playerId: number,
  limit: number,
): Promise<Array<GameRecord & { last_played: number }>> {
  const last = db
    .selectFrom('play_sessions')
    .select(['game_id', (eb) => eb.fn.max('last_heartbeat_at').as('last_played')])
    .where('player_id', '=', playerId)
    .groupBy('game_id')
    .as('r');
  const rows = await db
    .selectFrom(last)
    .innerJoin('games as g', 'g.id', 'r.game_id')
    .select([...QUALIFIED, 'r.last_played'])
    .where('g.status', 'in', [...LISTED_STATUSES])
    .orderBy('r.last_played', 'desc')
    .orderBy('g.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, last_played: Number(row.last_played) }));
}

export interface SaveRow {
  game_id: number;
  slot: number;
  label: string | null;
  updated_at: number;
}

/** The player's filled save slots of these games (primary key player_id, game_id, slot); empty slots (state NULL) are left out. */
export function findFilledSlots(db: Executor, playerId: number, gameIds: number[]): Promise<SaveRow[]> {
  if (!gameIds.length) return Promise.resolve([]);
  return db
    .selectFrom('save_states')
    .select(['game_id', 'slot', 'label', 'updated_at'])
    .where('player_id', '=', playerId)
    .where('game_id', 'in', gameIds)
    .where('state', 'is not', null)
    .execute();
}

/** Adds `fromId`'s favourites to `toId`'s (those it has already stay as they are); returns how many were added. */
export async function copyFavorites(db: Executor, fromId: number, toId: number): Promise<number> {
  const rows = await db
    .insertInto('favorites')
    .columns(['player_id', 'game_id', 'created_at'])
    .expression(
      db
        .selectFrom('favorites')
        .select([sql<number>`cast(${toId} as integer)`.as('player_id'), 'game_id', 'created_at'])
        .where('player_id', '=', fromId),
    )
    .onConflict((oc) => oc.columns(['player_id', 'game_id']).doNothing())
    .returning('game_id')
    .execute();
  return rows.length;
}
