// `gameplatform migrate`: apply the pending migrations, list them (--status), print their SQL (--dry-run), or revert.
import { Option, type Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { confirm } from '../lib/confirm.js';
import { CliRefusal } from '../lib/refusal.js';
import type { DatabaseHandle } from './connect.js';
import {
  appliedMigrations,
  dryRunMigrations,
  migrateAllDown,
  migrateDown,
  migrateToLatest,
  migrationStatus,
  type MigrationStatus,
} from './migrate.js';
import { asRefusal, openForCli } from './open-cli.js';
import { displayDatabaseUrl } from './reachability.js';

/** Exit statuses a deploy script can act on (docs/operations.md, "Migrations before a deploy"). */
export const MIGRATE_EXIT = { upToDate: 0, failed: 1, pending: 3, newerDatabase: 4 } as const;

interface MigrateOptions {
  down?: boolean;
  all?: boolean;
  yes?: boolean;
  status?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** A database that applied migrations this version does not know was migrated by a newer version: never touch it. */
function refuseNewerDatabase(status: MigrationStatus, config: Config): void {
  if (!status.unknown.length) return;
  throw new CliRefusal(
    `the database ${displayDatabaseUrl(config.database_url)} has migrations this version does not know (${status.unknown.join(', ')}): it belongs to a newer version of the service`,
    { exitCode: MIGRATE_EXIT.newerDatabase },
  );
}

function printStatus(status: MigrationStatus, json: boolean | undefined): void {
  if (json) {
    const applied = status.applied.map((m) => ({ name: m.name, applied_at: m.at.toISOString() }));
    console.log(JSON.stringify({ applied, pending: status.pending, unknown: status.unknown }));
    return;
  }
  for (const m of status.applied) console.log(`applied  ${m.name}  ${m.at.toISOString()}`);
  for (const name of status.unknown) console.log(`unknown  ${name}  (applied by a newer version)`);
  for (const name of status.pending) console.log(`pending  ${name}`);
  console.log(
    `${status.applied.length} applied, ${status.pending.length} pending${status.unknown.length ? `, ${status.unknown.length} unknown` : ''}`,
  );
}

async function showStatus(database: DatabaseHandle, options: MigrateOptions): Promise<void> {
  const status = await migrationStatus(database.db);
  printStatus(status, options.json);
  if (status.unknown.length) process.exitCode = MIGRATE_EXIT.newerDatabase;
  else if (status.pending.length) process.exitCode = MIGRATE_EXIT.pending;
}

async function dryRun(database: DatabaseHandle, config: Config): Promise<void> {
  const status = await migrationStatus(database.db);
  refuseNewerDatabase(status, config);
  if (!status.pending.length) return console.log('-- nothing to do: the database is up to date');
  const statements = await dryRunMigrations(database.db);
  for (const name of status.pending) {
    const own = statements.filter((s) => s.migration === name);
    // A migration may change nothing on this database (a PostgreSQL trigger on SQLite): it is listed all the same.
    console.log(`\n-- migration ${name}${own.length ? '' : ' (no statement on this database)'}`);
    for (const statement of own) {
      console.log(`${statement.sql.trim()};`);
      if (statement.parameters.length) console.log(`-- parameters: ${JSON.stringify(statement.parameters)}`);
    }
  }
  process.exitCode = MIGRATE_EXIT.pending;
}

async function revert(database: DatabaseHandle, config: Config, options: MigrateOptions): Promise<string[]> {
  const applied = await appliedMigrations(database.db);
  if (applied.length === 0) return ['nothing to do: no migration is applied'];
  const what = options.all
    ? `revert all ${applied.length} migrations of ${displayDatabaseUrl(config.database_url)}, dropping every table and its data`
    : `revert migration ${applied[applied.length - 1]} of ${displayDatabaseUrl(config.database_url)}`;
  if (!options.yes && !(await confirm(`${what[0]!.toUpperCase()}${what.slice(1)}?`))) {
    throw new CliRefusal(
      process.stdin.isTTY
        ? 'nothing reverted'
        : `migrate --down would ${what}; with no terminal to ask on, confirm with --yes`,
    );
  }
  return options.all ? migrateAllDown(database.db) : migrateDown(database.db);
}

async function apply(database: DatabaseHandle, config: Config): Promise<string[]> {
  refuseNewerDatabase(await migrationStatus(database.db), config);
  const lines = await migrateToLatest(database.db);
  return lines.length ? lines : ['nothing to do: the database is up to date'];
}

async function migrate(options: MigrateOptions): Promise<void> {
  const config = loadConfig();
  const database = openForCli(config);
  try {
    if (options.status) return await showStatus(database, options);
    if (options.dryRun) return await dryRun(database, config);
    const lines = options.down ? await revert(database, config, options) : await apply(database, config);
    console.log(lines.join('\n'));
  } catch (error) {
    throw asRefusal(error, config);
  } finally {
    await database.destroy();
  }
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply every pending migration; --status lists them, --dry-run prints their SQL, --down reverts (exit status: 0 done or up to date, 1 failed, 3 pending with --status or --dry-run, 4 the database is newer than this version)',
    )
    .addOption(
      new Option('--status', 'list the applied and pending migrations; changes nothing').conflicts(['down', 'dryRun']),
    )
    .addOption(
      new Option(
        '--dry-run',
        'print the SQL of each pending migration, run in a transaction that is rolled back',
      ).conflicts('down'),
    )
    .option('--json', 'with --status: one JSON object {applied, pending, unknown}')
    .option('--down', 'revert the newest migration (asks first; --yes to skip)')
    .option('--all', 'with --down: revert every migration (drops every table)')
    .option('--yes', 'with --down: do not ask')
    .action((options: MigrateOptions) => migrate(options));
}
