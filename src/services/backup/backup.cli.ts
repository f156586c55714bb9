// `gameplatform backup <file>` and `gameplatform restore <file>` (docs/operations.md, "Backups").
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { asRefusal } from '../../db/open-cli.js';
import { confirm } from '../../lib/confirm.js';
import { openStore } from '../storage/storage.js';
import { createBackup } from './backup.js';
import type { ReferenceReader } from './references.js';
import { restoreBackup } from './restore.js';

/** Exit statuses (docs/operations.md, "Backups"): 2 when the backup or the restore lacks objects the database names. */
export const BACKUP_EXIT = { done: 0, failed: 1, objectsMissing: 2, newerBackup: 4 } as const;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export interface BackupWiring {
  /** the stored objects a database points at (the capabilities know) */
  references: ReferenceReader;
  /** the content type to store a restored object with */
  contentTypeOf: (key: string) => string | undefined;
}

async function backup(file: string, options: { objects?: boolean }, wiring: BackupWiring): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config);
  try {
    await store.check();
    const { manifest, bytes } = await createBackup(file, {
      config,
      store,
      references: wiring.references,
      includeObjects: options.objects,
    }).catch((error: unknown) => Promise.reject(asRefusal(error, config)));
    const included = manifest.objects.filter((o) => o.included).length;
    console.log(
      `snapshot taken at ${manifest.snapshot_started_at} (${manifest.dialect}, ${manifest.migrations.length} migrations)`,
    );
    console.log(
      `${manifest.objects.length} stored objects referenced: ${included} in the archive${included < manifest.objects.length ? `, ${manifest.objects.length - included} listed only (${store.location})` : ''}`,
    );
    console.log(`wrote ${file} (${megabytes(bytes)})`);
    if (manifest.missing.length) {
      console.error(`gameplatform: the store lacks ${manifest.missing.length} objects the database points at:`);
      for (const key of manifest.missing) console.error(`  ${key}`);
      process.exitCode = BACKUP_EXIT.objectsMissing;
    }
  } finally {
    store.close();
  }
}

async function restore(file: string, options: { yes?: boolean }, wiring: BackupWiring): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config);
  try {
    await store.check();
    const result = await restoreBackup(file, {
      config,
      store,
      confirmReplace: async (what) =>
        Boolean(options.yes) || (await confirm(`${what[0]!.toUpperCase()}${what.slice(1)}?`)),
      contentTypeOf: wiring.contentTypeOf,
    }).catch((error: unknown) => Promise.reject(asRefusal(error, config)));
    const { manifest, migrated, objects } = result;
    console.log(`restored the ${manifest.dialect} database of ${manifest.snapshot_started_at}`);
    for (const line of migrated) console.log(line);
    console.log(`stored objects: ${objects.written} written back, ${objects.present} already there`);
    if (objects.missing.length) {
      console.error(
        `gameplatform: ${objects.missing.length} objects the restored database points at are in neither the backup nor ${store.location}:`,
      );
      for (const key of objects.missing) console.error(`  ${key}`);
      console.error(
        'restore them from the bucket\'s object versions (docs/operations.md, "Backups"), or back up with --objects',
      );
      process.exitCode = BACKUP_EXIT.objectsMissing;
    }
  } finally {
    store.close();
  }
}

export function registerBackupCommands(program: Command, wiring: BackupWiring): void {
  program
    .command('backup <file>')
    .description(
      'write a consistent backup of the database and the stored objects it points at to <file> (.tar.gz) while the service runs (exit status 2: objects missing from the store)',
    )
    .option(
      '--objects',
      'with an object store (storage_url): copy the objects into the archive too, not only list them',
    )
    .action((file: string, options: { objects?: boolean }) => backup(file, options, wiring));
  program
    .command('restore <file>')
    .description(
      'replace the database with a backup, put back its stored objects, and migrate it to this version (asks first when the database is not empty; --yes to skip)',
    )
    .option('--yes', 'replace a database that is not empty without asking')
    .action((file: string, options: { yes?: boolean }) => restore(file, options, wiring));
}
