// Two service processes on one PostgreSQL database, one Redis and one bucket, started together on a fresh database, as
// on two machines (each with its own data_dir): every request may land on either, and they behave as one.
// PostgreSQL only (SQLite is one file on one machine). The services are child processes (tsx over the sources).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/secrets.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { fixtureCopy } from '../helpers/factories.js';
import { multipartBody } from '../helpers/multipart.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { freePort } from '../helpers/ports.js';
import { removeTempDir, tempDir } from '../helpers/temp.js';

const root = path.resolve(import.meta.dirname, '../..');
const PUBLIC_URL = 'http://localhost:8080';
const LOGIN_MAX = 4;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A request to one instance; the URL's host goes in the Host header (game files answer on the game's own host). */
function call(
  port: number,
  method: string,
  url: string,
  options: {
    token?: string;
    json?: unknown;
    body?: Buffer;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const target = new URL(url, PUBLIC_URL);
  const headers: Record<string, string> = { host: target.host, origin: PUBLIC_URL, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: Buffer | undefined = options.body;
  if (options.json !== undefined) {
    payload = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  }
  if (options.contentType) headers['content-type'] = options.contentType;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: target.pathname + target.search, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          let body: unknown;
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface Instance {
  port: number;
  child: ChildProcess;
  output: string[];
}

function startInstance(env: Record<string, string>, port: number): Instance {
  const dataDir = tempDir('gp-instance-');
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/cli.ts'), 'serve'], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', ...env, GP_DATA_DIR: dataDir, GP_PORT: String(port), GP_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  return { port, child, output };
}

async function ready(instance: Instance, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null)
      throw new Error(`instance on ${instance.port} exited: ${instance.output.join('')}`);
    try {
      if ((await call(instance.port, 'GET', '/v1/status')).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`instance on ${instance.port} did not start: ${instance.output.join('')}`);
}

const postgres = enabledDialects().includes('postgres');

describe.runIf(postgres)('two instances on one PostgreSQL, one Redis and one bucket [postgres]', () => {
  let s3: S3Server;
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: Instance[] = [];
  let db: pg.Client;
  /** port of the instance for the i-th request: requests alternate */
  const at = (i: number) => instances[i % 2]!.port;

  beforeAll(async () => {
    s3 = await startS3();
    database = await createTestDatabase('postgres');
    const storage = s3.settings();
    env = {
      NODE_ENV: 'test',
      GP_LOG_LEVEL: 'warn',
      GP_DATABASE_URL: database.url,
      GP_PUBLIC_URL: PUBLIC_URL,
      GP_SECRET: 'two-instances-share-this-secret-of-40-chars',
      GP_REDIS_URL: 'redis://127.0.0.1:6379',
      GP_REDIS_PREFIX: `gp-two-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`,
      GP_RATE_LIMITS_LOGIN_MAX: String(LOGIN_MAX),
      // The shortest idle timeout: both instances sweep every 2 seconds.
      GP_SESSION_IDLE_TIMEOUT: '10',
      GP_HEARTBEAT_INTERVAL: '5',
      GP_MAX_HEARTBEAT_GAP: '10',
      GP_RATE_LIMITS_REGISTER_MAX: '1000',
      GP_RATE_LIMITS_DEFAULT_MAX: '100000',
      GP_STORAGE_URL: String(storage.storage_url),
      GP_S3_ENDPOINT: String(storage.s3_endpoint),
      GP_S3_ACCESS_KEY_ID: String(storage.s3_access_key_id),
      GP_S3_SECRET_ACCESS_KEY: String(storage.s3_secret_access_key),
      GP_S3_FORCE_PATH_STYLE: 'true',
    };
    // Started together on the fresh database: both migrate, both try to publish the demo games.
    const ports = [await freePort(), await freePort()];
    instances = ports.map((port) => startInstance(env, port));
    const deadline = Date.now() + 150_000;
    await Promise.all(instances.map((instance) => ready(instance, deadline)));
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((resolve) => {
            if (instance.child.exitCode !== null) return resolve();
            instance.child.once('exit', () => resolve());
            instance.child.kill('SIGTERM');
          }),
      ),
    );
    await database?.drop();
    await s3?.close();
  }, 60_000);

  async function register(i: number): Promise<{ token: string; username: string }> {
    const name = `p${Math.random().toString(36).slice(2, 10)}`;
    const res = await call(at(i), 'POST', '/v1/auth/register', {
      json: { email: `${name}@example.com`, password: 'correct horse battery', display_name: name, username: name },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { token: res.body.data.token, username: name };
  }

  it('publishes the demo games once, and both serve every cover', async () => {
    const { rows } = await db.query<{ slug: string }>('select slug from games order by slug');
    const demos = rows.map((r) => r.slug);
    expect(demos.length).toBeGreaterThanOrEqual(3);
    const list = await call(at(0), 'GET', '/v1/games?limit=50');
    expect(list.status).toBe(200);
    const games = list.body.data.games as Array<{ slug: string; cover_url: string }>;
    expect(games.map((g) => g.slug).sort()).toEqual(demos);
    for (const game of games) {
      const bodies = [];
      for (const instance of instances) {
        const cover = await call(instance.port, 'GET', game.cover_url);
        expect(cover.status, `${game.cover_url} on ${instance.port}`).toBe(200);
        bodies.push(cover.raw);
      }
      expect(bodies[0]!.equals(bodies[1]!)).toBe(true);
    }
  });

  it('serves an avatar uploaded through one instance from the other', async () => {
    const { token } = await register(0);
    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#cc3366' } })
      .png()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { field: 'avatar', filename: 'me.png', contentType: 'image/png', data: picture },
    ]);
    const uploaded = await call(at(0), 'POST', '/v1/me/avatar', { token, body, contentType });
    expect(uploaded.status).toBe(200);
    for (const instance of instances) {
      const served = await call(instance.port, 'GET', uploaded.body.data.avatar_url);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
    }
  });

  it('serves a game published with the CLI from both, the entry file with a session started on the other', async () => {
    const dir = fixtureCopy('orbit-dash');
    const slug = JSON.parse(readFileSync(path.join(dir, 'game.json'), 'utf8')).slug as string;
    const cliDataDir = tempDir('gp-cli-machine-');
    const published = await runCli(['games', 'publish', dir], {
      ...env,
      GP_DATA_DIR: cliDataDir,
      GP_LOG_LEVEL: 'silent',
    });
    removeTempDir(cliDataDir);
    expect(published.code, published.stderr).toBe(0);
    const { token } = await register(1);
    const started = await call(at(0), 'POST', '/v1/play/start', { token, json: { game: slug } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (const instance of instances) {
      const entry = await call(instance.port, 'GET', started.body.data.entry_url);
      const location = entry.status === 302 ? String(entry.headers.location) : null;
      const page = location ? await call(instance.port, 'GET', location) : entry;
      expect(page.status, `entry on ${instance.port}`).toBe(200);
      expect(page.raw.toString()).toContain('<');
      const script = await call(instance.port, 'GET', `http://${slug}.games.localhost:8080/game.js`);
      expect(script.status).toBe(200);
    }
  });

  it('credits heartbeats racing over both instances once', async () => {
    const { token } = await register(0);
    const started = await call(at(1), 'POST', '/v1/play/start', { token, json: { game: 'tile-merge' } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const session = started.body.data.session as string;
    // 6 seconds have passed since the last heartbeat (moved back in the database rather than waited for).
    await db.query(
      `update play_sessions set started_at = started_at - 6000, last_heartbeat_at = last_heartbeat_at - 6000, credited_until = credited_until - 6000
       where token_hash = $1`,
      [sha256(session)],
    );
    const beats = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(at(i), 'POST', '/v1/play/heartbeat', { token, json: { session } })),
    );
    expect(beats.map((b) => b.status)).toEqual(Array(10).fill(200));
    const credited = Math.max(...beats.map((b) => b.body.data.credited_seconds as number));
    expect(credited).toBeGreaterThanOrEqual(6);
    expect(credited).toBeLessThanOrEqual(10);
    const { rows } = await db.query<{ credited_seconds: number }>(
      'select credited_seconds from play_sessions where token_hash = $1',
      [sha256(session)],
    );
    expect(rows[0]!.credited_seconds).toBe(credited);
  });

  it('closes each idle session once, with both instances sweeping', async () => {
    const sessions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { token } = await register(i);
      const started = await call(at(i), 'POST', '/v1/play/start', { token, json: { game: 'reflex' } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      sessions.push(sha256(started.body.data.session as string));
    }
    // Silent for a minute (moved back in the database); the instances' own timers find them.
    await db.query(
      'update play_sessions set started_at = started_at - 60000, last_heartbeat_at = last_heartbeat_at - 60000, credited_until = credited_until - 60000 where token_hash = any($1)',
      [sessions],
    );
    const before = await db.query<{ token_hash: string; last_heartbeat_at: string }>(
      'select token_hash, last_heartbeat_at from play_sessions where token_hash = any($1)',
      [sessions],
    );
    const deadline = Date.now() + 20_000;
    let rows: Array<{
      token_hash: string;
      status: string;
      end_reason: string;
      ended_at: string;
      credited_seconds: number;
    }> = [];
    while (Date.now() < deadline) {
      rows = (
        await db.query(
          'select token_hash, status, end_reason, ended_at, credited_seconds from play_sessions where token_hash = any($1)',
          [sessions],
        )
      ).rows;
      if (rows.every((r) => r.status === 'closed')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const heard = before.rows.find((b) => b.token_hash === row.token_hash)!.last_heartbeat_at;
      expect(row).toMatchObject({ status: 'closed', end_reason: 'timeout', credited_seconds: 0 });
      expect(String(row.ended_at)).toBe(String(heard));
    }
  }, 60_000);

  it('lets one of 20 racing first saves over both instances win', async () => {
    const { token } = await register(1);
    const saves = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(at(i), 'PUT', '/v1/games/tile-merge/states/1', { token, json: { state: { n: i }, expected_version: 0 } }),
      ),
    );
    expect(saves.filter((s) => s.status === 201)).toHaveLength(1);
    expect(saves.filter((s) => s.status === 409)).toHaveLength(19);
  });

  it('shares the login limit between the instances', async () => {
    const { username } = await register(0);
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_MAX + 2; i++)
      statuses.push(
        (await call(at(i), 'POST', '/v1/auth/login', { json: { login: username, password: 'wrong password here' } }))
          .status,
      );
    expect(statuses).toEqual([...Array(LOGIN_MAX).fill(401), 429, 429]);
  });

  it('refuses on one instance a token revoked through the other, at once', async () => {
    const { token } = await register(0);
    expect((await call(at(1), 'GET', '/v1/me', { token })).status).toBe(200);
    expect((await call(at(0), 'POST', '/v1/auth/logout', { token })).status).toBeLessThan(300);
    expect((await call(at(1), 'GET', '/v1/me', { token })).status).toBe(401);
  });
});
