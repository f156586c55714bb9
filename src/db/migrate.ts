// Applies or reverts the migrations listed in migrations/index.ts.
import { Migrator, NO_MIGRATIONS, type Kysely, type MigrationResultSet } from 'kysely';
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
