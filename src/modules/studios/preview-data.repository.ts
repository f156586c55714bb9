// Queries on preview_states and preview_scores: the saves and scores of previews, apart from the live tables.
import type { Selectable } from 'kysely';
import { isPostgres, type Executor } from '../../db/connect.js';
import type { PreviewStatesTable } from '../../db/schema.js';

export type PreviewStateRow = Selectable<PreviewStatesTable>;

export interface PreviewSlot {
  playerId: number;
  gameId: number;
  slot: number;
}

export function findPreviewStates(db: Executor, playerId: number, gameId: number): Promise<PreviewStateRow[]> {
  return db
    .selectFrom('preview_states')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .orderBy('slot')
    .execute();
}

/** The slot's row, locked on PostgreSQL until the transaction ends. Primary key. */
export function findPreviewState(db: Executor, key: PreviewSlot, lock = false): Promise<PreviewStateRow | undefined> {
  const query = db
    .selectFrom('preview_states')
    .selectAll()
    .where('player_id', '=', key.playerId)
    .where('game_id', '=', key.gameId)
    .where('slot', '=', key.slot);
  return (lock && isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
}

export async function insertPreviewState(db: Executor, row: PreviewStateRow): Promise<void> {
  await db.insertInto('preview_states').values(row).execute();
}

export async function updatePreviewState(
  db: Executor,
  key: PreviewSlot,
  values: Pick<PreviewStateRow, 'version' | 'label' | 'state' | 'size_bytes' | 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('preview_states')
    .set(values)
    .where('player_id', '=', key.playerId)
    .where('game_id', '=', key.gameId)
    .where('slot', '=', key.slot)
    .execute();
}

export async function deletePreviewState(db: Executor, key: PreviewSlot): Promise<boolean> {
  const result = await db
    .deleteFrom('preview_states')
    .where('player_id', '=', key.playerId)
    .where('game_id', '=', key.gameId)
    .where('slot', '=', key.slot)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertPreviewScore(
  db: Executor,
  values: { game_id: number; player_id: number; board: string; score: number; meta: string | null; created_at: number },
): Promise<void> {
  await db.insertInto('preview_scores').values(values).execute();
}

export interface PreviewScoreRow {
  player_id: number;
  score: number;
  created_at: number;
  id: number;
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
  guest: number;
}

/** Every preview score of a board with its player (previews are played by a studio's few members). Index (game, board, player). */
export function findPreviewScores(db: Executor, gameId: number, board: string): Promise<PreviewScoreRow[]> {
  return db
    .selectFrom('preview_scores as s')
    .innerJoin('players as p', 'p.id', 's.player_id')
    .select([
      's.id',
      's.player_id',
      's.score',
      's.created_at',
      'p.username',
      'p.display_name',
      'p.country',
      'p.avatar_key',
      'p.guest',
    ])
    .where('s.game_id', '=', gameId)
    .where('s.board', '=', board)
    .orderBy('s.id')
    .execute();
}

/** Forgets every preview save and score of the game (a studio starting its tests over). */
export async function deletePreviewData(db: Executor, gameId: number): Promise<void> {
  await db.deleteFrom('preview_states').where('game_id', '=', gameId).execute();
  await db.deleteFrom('preview_scores').where('game_id', '=', gameId).execute();
}
