// `gameplatform backup <file>`: a consistent snapshot of the database, taken while the service runs and writes, with
// the stored objects it points at (files under data_dir: their bytes; a bucket: a list, or their bytes with --objects),
// in one .tar.gz archive with a manifest (docs/operations.md, "Backups").
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';
import type { Config } from '../../config.js';
import { CliRefusal } from '../../lib/refusal.js';
import { serviceVersion } from '../../lib/version.js';
import type { ObjectStore } from '../storage/store.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  MANIFEST_FILE,
  OBJECTS_DIR,
  type BackupManifest,
  type BackupObject,
} from './manifest.js';
import { downloadObject, listStoreObjects, resolveReferences, stageLocalObjects, type Inventory } from './objects.js';
import { postgresSnapshot } from './postgres-backup.js';
import type { ReferenceReader, StoredReferences } from './references.js';
import type { Snapshot } from './snapshot.js';
import { sqliteSnapshot } from './sqlite-backup.js';

export interface BackupOptions {
  config: Config;
  store: ObjectStore;
  references: ReferenceReader;
  /** with a bucket: copy the objects into the archive too (files under data_dir always are) */
  includeObjects?: boolean;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** the archive's size in bytes */
  bytes: number;
}

async function takeSnapshot(config: Config, staging: string): Promise<Snapshot> {
  if (config.database_kind === 'postgres') return postgresSnapshot(config.database_url);
  if (!existsSync(config.database_url))
    throw new CliRefusal(`there is no database at ${config.database_url} to back up`);
  return sqliteSnapshot(config.database_url, staging);
}

async function appliedMigrations(snapshot: Snapshot): Promise<string[]> {
  try {
    const rows = await snapshot.db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never, 'timestamp' as never])
      .execute();
    return (rows as Array<{ name: string; timestamp: string }>)
      .sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.name < b.name ? -1 : 1))
      .map((row) => row.name);
  } catch {
    throw new CliRefusal('the database has never been migrated: there is nothing to back up');
  }
}

/** How many snapshots are taken, at most, while objects they point at keep disappearing before they are inventoried. */
const ATTEMPTS = 3;

interface Taken {
  snapshot: Snapshot;
  migrations: string[];
  references: StoredReferences;
  objects: BackupObject[];
  missing: string[];
}

/**
 * Takes the inventory, the snapshot, and the inventory again: every object the snapshot points at existed when it was
 * taken, and was either in the first inventory or is found by the second, unless it was created in the instant
 * between the first inventory and the snapshot and deleted again before the second (an avatar replaced twice in a
 * row). Then the snapshot is taken again, up to ATTEMPTS times; what is still missing is reported.
 */
async function snapshotWithObjects(
  options: BackupOptions,
  staging: string,
  takeInventory: () => Promise<void>,
  inventory: Inventory,
): Promise<Taken> {
  for (let attempt = 1; ; attempt++) {
    await takeInventory();
    const snapshot = await takeSnapshot(options.config, staging);
    try {
      const migrations = await appliedMigrations(snapshot);
      const references: StoredReferences = await options.references(snapshot.db);
      await takeInventory();
      const { objects, missing } = resolveReferences(references, inventory);
      if (!missing.length || attempt === ATTEMPTS) return { snapshot, migrations, references, objects, missing };
    } catch (error) {
      await snapshot.close();
      throw error;
    }
    await snapshot.close();
    await rm(path.join(staging, snapshot.databaseFile), { force: true });
  }
}

/** A day: staging folders older than that were left by a backup or restore that was killed. */
const STALE_STAGING_MS = 24 * 3600_000;

/** Removes the staging folders that a killed backup or restore left under data_dir (their database copy takes room). */
export async function removeStaleStaging(dataDir: string, now = Date.now()): Promise<void> {
  for (const entry of await readdir(dataDir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || !/^\.(backup|restore)-/.test(entry.name)) continue;
    const folder = path.join(dataDir, entry.name);
    const { mtimeMs } = await stat(folder);
    if (now - mtimeMs > STALE_STAGING_MS) await rm(folder, { recursive: true, force: true });
  }
}

/** Copies the objects of a bucket into the staging folder (--objects); one gone since the snapshot is missing. */
async function downloadObjects(store: ObjectStore, objects: BackupObject[], dir: string, missing: string[]) {
  for (const object of objects) {
    if (await downloadObject(store, object.key, dir)) object.included = true;
    else missing.push(object.key);
  }
}

/** Writes the manifest and packs the staging folder's files into `target`, renamed into place only once whole. */
async function writeArchive(staging: string, manifest: BackupManifest, target: string): Promise<number> {
  await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  const entries = [
    MANIFEST_FILE,
    manifest.database_file,
    ...manifest.objects.filter((o) => o.included).map((o) => `${OBJECTS_DIR}/${o.key}`),
  ];
  const partial = `${target}.partial`;
  await create({ file: partial, cwd: staging, gzip: true, portable: true }, entries);
  await rename(partial, target);
  return (await stat(target)).size;
}

export async function createBackup(file: string, options: BackupOptions): Promise<BackupResult> {
  const { config, store } = options;
  const target = path.resolve(file);
  if (!existsSync(path.dirname(target))) throw new CliRefusal(`the folder ${path.dirname(target)} does not exist`);
  await mkdir(config.data_dir, { recursive: true });
  await removeStaleStaging(config.data_dir);
  // Under data_dir (a dot-name the store never lists): its files can be hard-linked from there.
  const staging = await mkdtemp(path.join(config.data_dir, '.backup-'));
  try {
    const objectsDir = path.join(staging, OBJECTS_DIR);
    const inventory: Inventory = new Map();
    const takeInventory = () =>
      store.kind === 'local'
        ? stageLocalObjects(config.data_dir, objectsDir, inventory)
        : listStoreObjects(store, inventory);
    const taken = await snapshotWithObjects(options, staging, takeInventory, inventory);
    const { snapshot, objects, missing } = taken;
    try {
      await snapshot.dump(staging);
    } finally {
      await snapshot.close();
    }
    if (store.kind !== 'local' && options.includeObjects) await downloadObjects(store, objects, objectsDir, missing);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      service_version: serviceVersion(),
      created_at: new Date().toISOString(),
      snapshot_started_at: new Date(snapshot.startedAt).toISOString(),
      dialect: config.database_kind,
      database_file: snapshot.databaseFile,
      ...(snapshot.schema ? { schema: snapshot.schema } : {}),
      migrations: taken.migrations,
      store: { kind: store.kind, location: store.location },
      prefixes: taken.references.prefixes.sort(),
      objects,
      missing: missing.sort(),
    };
    return { manifest, bytes: await writeArchive(staging, manifest, target) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
