// Queries on build_uploads: an upload in parts, open until it is completed into a build or expires.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { BuildUploadsTable } from '../../db/schema.js';

export type UploadRow = Selectable<BuildUploadsTable>;

export async function insertUpload(db: Executor, values: Insertable<BuildUploadsTable>): Promise<void> {
  await db.insertInto('build_uploads').values(values).execute();
}

/** The game's upload with this id that has not expired. Primary key. */
export function findUpload(db: Executor, gameId: number, id: string, now: number): Promise<UploadRow | undefined> {
  return db
    .selectFrom('build_uploads')
    .selectAll()
    .where('id', '=', id)
    .where('game_id', '=', gameId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Moves an open upload to `processing`; false when it was not open (being completed, or gone). */
export async function claimUpload(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .updateTable('build_uploads')
    .set({ state: 'processing' })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function reopenUpload(db: Executor, id: string): Promise<void> {
  await db.updateTable('build_uploads').set({ state: 'open' }).where('id', '=', id).execute();
}

export async function deleteUpload(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('build_uploads').where('id', '=', id).execute();
}

/** Uploads past their expiry (index on expires_at). */
export async function findExpiredUploads(db: Executor, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('build_uploads').select('id').where('expires_at', '<=', now).limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Which of these ids are uploads still known (the sweep deletes parts whose upload is gone). */
export async function knownUploads(db: Executor, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('build_uploads').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
