// Queries on players.
import { sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { isPostgres } from '../../db/connect.js';
import type { NewPlayer, PlayerRow, PlayerUpdate } from '../../db/schema.js';

export function findPlayerById(db: Executor, id: number): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By lower-cased email (unique index) or lower-cased username (unique index on username_key). */
export function findPlayerByLogin(db: Executor, login: string): Promise<PlayerRow | undefined> {
  const key = login.toLowerCase();
  const column = key.includes('@') ? 'email' : 'username_key';
  return db.selectFrom('players').selectAll().where(column, '=', key).executeTakeFirst();
}

export function findPlayerByEmail(db: Executor, email: string): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findPlayerByUsername(db: Executor, username: string): Promise<PlayerRow | undefined> {
  return db.selectFrom('players').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirst();
}

export async function emailExists(db: Executor, email: string): Promise<boolean> {
  const row = await db.selectFrom('players').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** Whether another player holds this username, case-insensitively. */
export async function usernameTaken(db: Executor, username: string, exceptPlayerId?: number): Promise<boolean> {
  let query = db.selectFrom('players').select('id').where('username_key', '=', username.toLowerCase());
  if (exceptPlayerId !== undefined) query = query.where('id', '!=', exceptPlayerId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Which of the candidates (lower-cased) are taken: one query for the derived-username search. */
export async function takenUsernameKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('players').select('username_key').where('username_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.username_key));
}

export function insertPlayer(db: Executor, player: NewPlayer): Promise<PlayerRow> {
  return db.insertInto('players').values(player).returningAll().executeTakeFirstOrThrow();
}

export function updatePlayer(db: Executor, id: number, changes: PlayerUpdate): Promise<PlayerRow | undefined> {
  return db.updateTable('players').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Serialises writers of one player's tokens or avatar inside a transaction: a row lock on PostgreSQL;
 * on SQLite every transaction already holds the write lock (BEGIN IMMEDIATE).
 */
export async function lockPlayer(db: Executor, id: number): Promise<PlayerRow | undefined> {
  let query = db.selectFrom('players').selectAll().where('id', '=', id);
  if (isPostgres(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * The operators' search: the player with this id, with this email, or whose username or email starts with the text
 * (case-insensitively), accounts before guests, by username.
 */
export function searchPlayers(db: Executor, text: string, limit: number): Promise<PlayerRow[]> {
  const key = text.trim().toLowerCase();
  const prefix = `${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const id = /^\d{1,15}$/.test(key) ? Number(key) : null;
  return db
    .selectFrom('players')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(id === null ? [] : [eb('id', '=', id)]),
        sql<boolean>`username_key like ${prefix} escape '\\'`,
        sql<boolean>`email like ${prefix} escape '\\'`,
      ]),
    )
    .orderBy('guest')
    .orderBy('username_key')
    .limit(limit)
    .execute();
}
