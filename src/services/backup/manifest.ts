// manifest.json, the first file of a backup archive: what was backed up, when, from which schema, and every stored
// object the database points at (with whether the archive holds its bytes).
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CliRefusal } from '../../lib/refusal.js';

export const MANIFEST_FILE = 'manifest.json';
export const OBJECTS_DIR = 'objects';
export const BACKUP_FORMAT = 'gameplatform-backup';
export const BACKUP_FORMAT_VERSION = 1;

const BackupObject = Type.Object({
  key: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  etag: Type.String(),
  /** the archive holds the bytes under objects/<key> */
  included: Type.Boolean(),
});

export const ManifestSchema = Type.Object({
  format: Type.Literal(BACKUP_FORMAT),
  format_version: Type.Literal(BACKUP_FORMAT_VERSION),
  service_version: Type.String(),
  created_at: Type.String(),
  /** taken just before the snapshot began: every write acknowledged before this moment is in the backup */
  snapshot_started_at: Type.String(),
  dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** the database file in the archive: a SQLite database, or a pg_dump archive (custom format) */
  database_file: Type.String(),
  /** PostgreSQL: the schema that was dumped */
  schema: Type.Optional(Type.String()),
  /** the migrations the database had applied, oldest first */
  migrations: Type.Array(Type.String()),
  store: Type.Object({ kind: Type.Union([Type.Literal('local'), Type.Literal('s3')]), location: Type.String() }),
  /** the folders of file sets the database points at (each one's objects are in `objects`) */
  prefixes: Type.Array(Type.String()),
  objects: Type.Array(BackupObject),
  /** objects the database points at that the store did not have when the backup was taken */
  missing: Type.Array(Type.String()),
});

export type BackupManifest = Static<typeof ManifestSchema>;
export type BackupObject = Static<typeof BackupObject>;

/** Parses and checks a manifest; anything else is a refusal naming the file. */
export function parseManifest(text: string, file: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliRefusal(`${file} is not a gameplatform backup: its ${MANIFEST_FILE} is not JSON`);
  }
  const format = (value as { format?: unknown; format_version?: unknown }) ?? {};
  if (format.format !== BACKUP_FORMAT) throw new CliRefusal(`${file} is not a gameplatform backup`);
  if (format.format_version !== BACKUP_FORMAT_VERSION)
    throw new CliRefusal(
      `${file} is a backup of format ${String(format.format_version)}; this version reads format ${BACKUP_FORMAT_VERSION}`,
    );
  if (!Value.Check(ManifestSchema, value)) {
    const error = Value.Errors(ManifestSchema, value).First();
    throw new CliRefusal(`${file} has a damaged ${MANIFEST_FILE} (${error?.path}: ${error?.message})`);
  }
  return value;
}
