// GET /healthz (liveness, no database) and GET /readyz (database answers, migrations current; 503 otherwise and while closing).
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { httpGet } from '../helpers/live.js';
import { eachDialect, testConfig } from '../helpers/harness.js';
import { freePort as closedPort } from '../helpers/ports.js';

const get = httpGet;

eachDialect('health and readiness', (h) => {
  it('answers /healthz and /readyz with 200 in the envelope', async () => {
    const live = await h.http.get('/healthz');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ ok: true, data: { status: 'ok' } });
    const ready = await h.http.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ok: true, data: { status: 'ready' } });
    expect(ready.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is not ready while a migration of this version is missing', async () => {
    const [last] = (await h.database.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .limit(1)
      .execute()) as Array<{ name: string }>;
    const row = await h.database.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .where('name' as never, '=', last!.name as never)
      .executeTakeFirstOrThrow();
    await h.database.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last!.name as never)
      .execute();
    try {
      const res = await h.http.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body.ok).toBe(false);
      expect(res.body.error).toMatchObject({ code: 'unavailable', reason: 'migrations_pending' });
      expect((await h.http.get('/healthz')).status).toBe(200);
    } finally {
      await h.database.db
        .insertInto('kysely_migration' as never)
        .values(row as never)
        .execute();
    }
    expect((await h.http.get('/readyz')).status).toBe(200);
  });

  it('lists both probes in the OpenAPI document, /readyz with its 503', async () => {
    const doc = (await h.http.get('/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/healthz'].get.responses)).toEqual(['200', '403']);
    expect(Object.keys(doc.paths['/readyz'].get.responses).sort()).toEqual(['200', '403', '503']);
    expect(JSON.stringify(doc.paths['/readyz'].get.responses['503'])).toContain('unavailable');
  });
});

eachDialect(
  'health probes under a tight rate limit, in production over plain HTTP',
  (h) => {
    it('never limits the probes and answers them without HTTPS', async () => {
      for (let i = 0; i < 6; i++) {
        expect((await h.http.get('/healthz')).status).toBe(200);
        expect((await h.http.get('/readyz')).status).toBe(200);
      }
      // the rest of the API still wants HTTPS
      expect((await h.http.get('/v1/status')).body.error.code).toBe('https_required');
    });
  },
  {
    env: 'production',
    settings: {
      public_url: 'https://play.example.com',
      trust_proxy: 'true',
      secret: 'x'.repeat(40),
      'rate_limits.default.max': 2,
    },
  },
);

for (const dialect of enabledDialects()) {
  describe(`health and readiness when things go wrong [${dialect}]`, () => {
    it('logs no probe at info, stays live and not ready once the database is closed', async () => {
      const testDb = await createTestDatabase(dialect);
      const config = testConfig(testDb.dataDir, testDb.url, { settings: { log_level: 'info' } });
      const database = openDatabase(config.database_url);
      await migrateToLatest(database.db);
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
      const app = await buildApp({ config, database, logger: pino({ level: 'info' }, stream) });
      await app.ready();
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      expect((await app.inject('/v1/status')).statusCode).toBe(200);
      expect(lines.some((l) => l.includes('/v1/status'))).toBe(true); // other requests are logged
      expect(lines.filter((l) => l.includes('/healthz') || l.includes('/readyz'))).toEqual([]);

      await database.destroy();
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toMatchObject({ code: 'unavailable', reason: 'database_unreachable' });
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      await app.close();
      await testDb.drop();
    });

    it('answers /readyz 503 and /healthz 200 while shutting down', async () => {
      const testDb = await createTestDatabase(dialect);
      const config = testConfig(testDb.dataDir, testDb.url);
      const database = openDatabase(config.database_url);
      await migrateToLatest(database.db);
      const app = await buildApp({ config, database });
      // The probes, sent while the shutdown has begun and the port still listens (the last preClose hook).
      const during: Record<string, { status: number; body: string }> = {};
      app.addHook('preClose', async () => {
        during.readyz = await get(port, '/readyz');
        during.healthz = await get(port, '/healthz');
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      expect((await get(port, '/readyz')).status).toBe(200);
      await app.close();
      expect(during.readyz?.status).toBe(503);
      expect(JSON.parse(during.readyz!.body).error.code).toBe('unavailable');
      expect(during.healthz?.status).toBe(200);
      await database.destroy();
      await testDb.drop();
    });

    if (dialect === 'postgres') {
      it('answers 503 unavailable, not 500, to API requests and /readyz when PostgreSQL refuses connections', async () => {
        const url = `postgres://postgres@127.0.0.1:${await closedPort()}/nothing`;
        const scratch = await createTestDatabase('sqlite'); // for its data directory
        const config = testConfig(scratch.dataDir, url);
        const database = openDatabase(url);
        const app = await buildApp({ config, database });
        await app.ready();
        const started = Date.now();
        const ready = await app.inject('/readyz');
        expect(ready.statusCode).toBe(503);
        expect(Date.now() - started).toBeLessThan(1500);
        for (const path of ['/v1/games', '/v1/status', '/v1/games/nope/leaderboard']) {
          const res = await app.inject(path);
          expect(res.statusCode, path).toBe(503);
          expect(res.json()).toMatchObject({ ok: false, error: { code: 'unavailable' } });
          expect(res.headers['retry-after']).toBe('5');
        }
        expect((await app.inject('/healthz')).statusCode).toBe(200);
        await app.close();
        await database.destroy();
        await scratch.drop();
      });

      it('is not ready while its database accepts no connections, and ready again after', async () => {
        const testDb = await createTestDatabase(dialect);
        const config = testConfig(testDb.dataDir, testDb.url);
        const database = openDatabase(config.database_url);
        await migrateToLatest(database.db);
        const app = await buildApp({ config, database });
        await app.ready();
        const name = new URL(testDb.url).pathname.slice(1);
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        try {
          expect((await app.inject('/readyz')).statusCode).toBe(200);
          await admin.query(`alter database ${name} allow_connections false`);
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [name],
          );
          const res = await app.inject('/readyz');
          expect(res.statusCode).toBe(503);
          expect(res.json().error.code).toBe('unavailable');
          expect((await app.inject('/v1/games')).statusCode).toBe(503);
          expect((await app.inject('/healthz')).statusCode).toBe(200);
          await admin.query(`alter database ${name} allow_connections true`);
          expect((await app.inject('/readyz')).statusCode).toBe(200);
          expect((await app.inject('/v1/games')).statusCode).toBe(200);
        } finally {
          await admin.query(`alter database ${name} allow_connections true`);
          await admin.end();
        }
        await app.close();
        await database.destroy();
        await testDb.drop();
      });
    }
  });
}
