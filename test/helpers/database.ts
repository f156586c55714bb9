// A fresh, empty database per test file: a temporary SQLite file, or a new PostgreSQL database dropped afterwards.
// A PostgreSQL database's name starts with the run's prefix (testDatabasePrefix): whatever a run leaves (a file that
// failed before its drop, a worker ended early) goes at the run's end (global-setup.ts), and no other run's.
import path from 'node:path';
import pg from 'pg';
import type { DialectName } from '../../src/db/connect.js';
import { removeTempDir, tempDir } from './temp.js';

export interface TestDatabase {
  url: string;
  /** a directory for this file's data (avatars, game files) */
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * `gp_test_<run>_`: the run is the vitest process (global-setup.ts sets GP_TEST_RUN for its workers), or this process
 * when it runs alone (a benchmark). PostgreSQL names hold at most 63 characters: the rest is a pid and 8 random ones.
 */
export function testDatabasePrefix(run = process.env.GP_TEST_RUN ?? String(process.pid)): string {
  return `gp_test_${run}_`;
}

export async function createTestDatabase(
  dialect: DialectName,
  adminConnection = process.env.TEST_DATABASE_URL,
): Promise<TestDatabase> {
  const adminUrl = () => {
    if (!adminConnection) throw new Error('PostgreSQL needs an admin connection: set TEST_DATABASE_URL');
    return adminConnection;
  };
  const dataDir = tempDir('gp-test-');
  if (dialect === 'sqlite') {
    return { url: path.join(dataDir, 'test.sqlite'), dataDir, drop: async () => removeTempDir(dataDir) };
  }
  const name = `${testDatabasePrefix()}${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      removeTempDir(dataDir);
    },
  };
}

/** Drops every database whose name starts with `prefix` (a run's leftovers); returns their names. */
export async function dropTestDatabases(adminConnection: string, prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: adminConnection });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}
