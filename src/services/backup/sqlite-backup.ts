// SQLite's side of a backup: a consistent copy of the live file by VACUUM INTO (one read transaction: in WAL mode the
// service keeps writing meanwhile), and a restore through SQLite's online backup API.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { Sqlite } from '../../db/sqlite-driver.js';
import type { Snapshot } from './snapshot.js';

export const SQLITE_FILE = 'database.sqlite';

/** Copies the database into `dir` in one read transaction; the snapshot is that copy, opened read-only. */
export async function sqliteSnapshot(file: string, dir: string): Promise<Snapshot> {
  const copy = path.join(dir, SQLITE_FILE);
  const source = new Sqlite(file, { fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  let startedAt: number;
  try {
    startedAt = Date.now();
    source.prepare('vacuum into ?').run(copy);
  } finally {
    source.close();
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(copy, { readonly: true }) }) });
  return {
    startedAt,
    db,
    databaseFile: SQLITE_FILE,
    async dump() {},
    async close() {
      await db.destroy();
    },
  };
}

/** Whether the SQLite file holds any table. */
export function sqliteHasTables(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Sqlite(file, { readonly: true, fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    return (db.prepare("select count(*) from sqlite_master where type = 'table'").pluck().get() as number) > 0;
  } finally {
    db.close();
  }
}

/** Replaces the database at `target` with the backup's copy, page by page, as SQLite's backup API does. */
export async function restoreSqlite(copy: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const source = new Sqlite(copy, { readonly: true, fileMustExist: true });
  try {
    await source.backup(target);
  } finally {
    source.close();
  }
}
