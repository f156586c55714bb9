// The metrics of what the service depends on, after real events: database errors by kind, the object store's calls
// and failures (local disk and S3), Redis connected or not, the notification listener's state and reconnects.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/db/listener.js';
import { createPlayer, publishFixture } from '../helpers/factories.js';
import { createHarness, eachDialect, type Harness } from '../helpers/harness.js';
import { enabledDialects } from '../helpers/dialects.js';
import { hasSeries, parseSamples, sampleValue, type Sample } from '../helpers/prometheus.js';
import { testRedis, type TestRedis } from '../helpers/redis-server.js';
import { startS3, type S3Server } from '../helpers/s3.js';

async function scrape(h: Harness): Promise<Sample[]> {
  const res = await h.http.get('/metrics');
  expect(res.status).toBe(200);
  return parseSamples(res.text);
}

async function change(h: Harness, act: () => Promise<unknown>) {
  const before = await scrape(h);
  await act();
  const after = await scrape(h);
  return (name: string, labels?: Record<string, string>) =>
    sampleValue(after, name, labels) - sampleValue(before, name, labels);
}

/** Scrapes until `condition` holds for the samples (the scrape is the event waited for). */
async function untilScraped(h: Harness, what: string, condition: (samples: Sample[]) => boolean): Promise<void> {
  const started = Date.now();
  while (!condition(await scrape(h))) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

eachDialect('metrics: database errors, the object store, Redis and the listener', (h) => {
  it('counts database errors by kind, every kind shown from the start', async () => {
    const samples = await scrape(h);
    for (const kind of ['connection', 'timeout', 'conflict', 'constraint', 'other'])
      expect(hasSeries(samples, 'gameplatform_db_errors_total', { kind })).toBe(true);
    const player = await createPlayer(h.ctx);
    const delta = await change(h, async () => {
      await expect(createPlayer(h.ctx, { username: player.username })).rejects.toThrow();
      await expect(sql`select * from gp_no_such_table`.execute(h.ctx.db)).rejects.toThrow();
    });
    expect(delta('gameplatform_db_errors_total', { kind: 'constraint' })).toBe(1);
    expect(delta('gameplatform_db_errors_total', { kind: 'other' })).toBe(1);
    expect(delta('gameplatform_db_errors_total')).toBe(2);
  });

  it('counts a statement timeout as a timeout (PostgreSQL)', async (test) => {
    if (h.dialect !== 'postgres') test.skip();
    const delta = await change(h, () =>
      expect(
        h.ctx.db.transaction().execute(async (trx) => {
          await sql`set local statement_timeout = 50`.execute(trx);
          await sql`select pg_sleep(2)`.execute(trx);
        }),
      ).rejects.toThrow(/statement timeout/),
    );
    expect(delta('gameplatform_db_errors_total', { kind: 'timeout' })).toBe(1);
  });

  it('times the object store by operation: the files of a publish and a game file served', async () => {
    const delta = await change(h, async () => {
      const { slug } = await publishFixture(h.ctx, 'orbit-dash');
      expect((await h.http.get(`http://${slug}.games.localhost:8080/game.js`)).status).toBe(200);
    });
    expect(delta('gameplatform_object_store_duration_seconds_count', { operation: 'put' })).toBeGreaterThanOrEqual(3);
    expect(delta('gameplatform_object_store_duration_seconds_count', { operation: 'get' })).toBeGreaterThanOrEqual(1);
    expect(delta('gameplatform_object_store_errors_total')).toBe(0);
  });

  it('shows no Redis series without redis_url, and the listener only on PostgreSQL', async () => {
    const samples = await scrape(h);
    expect(samples.some((s) => s.name.startsWith('gameplatform_redis_'))).toBe(false);
    if (h.dialect === 'sqlite') {
      expect(samples.some((s) => s.name.startsWith('gameplatform_notification_listener_'))).toBe(false);
    } else {
      await untilScraped(
        h,
        'the listener up',
        (s) => sampleValue(s, 'gameplatform_notification_listener_connected', { channels: 'gp_credentials' }) === 1,
      );
    }
  });

  it('counts a reconnect of the listener and shows it connected again (PostgreSQL)', async (test) => {
    if (h.dialect !== 'postgres') test.skip();
    const name = new URL(h.config.database_url).pathname.slice(1);
    await untilScraped(
      h,
      'the listener up',
      (s) => sampleValue(s, 'gameplatform_notification_listener_connected') === 1,
    );
    const before = sampleValue(await scrape(h), 'gameplatform_notification_listener_reconnects_total');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [name, LISTENER_APPLICATION_NAME],
      );
      expect(ended.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await untilScraped(
      h,
      'a reconnect, and the listener up again',
      (s) =>
        sampleValue(s, 'gameplatform_notification_listener_reconnects_total') === before + 1 &&
        sampleValue(s, 'gameplatform_notification_listener_connected') === 1,
    );
  });
});

for (const dialect of enabledDialects()) {
  describe(`metrics: Redis connected, lost and back [${dialect}]`, () => {
    let redis: TestRedis;
    let h: Harness & { close(): Promise<void> };
    beforeAll(async () => {
      redis = await testRedis();
      await redis.start();
      h = await createHarness(dialect, { settings: { redis_url: redis.url } });
    });
    afterAll(async () => {
      await h?.close();
      await redis?.stop();
    });

    it('reports Redis connected, 0 and errors while it is away, and 1 again once it is back', async () => {
      const up = await scrape(h);
      expect(sampleValue(up, 'gameplatform_redis_connected')).toBe(1);
      const errors = sampleValue(up, 'gameplatform_redis_errors_total');
      await redis.stop();
      await untilScraped(
        h,
        'Redis lost',
        (s) =>
          sampleValue(s, 'gameplatform_redis_connected') === 0 &&
          sampleValue(s, 'gameplatform_redis_errors_total') > errors,
      );
      await redis.start();
      await untilScraped(h, 'Redis back', (s) => sampleValue(s, 'gameplatform_redis_connected') === 1);
    });
  });

  describe(`metrics: object store failures on S3 [${dialect}]`, () => {
    let s3: S3Server;
    let h: Harness & { close(): Promise<void> };
    beforeAll(async () => {
      s3 = await startS3();
      h = await createHarness(dialect, { settings: s3.settings() });
    });
    afterAll(async () => {
      await h?.close();
      await s3?.close();
    });

    it('counts the calls that fail while the store is away, by operation', async () => {
      const { slug } = await publishFixture(h.ctx, 'orbit-dash');
      const before = await scrape(h);
      expect(
        sampleValue(before, 'gameplatform_object_store_duration_seconds_count', { operation: 'put' }),
      ).toBeGreaterThan(0);
      await s3.close();
      const res = await h.http.get(`http://${slug}.games.localhost:8080/game.js`);
      expect(res.status).toBeGreaterThanOrEqual(500);
      const after = await scrape(h);
      const failed = (operation: string) =>
        sampleValue(after, 'gameplatform_object_store_errors_total', { operation }) -
        sampleValue(before, 'gameplatform_object_store_errors_total', { operation });
      expect(failed('get') + failed('head')).toBeGreaterThanOrEqual(1);
      expect(failed('put')).toBe(0);
    });
  });
}
