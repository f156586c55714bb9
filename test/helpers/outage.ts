// The database out of reach for a harness's app, then back. PostgreSQL: the database stops accepting connections and
// the app's backends are terminated (as in a failover). SQLite, whose reads no lock blocks in WAL mode: every statement
// of the app's connection fails with SQLITE_BUSY, what a database locked by another process answers.
import pg from 'pg';
import { vi } from 'vitest';
import { Sqlite } from '../../src/db/sqlite-driver.js';
import type { Harness } from './app.js';

export interface Outage {
  /** until end(), the app cannot use its database */
  start(): Promise<void>;
  end(): Promise<void>;
}

export function databaseOutage(h: Pick<Harness, 'dialect' | 'config'>): Outage {
  if (h.dialect === 'postgres') {
    const name = new URL(h.config.database_url).pathname.slice(1);
    let admin: pg.Client | undefined;
    return {
      async start() {
        admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`alter database "${name}" allow_connections false`);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
      },
      async end() {
        if (!admin) return;
        await admin.query(`alter database "${name}" allow_connections true`);
        await admin.end();
        admin = undefined;
      },
    };
  }
  const probe = new Sqlite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const busy = () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  };
  return {
    async start() {
      for (const method of ['all', 'run', 'get', 'iterate'] as const)
        vi.spyOn(statement as Record<typeof method, () => unknown>, method).mockImplementation(busy);
    },
    async end() {
      vi.restoreAllMocks();
    },
  };
}
