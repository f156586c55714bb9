// The idle sweep (service, server timer, CLI) and players_online in GET /v1/status.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { sweepIdleSessions } from '../../src/modules/play/play.service.js';
import { startIdleSweep, sweepIntervalMs } from '../../src/modules/play/play.sweeper.js';
import { eachDialect } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';
import { createGame, createPlayer, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import { playApi, playing, sessionRow, usage } from './play-helpers.js';

eachDialect('play: the idle sweep', (h) => {
  const api = playApi(h);
  const activeCount = async () =>
    Number(
      (
        await h.ctx.db
          .selectFrom('play_sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'active')
          .executeTakeFirstOrThrow()
      ).n,
    );
  afterEach(async () => {
    // every test starts without live sessions of earlier tests
    h.clock.advance(3600);
    await sweepIdleSessions(h.ctx);
    vi.useRealTimers();
  });

  it('closes sessions idle for session_idle_timeout with reason timeout, crediting nothing, and leaves the others', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const idle = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(idle.token, idle.session);
    const heardAt = h.clock.now();
    h.clock.advance(200);
    const live = await playing(h);
    h.clock.advance(99);
    expect(await sweepIdleSessions(h.ctx)).toBe(0);
    h.clock.advance(1); // 300 s since the idle one was heard from
    expect(await sweepIdleSessions(h.ctx)).toBe(1);
    expect(await sessionRow(h, idle.session)).toMatchObject({
      status: 'closed',
      end_reason: 'timeout',
      ended_at: heardAt,
      credited_seconds: 30,
    });
    expect((await usage(h, idle.player.id, '2026-06-01')).seconds).toBe(30);
    expect((await sessionRow(h, live.session)).status).toBe('active');
    expect((await api.heartbeat(idle.token, idle.session)).body.error.code).toBe('session_ended');
    expect((await api.end(idle.token, idle.session)).body.data).toMatchObject({
      reason: 'timeout',
      credited_seconds: 30,
      session_seconds: 30,
    });
  });

  it('closes each session once when two sweeps run at the same time', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const game = await createGame(h.ctx);
    for (let i = 0; i < 30; i++)
      await createPlaySession(h.ctx, (await createPlayer(h.ctx)).id, game.id, { status: 'active' });
    h.clock.advance(300);
    const [a, b] = await Promise.all([sweepIdleSessions(h.ctx), sweepIdleSessions(h.ctx)]);
    expect(a + b).toBe(30);
    expect(await activeCount()).toBe(0);
  });

  it('runs on a timer in the server process, and stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    h.clock.set('2026-06-03T10:00:00Z');
    const p = await playing(h);
    const sweeper = startIdleSweep(h.ctx);
    expect(sweepIntervalMs(h.ctx)).toBe(60_000);
    h.clock.advance(300);
    await vi.advanceTimersByTimeAsync(60_000);
    await sweeper.stop();
    expect((await sessionRow(h, p.session)).status).toBe('closed');
    const q = await playing(h);
    h.clock.advance(300);
    await vi.advanceTimersByTimeAsync(120_000);
    expect((await sessionRow(h, q.session)).status).toBe('active');
  });

  it('counts players_online: distinct players with an active session heard from within the idle timeout', async () => {
    h.clock.set('2026-06-04T10:00:00Z');
    const online = async () => (await h.http.get('/v1/status')).body.data.players_online;
    expect(await online()).toBe(0);
    const a = await playing(h);
    await api.start(a.token, (await createGame(h.ctx)).slug); // a second game: still one player
    const b = await playing(h);
    const c = await playing(h);
    await api.end(c.token, c.session);
    expect(await online()).toBe(2);
    h.clock.advance(200);
    await api.heartbeat(b.token, b.session);
    h.clock.advance(100); // a's sessions are idle now, not yet swept
    expect(await online()).toBe(1);
    h.clock.advance(200);
    expect(await online()).toBe(0);
  });
});

describe('cli: gameplatform play sweep', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const cli = (args: string[], dir: string) =>
    promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/cli.ts'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', GP_LOG_LEVEL: 'silent', GP_DATA_DIR: dir },
    });

  it('closes the idle sessions of the configured database', async () => {
    const dir = tempDir('gp-cli-');
    const database = openDatabase(path.join(dir, 'gameplatform.sqlite'));
    try {
      await migrateToLatest(database.db);
      const ctx = { db: database.db, clock: systemClock } as AppContext;
      const game = await createGame(ctx);
      const player = await createPlayer(ctx);
      const { token: idle } = await createPlaySession(ctx, player.id, game.id, {
        status: 'active',
        lastHeartbeatAt: Date.now() - 600_000,
      });
      await createPlaySession(ctx, (await createPlayerWithToken(ctx)).player.id, game.id, { status: 'active' });
      const res = await cli(['play', 'sweep'], dir);
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(/closed 1 idle play session\b/);
      const rows = await database.db
        .selectFrom('play_sessions')
        .select(['status', 'end_reason'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { status: 'closed', end_reason: 'timeout' },
        { status: 'active', end_reason: null },
      ]);
      expect(idle).toMatch(/^ps_/);
    } finally {
      await database.destroy();
    }
  });
});
