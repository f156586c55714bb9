// PostgreSQL going away under load (a failover, a restart, a pooler restart): the service's backends are terminated
// through an admin connection, again and again, while requests, transactions and the sweep run. The process lives,
// in-flight requests get 200/201 or 503 unavailable, later requests succeed, acknowledged writes are all there, and a
// transaction that did not commit left nothing. PostgreSQL only.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { gamePlaytime } from '../../src/modules/games/playtime.repository.js';
import { startIdleSweep } from '../../src/modules/play/play.sweeper.js';
import { createTestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { httpGet } from '../helpers/live.js';
import { createGame, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import type { Response } from '../helpers/request.js';
import { freePort } from '../helpers/ports.js';

const onPostgres = enabledDialects().includes('postgres');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const root = path.resolve(import.meta.dirname, '../..');

const get = async (port: number, path: string): Promise<number> => (await httpGet(port, path)).status;

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(100);
  }
}

/** A probe route: a transaction that writes a favorite, then waits in PostgreSQL (where a terminated backend finds it). */
function probes(app: App) {
  app.post<{ Body: { player: number; game: number } }>(
    '/v1/test/slow-transaction',
    { config: { auth: 'none' } },
    async (request) => {
      await app.ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('favorites')
          .values({ player_id: request.body.player, game_id: request.body.game, created_at: 1 })
          .execute();
        await sql`select pg_sleep(10)`.execute(trx);
      });
      return { ok: true, data: {} };
    },
  );
}

