// GET /readyz on a connection of its own: a pool held by slow queries (or SQLite's one connection held by a
// transaction) never delays it past readiness_timeout_ms, and a database that does not answer is told within it.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { hostPoolSize, loadConfig } from '../../src/config.js';
import { PROBE_APPLICATION_NAME } from '../../src/db/probe.js';
import { eachDialect } from '../helpers/harness.js';

/** Waits for `condition`, checking every 10 ms (the condition is the event waited for; the pause only paces the checks). */
async function until(what: string, condition: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function timedReadyz(h: { http: { get(path: string): Promise<{ status: number; body: any }> } }) {
  const started = performance.now();
  const res = await h.http.get('/readyz');
  return { ...res, ms: performance.now() - started };
}

eachDialect(
  'readiness with the request pool saturated',
  (h) => {
    it('answers /readyz within its budget while every pooled connection is busy and requests queue', async () => {
      expect((await h.http.get('/readyz')).status).toBe(200);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const held: Promise<unknown>[] = [];
      if (h.dialect === 'postgres') {
        // 20 connections (the harness's pool) asleep, and more statements waiting for one of them.
        for (let i = 0; i < 24; i++) held.push(sql`select pg_sleep(5)`.execute(h.ctx.db));
        await until('a saturated pool', () => {
          const stats = h.database.poolStats();
          return stats.inUse === stats.size && stats.size === 20 && stats.waiting >= 4;
        });
      } else {
        // SQLite's one connection, held by a transaction between its statements.
        let inside!: () => void;
        const entered = new Promise<void>((resolve) => (inside = resolve));
        held.push(
          h.ctx.db.transaction().execute(async (trx) => {
            await trx.selectFrom('players').select('id').execute();
            inside();
            await gate;
          }),
        );
        await entered;
      }
      // A request that needs the database waits behind them.
      let answered = false;
      const queued = h.http.get('/v1/games').then((res) => {
        answered = true;
        return res;
      });
      const ready = await timedReadyz(h);
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ ok: true, data: { status: 'ready' } });
      expect(ready.ms).toBeLessThan(h.config.readiness_timeout_ms);
      expect(answered).toBe(false);
      release();
      await Promise.all(held);
      expect((await queued).status).toBe(200);
    }, 60_000);

    it('says not ready within readiness_timeout_ms when its own read does not answer (PostgreSQL: a lock held on the migration table)', async (test) => {
      if (h.dialect !== 'postgres') test.skip();
      const name = new URL(h.config.database_url).pathname.slice(1);
      const locker = new pg.Client({ connectionString: h.config.database_url });
      await locker.connect();
      try {
        await locker.query('begin; lock table kysely_migration in access exclusive mode');
        const started = performance.now();
        const res = await h.http.get('/readyz');
        const ms = performance.now() - started;
        expect(res.status).toBe(503);
        expect(res.body.error).toMatchObject({ code: 'unavailable', reason: 'database_unreachable' });
        expect(ms).toBeGreaterThanOrEqual(h.config.readiness_timeout_ms - 5);
        expect(ms).toBeLessThan(h.config.readiness_timeout_ms + 1000);
        // The probe reads on one connection of its own, named in pg_stat_activity.
        const probes = await locker.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = $2',
          [name, PROBE_APPLICATION_NAME],
        );
        expect(probes.rows[0].n).toBe(1);
      } finally {
        await locker.query('rollback');
        await locker.end();
      }
      await until('ready again', async () => (await h.http.get('/readyz')).status === 200);
    });
  },
  { settings: { readiness_timeout_ms: 400 } },
);

describe('readiness and pool settings', () => {
  it('sizes the pool for the host unless database_pool_size says otherwise', () => {
    expect(hostPoolSize(1)).toBe(10);
    expect(hostPoolSize(16)).toBe(32);
    expect(loadConfig({ env: {}, cwd: '/nonexistent' }).database_pool_size).toBe(hostPoolSize());
    expect(loadConfig({ env: { GP_DATABASE_POOL_SIZE: '7' }, cwd: '/nonexistent' }).database_pool_size).toBe(7);
  });

  it("documents a probe timeout longer than the readiness budget, as the docs' example sets it", () => {
    const docs = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const probe = /readinessProbe: .*timeoutSeconds: (\d+)/.exec(docs);
    expect(probe).not.toBeNull();
    const budget = loadConfig({ env: {}, cwd: '/nonexistent' }).readiness_timeout_ms;
    expect(Number(probe![1]) * 1000).toBeGreaterThan(budget);
    expect(docs).toContain('`readiness_timeout_ms`');
  });
});
