// A database snapshot during a backup: the moment it began, a read-only view of it, and the database file it yields.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface Snapshot {
  /** taken just before the snapshot's first statement: every write acknowledged earlier is in it */
  startedAt: number;
  /** reads the snapshot (the references, the applied migrations) */
  db: Kysely<Database>;
  /** the name of the database file in the archive */
  databaseFile: string;
  /** the schema dumped (PostgreSQL) */
  schema?: string;
  /** Writes the database file into the staging folder (SQLite wrote it when the snapshot was taken). */
  dump(dir: string): Promise<void>;
  close(): Promise<void>;
}