describe.skipIf(!onPostgres)('PostgreSQL faults [postgres]', () => {
  const h = {} as Harness & { close(): Promise<void> };
  const crashes: unknown[] = [];
  const record = (error: unknown) => crashes.push(error);
  let admin: pg.Client;
  let dbName: string;

  /** Terminates every backend of the service's database; returns how many. */
  async function terminateBackends(): Promise<number> {
    const { rows } = await admin.query(
      'select pg_terminate_backend(pid) as gone from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    return rows.filter((r) => r.gone).length;
  }

  /**
   * After terminations the pool drops its dead idle connections as their sockets' close is read, which a busy machine
   * may take a moment to do: let it, and wait for readiness, before the test itself uses the database again.
   */
  async function settle(): Promise<void> {
    await pause(500);
    await until('readiness', async () => (await h.http.get('/readyz')).status === 200, 10_000);
  }

  beforeEach(async () => {
    await settle();
  });

  beforeAll(async () => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    Object.assign(
      h,
      await createHarness('postgres', {
        settings: { free_seconds_per_day: 86400, session_idle_timeout: 3600, max_heartbeat_gap: 60 },
        beforeReady: probes,
      }),
    );
    dbName = new URL(h.config.database_url).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await h.close?.();
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  });

  it('fails only the transaction whose connection dies between two statements, leaves none of its rows, and reconnects', async () => {
    const { player } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx);
    const other = await createGame(h.ctx);
    const attempt = h.ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('favorites').values({ player_id: player.id, game_id: game.id, created_at: 1 }).execute();
      expect(await terminateBackends()).toBeGreaterThan(0);
      // The client is checked out and idle: its socket closes now, with no query to report to.
      await pause(300);
      await trx.insertInto('favorites').values({ player_id: player.id, game_id: other.id, created_at: 1 }).execute();
    });
    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(crashes).toEqual([]);
    expect(await h.ctx.db.selectFrom('favorites').selectAll().where('player_id', '=', player.id).execute()).toEqual([]);
    expect((await h.http.get('/readyz')).status).toBe(200);
  });

  it('answers 503 unavailable in the envelope to a request whose connection dies mid-query, and rolls its transaction back', async () => {
    const { player } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx);
    const pending = h.http.post('/v1/test/slow-transaction', { body: { player: player.id, game: game.id } });
    // wait until the transaction sleeps in PostgreSQL, then end its backend
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query(
        "select 1 from pg_stat_activity where datname = $1 and query like '%pg_sleep%' and state = 'active'",
        [dbName],
      );
      if (rows.length) break;
      await pause(50);
    }
    await terminateBackends();
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(res.headers['retry-after']).toBe('5');
    expect(await h.ctx.db.selectFrom('favorites').selectAll().where('player_id', '=', player.id).execute()).toEqual([]);
    expect(crashes).toEqual([]);
    expect((await h.http.get('/v1/games')).status).toBe(200);
  });

  it('lives through backends terminated again and again under heartbeats, saves, scores and the sweep, and keeps every acknowledged write', async () => {
    const game = await createGame(h.ctx, { save_slots: 1 });
    const WORKERS = 6;
    const workers = await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        const { player, token } = await createPlayerWithToken(h.ctx);
        const session = await createPlaySession(h.ctx, player.id, game.id, { status: 'active' });
        return {
          w,
          player,
          token,
          session,
          savedAcked: 0,
          savedTried: 0,
          scoresAcked: [] as number[],
          creditedAcked: 0,
        };
      }),
    );
    // sessions long idle, for the sweep to close while the backends go
    for (let i = 0; i < 5; i++) {
      const { player } = await createPlayerWithToken(h.ctx);
      await createPlaySession(h.ctx, player.id, game.id, {
        status: 'active',
        lastHeartbeatAt: h.clock.now() - 7200_000,
      });
    }
    const sweeper = startIdleSweep(h.ctx, 20);

    const outcomes: Response[] = [];
    const unexpected: string[] = [];
    const check = (what: string, res: Response, ok: number[]) => {
      outcomes.push(res);
      const unavailable = res.status === 503 && res.body?.error?.code === 'unavailable';
      if (!ok.includes(res.status) && !unavailable) unexpected.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
      return ok.includes(res.status);
    };
    const round = async (worker: (typeof workers)[number]) => {
      const n = ++worker.savedTried;
      h.clock.advance(1);
      const beat = await h.http.post('/v1/play/heartbeat', {
        token: worker.token,
        body: { session: worker.session.token },
      });
      if (check('heartbeat', beat, [200]))
        worker.creditedAcked = Math.max(worker.creditedAcked, beat.body.data.credited_seconds);
      const save = await h.http.put(`/v1/games/${game.slug}/states/0`, { token: worker.token, body: { state: { n } } });
      if (check('save', save, [200, 201])) worker.savedAcked = n;
      const score = worker.w * 1_000_000 + n;
      const submit = await h.http.post(`/v1/games/${game.slug}/scores`, { token: worker.token, body: { score } });
      if (check('score', submit, [201])) worker.scoresAcked.push(score);
    };

    let storming = true;
    const load = workers.map(async (worker) => {
      while (storming) await round(worker);
    });
    let terminated = 0;
    for (let i = 0; i < 12; i++) {
      await pause(250);
      terminated += await terminateBackends();
    }
    storming = false;
    await Promise.all(load);
    await sweeper.stop();

    expect(crashes).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(terminated).toBeGreaterThan(0);
    const refused = outcomes.filter((r) => r.status === 503).length;
    expect(outcomes.length).toBeGreaterThan(refused);

    // Later requests all succeed: the pool replaced its connections.
    await settle();
    for (const worker of workers) {
      const before = outcomes.length;
      await round(worker);
      expect(outcomes.slice(before).map((r) => r.status)).toEqual([200, expect.any(Number), 201]);
      expect([200, 201]).toContain(outcomes[before + 1]!.status);
    }
    expect((await h.http.get('/readyz')).status).toBe(200);

    // Every acknowledged write is there.
    for (const worker of workers) {
      const state = await h.ctx.db
        .selectFrom('save_states')
        .select('state')
        .where('player_id', '=', worker.player.id)
        .executeTakeFirstOrThrow();
      const stored = JSON.parse(state.state!).n as number;
      expect(stored).toBe(worker.savedTried); // the last save, acknowledged after the storm
      const scores = await h.ctx.db
        .selectFrom('scores')
        .select('score')
        .where('player_id', '=', worker.player.id)
        .execute();
      expect(scores.map((s) => s.score)).toEqual(expect.arrayContaining(worker.scoresAcked));
      const session = await h.ctx.db
        .selectFrom('play_sessions')
        .select('credited_seconds')
        .where('id', '=', worker.session.id)
        .executeTakeFirstOrThrow();
      expect(session.credited_seconds).toBeGreaterThanOrEqual(worker.creditedAcked);
      // A heartbeat writes the session, the day's usage and the game's playtime in one transaction: all or nothing.
      const usage = await h.ctx.db
        .selectFrom('daily_usage')
        .select((eb) => eb.fn.sum<number>('seconds').as('seconds'))
        .where('player_id', '=', worker.player.id)
        .executeTakeFirstOrThrow();
      expect(Number(usage.seconds)).toBe(session.credited_seconds);
    }
    const sessions = await h.ctx.db
      .selectFrom('play_sessions')
      .select((eb) => eb.fn.sum<number>('credited_seconds').as('seconds'))
      .where('game_id', '=', game.id)
      .executeTakeFirstOrThrow();
    expect(await gamePlaytime(h.ctx.db, game.id)).toBe(Number(sessions.seconds));
    // The sweep closed the idle sessions despite the faults.
    const stillActive = await h.ctx.db
      .selectFrom('play_sessions')
      .select('id')
      .where('game_id', '=', game.id)
      .where('status', '=', 'active')
      .execute();
    expect(stillActive.length).toBe(WORKERS);
    console.info(
      `postgres faults: ${terminated} backends terminated, ${outcomes.length} requests, ${refused} answered 503 unavailable`,
    );
  }, 120_000);

  it('as a process: waits for a database that refuses connections at start, then lives through its backends terminated under load', async () => {
    const scratch = await createTestDatabase('postgres');
    const name = new URL(scratch.url).pathname.slice(1);
    await admin.query(`alter database ${name} allow_connections false`);
    const port = await freePort();
    // node itself with tsx's loader, not the tsx command: the command relays SIGTERM to its child, and kills it (exit
    // 143) when the child does not confirm within 30 ms, which a loaded machine can miss. The stop must be the service's.
    const tsxLoader = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsxLoader, path.join(root, 'src/cli.ts'), 'serve'], {
      cwd: scratch.dataDir,
      env: {
        PATH: process.env.PATH ?? '',
        GP_DATABASE_URL: scratch.url,
        GP_DATA_DIR: scratch.dataDir,
        GP_PORT: String(port),
        GP_HOST: '127.0.0.1',
        GP_LOG_LEVEL: 'info',
        GP_DATABASE_CONNECT_TIMEOUT_SECONDS: '120',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('the start to retry', () => output.includes('the database cannot be reached'), 60_000);
      expect(output).toMatch(/not currently accepting connections\) while migrating; retrying in/);
      await admin.query(`alter database ${name} allow_connections true`);
      await until('the service to serve', () => output.includes('serving http'), 90_000);

      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const burst = Array.from({ length: 6 }, (_, j) => get(port, j % 2 ? '/v1/status' : '/v1/games'));
        await pause(50);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        statuses.push(...(await Promise.all(burst)));
      }
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(child.exitCode).toBeNull();
      await until('readiness', async () => (await get(port, '/readyz')) === 200, 10_000);
      expect(await get(port, '/v1/games')).toBe(200);
      expect(output).not.toMatch(/uncaught|unhandled error/i);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await scratch.drop();
  }, 240_000);
});
