// Applies or reverts the migrations listed in migrations/index.ts.
import {
  Migrator,
  NO_MIGRATIONS,
  type Kysely,
  type KyselyPlugin,
  type MigrationResultSet,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { migrations } from './migrations/index.js';

// Capabilities number their migrations in blocks (0010 accounts, 0020 games, …) and land in any order, so a database
// that already applied a later block must still accept an earlier one: each migration touches only its own tables.
function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    // The cause stays attached: a lost connection (retried at start) is told from a migration that is wrong.
    throw new Error(
      `${failed ? `Migration ${failed}` : 'Migrating'} failed: ${(result.error as Error).message ?? String(result.error)}`,
      { cause: result.error },
    );
  }
  return (result.results ?? []).map((r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}

export async function migrateAllDown(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateTo(NO_MIGRATIONS));
}

/** Names of the migrations not applied yet (reads only: creates no table). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Names of the applied migrations, in the order they were applied. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migrator(db).getMigrations())
    .filter((m) => m.executedAt !== undefined)
    .sort((a, b) => a.executedAt!.getTime() - b.executedAt!.getTime())
    .map((m) => m.name);
}

export interface MigrationStatus {
  /** applied migrations this version knows, oldest first, with when each was applied */
  applied: Array<{ name: string; at: Date }>;
  /** migrations of this version not applied yet, in the order they would run */
  pending: string[];
  /** migrations the database has applied that this version does not know: the database belongs to a newer version */
  unknown: string[];
}

/** Applied, pending and unknown migrations (reads only: creates no table, takes no lock). */
export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus> {
  const known = await migrator(db).getMigrations();
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const recorded = tables.some((t) => t.name === 'kysely_migration')
    ? (await db.selectFrom('kysely_migration').select('name').execute()).map((r) => r.name as string)
    : [];
  return {
    applied: known
      .filter((m) => m.executedAt !== undefined)
      .sort((a, b) => a.executedAt!.getTime() - b.executedAt!.getTime())
      .map((m) => ({ name: m.name, at: m.executedAt! })),
    pending: known.filter((m) => m.executedAt === undefined).map((m) => m.name),
    unknown: recorded.filter((name) => !(name in migrations)).sort(),
  };
}

/** One statement a migration ran, as the database received it. */
export interface PlannedStatement {
  migration: string;
  sql: string;
  parameters: readonly unknown[];
}

class DryRunRollback extends Error {}

/**
 * Runs every pending migration inside one transaction that is rolled back, and returns each statement it ran, in
 * order. Both databases roll back DDL, so the database is left as it was; the statements are the real ones, data
 * migrations included, because each ran against the real tables. While it runs it holds the locks the migrations take.
 */
export async function dryRunMigrations(db: Kysely<any>): Promise<PlannedStatement[]> {
  const { pending } = await migrationStatus(db);
  const planned: PlannedStatement[] = [];
  let current = '';
  const recorder: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const compiled = db.getExecutor().compileQuery(args.node, args.queryId);
      planned.push({ migration: current, sql: compiled.sql, parameters: compiled.parameters });
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
  try {
    await db.transaction().execute(async (trx) => {
      const recording = trx.withPlugin(recorder);
      for (const name of pending) {
        current = name;
        await migrations[name]!.up(recording);
      }
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) {
      throw new Error(`Migration ${current} failed in the dry run: ${(error as Error).message ?? String(error)}`, {
        cause: error,
      });
    }
  }
  return planned;
}
