// Graceful shutdown: in-flight requests finish, new ones are refused; a dropped PostgreSQL connection does not end the process.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { httpGet } from '../helpers/live.js';
import { testConfig } from '../helpers/harness.js';

const get = httpGet;

for (const dialect of enabledDialects()) {
  describe(`lifecycle [${dialect}]`, () => {
    it('finishes an in-flight request on close and then stops accepting', async () => {
      const testDb = await createTestDatabase(dialect);
      const config = testConfig(testDb.dataDir, testDb.url);
      const database = openDatabase(config.database_url);
      await migrateToLatest(database.db);
      const app = await buildApp({ config, database });
      let release!: () => void;
      let started!: () => void;
      const inHandler = new Promise<void>((r) => (started = r));
      app.get('/v1/test/slow', { config: { auth: 'none' } }, async () => {
        started();
        await new Promise<void>((r) => (release = r));
        return { ok: true, data: { done: true } };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as AddressInfo).port;

      const slow = get(port, '/v1/test/slow');
      await inHandler;
      const closing = app.close();
      release();
      const res = await slow;
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ ok: true, data: { done: true } });
      await closing;
      await expect(get(port, '/v1/status')).rejects.toThrow();
      await database.destroy();
      await testDb.drop();
    });

    if (dialect === 'postgres') {
      it('survives a dropped pool connection and reconnects', async () => {
        const testDb = await createTestDatabase(dialect);
        const errors: Error[] = [];
        let sawError!: () => void;
        const errored = new Promise<void>((r) => (sawError = r));
        const database = openDatabase(testDb.url, {
          onPoolError: (e) => {
            errors.push(e);
            sawError();
          },
        });
        await migrateToLatest(database.db);
        const dbName = new URL(testDb.url).pathname.slice(1);
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [dbName],
        );
        await admin.end();
        await errored;
        expect(errors.length).toBeGreaterThan(0);
        const rows = await database.db.selectFrom('players').select('id').execute();
        expect(rows).toEqual([]);
        await database.destroy();
        await testDb.drop();
      });
    }
  });
}
