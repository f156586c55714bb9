// A fresh, empty database per test file: a temporary SQLite file, or a new PostgreSQL database dropped afterwards.
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

export async function createTestDatabase(dialect: DialectName, adminConnection = process.env.TEST_DATABASE_URL): Promise<TestDatabase> {
  const adminUrl = () => {
    if (!adminConnection) throw new Error('PostgreSQL needs an admin connection: set TEST_DATABASE_URL');
    return adminConnection;
  };
  const dataDir = tempDir('gp-test-');
  if (dialect === 'sqlite') {
    return { url: path.join(dataDir, 'test.sqlite'), dataDir, drop: async () => removeTempDir(dataDir) };
  }
  const name = `gp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
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
