// `gameplatform restore <file>`: puts a backup's stored objects back into the store, replaces the database with the
// backup's, and migrates it forward to this version. It refuses a backup of another database kind or of a newer
// version, and a database that holds tables unless confirmed (docs/operations.md, "Backups").
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { extract } from 'tar';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { displayDatabaseUrl } from '../../db/reachability.js';
import { CliRefusal } from '../../lib/refusal.js';
import type { ObjectStore } from '../storage/store.js';
import { removeStaleStaging } from './backup.js';
import { MANIFEST_FILE, OBJECTS_DIR, parseManifest, type BackupManifest } from './manifest.js';
import { restoreObjects, type RestoredObjects } from './objects.js';
import { postgresHasTables, restorePostgres } from './postgres-backup.js';
import { restoreSqlite, sqliteHasTables } from './sqlite-backup.js';

/** A backup taken by a newer version of the service: this version cannot know its schema (as migrate's status 4). */
export const NEWER_BACKUP_EXIT = 4;

export interface RestoreOptions {
  config: Config;
  store: ObjectStore;
  /** asked before a database that holds tables is replaced; false refuses */
  confirmReplace: (what: string) => Promise<boolean>;
  /** the content type a restored object is stored with (an object store serves it to a CDN so) */
  contentTypeOf: (key: string) => string | undefined;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** the migrations applied after the backup's database was loaded */
  migrated: string[];
  objects: RestoredObjects;
}

async function readArchiveManifest(file: string, staging: string): Promise<BackupManifest> {
  try {
    await extract({ file, cwd: staging, strict: true, filter: (entry) => entry === MANIFEST_FILE });
  } catch (error) {
    throw new CliRefusal(`${file} is not a gameplatform backup: ${(error as Error).message}`);
  }
  const manifestFile = path.join(staging, MANIFEST_FILE);
  if (!existsSync(manifestFile))
    throw new CliRefusal(`${file} is not a gameplatform backup: it has no ${MANIFEST_FILE}`);
  return parseManifest(await readFile(manifestFile, 'utf8'), file);
}

/** Refuses what cannot be restored here, before anything is touched. */
function checkRestorable(manifest: BackupManifest, config: Config, file: string): void {
  if (manifest.dialect !== config.database_kind)
    throw new CliRefusal(
      `${file} is a backup of a ${manifest.dialect} database; database_url names a ${config.database_kind} one (a backup restores into the same kind)`,
    );
  const unknown = manifest.migrations.filter((name) => !(name in migrations));
  if (unknown.length)
    throw new CliRefusal(
      `${file} was taken by a newer version (${manifest.service_version}) whose migrations this version does not know (${unknown.join(', ')}): restore it with that version or a newer one`,
      { exitCode: NEWER_BACKUP_EXIT },
    );
}

async function hasTables(config: Config): Promise<boolean> {
  return config.database_kind === 'postgres'
    ? postgresHasTables(config.database_url)
    : sqliteHasTables(config.database_url);
}

async function migrateForward(config: Config): Promise<string[]> {
  const database = openDatabase(config.database_url);
  try {
    return await migrateToLatest(database.db);
  } finally {
    await database.destroy();
  }
}

export async function restoreBackup(file: string, options: RestoreOptions): Promise<RestoreResult> {
  const { config } = options;
  const source = path.resolve(file);
  if (!existsSync(source)) throw new CliRefusal(`there is no backup at ${source}`);
  await mkdir(config.data_dir, { recursive: true });
  await removeStaleStaging(config.data_dir);
  const staging = await mkdtemp(path.join(config.data_dir, '.restore-'));
  try {
    const manifest = await readArchiveManifest(source, staging);
    checkRestorable(manifest, config, file);
    if (await hasTables(config)) {
      const what = `replace every table of ${displayDatabaseUrl(config.database_url)} with the backup of ${manifest.snapshot_started_at}`;
      if (!(await options.confirmReplace(what)))
        throw new CliRefusal(`the database is not empty: restore would ${what}; confirm with --yes`);
    }
    await extract({ file: source, cwd: staging, strict: true });
    // The objects first: a database restored a moment earlier would point at objects not there yet.
    const objects = await restoreObjects(
      options.store,
      manifest.objects,
      path.join(staging, OBJECTS_DIR),
      options.contentTypeOf,
    );
    const database = path.join(staging, manifest.database_file);
    if (config.database_kind === 'postgres')
      await restorePostgres(config.database_url, database, manifest.schema ?? 'public', staging);
    else await restoreSqlite(database, config.database_url);
    const migrated = await migrateForward(config);
    return { manifest, migrated, objects };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
