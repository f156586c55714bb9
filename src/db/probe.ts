// The readiness probe's own database connection: it never waits for the request pool (nor SQLite's one connection,
// which a transaction holds between its statements), so a saturated pool cannot make a healthy instance look dead.
import pg from 'pg';
import type { Kysely } from 'kysely';
import type SqliteDatabase from 'better-sqlite3';
import { Sqlite } from './sqlite-driver.js';

/** how the probe's connection shows in pg_stat_activity */
export const PROBE_APPLICATION_NAME = 'gameplatform readiness';

export interface ReadinessProbe {
  /**
   * The names of the applied migrations, read on the probe's own connection; an empty list when there is no migration
   * table yet. Rejects when the database does not answer (each statement and connection attempt gives up after
   * `budgetMs`). Calls made while one is out share its answer: probes never queue behind each other either.
   */
  appliedMigrations(budgetMs: number): Promise<string[]>;
  close(): Promise<void>;
}

/** PostgreSQL's query_canceled: statement_timeout ended the statement, and the connection is fine. */
const QUERY_CANCELED = '57014';
const CLIENT_TIMEOUT_MARGIN_MS = 1000;

/** PostgreSQL's undefined_table, SQLite's "no such table": a database not migrated yet. */
function noMigrationTable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '42P01' || /no such table/i.test(e?.message ?? '');
}

/** Shares one read among the calls made while it is out. */
function singleFlight(read: (budgetMs: number) => Promise<string[]>): (budgetMs: number) => Promise<string[]> {
  let inFlight: Promise<string[]> | undefined;
  return (budgetMs) => {
    inFlight ??= read(budgetMs).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

/** One connection of its own, opened on the first probe and kept; a broken one is dropped and opened again. */
export function postgresProbe(url: string): ReadinessProbe {
  let client: pg.Client | undefined;
  let closed = false;
  const drop = () => {
    const old = client;
    client = undefined;
    old?.end().catch(() => undefined);
  };
  const connect = async (budgetMs: number) => {
    const fresh = new pg.Client({
      connectionString: url,
      application_name: PROBE_APPLICATION_NAME,
      connectionTimeoutMillis: budgetMs,
      statement_timeout: budgetMs,
      keepAlive: true,
    });
    // A lost connection is found by the next probe's query; unhandled, 'error' would end the process.
    fresh.on('error', () => undefined);
    try {
      await fresh.connect();
    } catch (error) {
      fresh.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await fresh.end().catch(() => undefined);
      throw new Error('the database handle is closed');
    }
    return fresh;
  };
  const query = async (budgetMs: number) => {
    client ??= await connect(budgetMs);
    try {
      // statement_timeout ends a statement the database is slow to run (a lock wait) and keeps the connection; the
      // client's own timeout, later, gives up on a connection that no longer answers at all.
      const { rows } = await client.query<{ name: string }>({
        text: 'select name from kysely_migration',
        query_timeout: budgetMs + CLIENT_TIMEOUT_MARGIN_MS,
      } as pg.QueryConfig);
      return rows.map((r) => r.name);
    } catch (error) {
      if (noMigrationTable(error)) return [];
      if ((error as { code?: string }).code !== QUERY_CANCELED) drop();
      throw error;
    }
  };
  return {
    appliedMigrations: singleFlight(async (budgetMs) => {
      if (closed) throw new Error('the database handle is closed');
      // A kept connection may have died quietly (a failover, an idle timeout): one new try before saying not ready.
      const reused = client !== undefined;
      try {
        return await query(budgetMs);
      } catch (error) {
        if (!reused || closed) throw error;
        return query(budgetMs);
      }
    }),
    async close() {
      closed = true;
      drop();
    },
  };
}

/** SQLite: a read-only connection of its own (in WAL mode a reader waits for no writer). */
export function sqliteProbe(file: string): ReadinessProbe {
  let connection: SqliteDatabase.Database | undefined;
  let closed = false;
  return {
    appliedMigrations: singleFlight(async (budgetMs) => {
      if (closed) throw new Error('the database handle is closed');
      try {
        connection ??= new Sqlite(file, { readonly: true, fileMustExist: true, timeout: budgetMs });
        return connection.prepare('select name from kysely_migration').pluck().all() as string[];
      } catch (error) {
        if (noMigrationTable(error)) return [];
        connection?.close();
        connection = undefined;
        throw error;
      }
    }),
    async close() {
      closed = true;
      connection?.close();
      connection = undefined;
    },
  };
}

/** An in-memory SQLite database has no file another connection could open: the probe reads through Kysely. */
export function kyselyProbe(db: Kysely<any>): ReadinessProbe {
  return {
    appliedMigrations: singleFlight(async () => {
      try {
        return (await db.selectFrom('kysely_migration').select('name').execute()).map((r) => r.name as string);
      } catch (error) {
        if (noMigrationTable(error)) return [];
        throw error;
      }
    }),
    async close() {},
  };
}
