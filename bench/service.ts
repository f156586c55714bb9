// What the benchmarks over HTTP share: the service started as it is deployed, and the rows they seed with SQL.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DialectName, Executor } from '../src/db/connect.js';
import { newSecret, secretPrefix, sha256 } from '../src/lib/secrets.js';
import { freePort } from '../test/helpers/ports.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '..');
/** The service's reset_timezone (its default, set explicitly so that the seeded day rows are the service's days). */
export const RESET_ZONE = 'Europe/Berlin';

/** The flags `npm start` gives node (package.json's start script: `node <flags> dist/src/cli.js serve`). */
export function startFlags(): string[] {
  const start: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  if (words[0] !== 'node' || !words.includes('dist/src/cli.js'))
    throw new Error(`package.json's start script is not "node … dist/src/cli.js serve": ${start}`);
  return words.slice(1, words.indexOf('dist/src/cli.js'));
}

/**
 * The service as it is deployed (dist/, the node flags of `npm start`) over `databaseUrl`, logs to /dev/null; `settings`
 * adds GP_* variables over the benchmarks' own (a day's allowance no session reaches, no rate limit).
 */
export async function startService(
  databaseUrl: string,
  dataDir: string,
  settings: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // BENCH_PROFILE=<dir>: the service writes a CPU profile there when it stops (node --cpu-prof)
  const profile = env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(env.BENCH_PROFILE)] : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...startFlags(),
      ...(env.BENCH_NODE_FLAGS ? env.BENCH_NODE_FLAGS.split(' ') : []),
      path.join(ROOT, 'dist/src/cli.js'),
      'serve',
    ],
    {
      cwd: dataDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: env.PATH,
        NODE_ENV: 'development',
        GP_DATABASE_URL: databaseUrl,
        GP_DATA_DIR: dataDir,
        GP_HOST: '127.0.0.1',
        GP_PORT: String(port),
        GP_PUBLIC_URL: `http://localhost:${port}`,
        // enough allowance that no session reaches the limit (the cap is still evaluated on every credit)
        GP_FREE_SECONDS_PER_DAY: '86400',
        GP_RATE_LIMITS_DEFAULT_MAX: '1000000000',
        GP_RESET_TIMEZONE: RESET_ZONE,
        // BENCH_CREDENTIAL_CACHE=false: every request reads its token from the database (PostgreSQL)
        ...(env.BENCH_CREDENTIAL_CACHE ? { GP_CREDENTIAL_CACHE: env.BENCH_CREDENTIAL_CACHE } : {}),
        ...settings,
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/v1/status`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function insertGame(db: Executor, slug: string, now: number): Promise<number> {
  const row = await db
    .insertInto('games')
    .values({
      slug,
      name: slug,
      tagline: null,
      description: null,
      category: 'arcade',
      tags: '[]',
      version: '1.0.0',
      orientation: 'any',
      players_min: 1,
      players_max: 1,
      leaderboard_enabled: 1,
      leaderboard_order: 'desc',
      leaderboard_unit: 'points',
      save_slots: 3,
      requires_premium: 0,
      status: 'published',
      author: 'bench',
      released_at: '2026-01-01',
      cover: 'c.png',
      entry: 'index.html',
      files_dir: slug,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** `count` players named `<prefix>_<n>` written with one statement (a generated series); returns the id before the first. */
export async function insertPlayersBulk(
  db: Executor,
  dialect: DialectName,
  prefix: string,
  count: number,
  now: number,
): Promise<number> {
  const before = Number(
    (
      await db
        .selectFrom('players')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m ?? 0,
  );
  const series =
    dialect === 'postgres'
      ? sql`select generate_series(1, ${count}) as i`
      : sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) select i from n`;
  await sql`insert into players (email, username, username_key, display_name, password_hash, created_at, updated_at)
    select ${prefix} || '_' || i || '@example.com', ${prefix} || '_' || i, ${prefix} || '_' || i, ${prefix} || '_' || i, 'x', ${now}, ${now}
    from (${series}) s`.execute(db);
  return before;
}

/** Players with a token each (SQL); ids in creation order. */
/**
 * Players with one token each. `lastUsedAt`: null for players whose first call comes through the API (it writes the
 * time), or the time of the call the seeded rows stand for (a session started with SQL was started with the token).
 */
export async function insertPlayersWithTokens(
  db: Executor,
  dialect: DialectName,
  prefix: string,
  count: number,
  now: number,
  lastUsedAt: number | null,
): Promise<Array<{ id: number; token: string }>> {
  const before = await insertPlayersBulk(db, dialect, prefix, count, now);
  const rows = await db.selectFrom('players').select('id').where('id', '>', before).orderBy('id').execute();
  const players = rows.map((r) => ({ id: r.id, token: newSecret('agp_') }));
  for (let i = 0; i < players.length; i += 1000) {
    await db
      .insertInto('player_tokens')
      .values(
        players.slice(i, i + 1000).map((p) => ({
          player_id: p.id,
          name: 'bench',
          token_hash: sha256(p.token),
          prefix: secretPrefix(p.token),
          created_at: now,
          last_used_at: lastUsedAt,
          expires_at: now + 86_400_000 * 90,
        })),
      )
      .execute();
  }
  return players;
}

export async function api(
  url: string,
  method: string,
  route: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(url + route, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

export async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
