// PostgreSQL failing over under heartbeat load, tried as an operator would: the real service as a child
// process on a scratch database, N players heartbeating and saving over HTTP, and every backend of the database
// terminated three times in a row, again for each try. Reports whether the process lived, what the requests got, and
// how long until every player was served again.
// Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/db-faults.ts [-- --players 20 --tries 6]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchAdminUrl, scratchDatabase } from './lib.js';
import { freePort } from '../test/helpers/ports.js';

const { values: args } = parseArgs({
  options: { players: { type: 'string', default: '20' }, tries: { type: 'string', default: '6' } },
});
const PLAYERS = Number(args.players);
const TRIES = Number(args.tries);
const root = path.resolve(import.meta.dirname, '..');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!benchAdminUrl)
  throw new Error('set TEST_DATABASE_URL (or BENCH_DATABASE_URL) to an admin connection of a PostgreSQL server');

const scratch = await scratchDatabase('postgres');
const name = new URL(scratch.url).pathname.slice(1);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/cli.ts'), 'serve'], {
  cwd: scratch.dataDir,
  env: {
    PATH: process.env.PATH ?? '',
    GP_DATABASE_URL: scratch.url,
    GP_DATA_DIR: scratch.dataDir,
    GP_PORT: String(port),
    GP_HOST: '127.0.0.1',
    GP_LOG_LEVEL: 'warn',
    GP_RATE_LIMITS_DEFAULT_MAX: '1000000',
    GP_RATE_LIMITS_REGISTER_MAX: '1000',
  },
});
let log = '';
child.stdout.on('data', (chunk) => (log += chunk));
child.stderr.on('data', (chunk) => (log += chunk));
let exitCode: number | null | undefined;
const exited = new Promise<void>((resolve) => child.on('exit', (code) => ((exitCode = code), resolve())));

async function call(
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

const admin = new pg.Client({ connectionString: benchAdminUrl });
await admin.connect();
try {
  for (let i = 0; ; i++) {
    if (
      (await fetch(`${base}/readyz`)
        .then((r) => r.status)
        .catch(() => 0)) === 200
    )
      break;
    if (i > 600 || exitCode !== undefined) throw new Error(`the service did not start:\n${log}`);
    await pause(100);
  }
  // a game to play: a test fixture, published with the command line
  const publish = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    [path.join(root, 'src/cli.ts'), 'games', 'publish', path.join(root, 'test/fixtures/games/orbit-dash')],
    {
      cwd: scratch.dataDir,
      env: {
        PATH: process.env.PATH ?? '',
        GP_DATABASE_URL: scratch.url,
        GP_DATA_DIR: scratch.dataDir,
        GP_LOG_LEVEL: 'silent',
      },
    },
  );
  await new Promise((resolve) => publish.on('exit', resolve));
  const slug = 'orbit-dash';
  const players = [];
  for (let p = 0; p < PLAYERS; p++) {
    const token = (
      await call('POST', '/v1/auth/register', undefined, {
        email: `p${p}@example.com`,
        password: 'correct horse battery',
        display_name: `P${p}`,
      })
    ).json.data.token as string;
    const start = await call('POST', '/v1/play/start', token, { game: slug });
    if (start.status !== 200) throw new Error(`play/start: ${start.status} ${JSON.stringify(start.json)}`);
    const session = start.json.data.session as string;
    players.push({ token, session, lastOk: 0 });
  }

  const statuses = new Map<number, number>();
  let stop = false;
  const load = players.map(async (player, p) => {
    for (let n = 0; !stop; n++) {
      const beat = await call('POST', '/v1/play/heartbeat', player.token, { session: player.session }).catch(() => ({
        status: 0,
        json: undefined,
      }));
      statuses.set(beat.status, (statuses.get(beat.status) ?? 0) + 1);
      const save = await call('PUT', `/v1/games/${slug}/states/0`, player.token, { state: { p, n } }).catch(() => ({
        status: 0,
        json: undefined,
      }));
      statuses.set(save.status, (statuses.get(save.status) ?? 0) + 1);
      if (beat.status === 200 && save.status < 300) player.lastOk = Date.now();
      await pause(20);
    }
  });

  const recoveries: number[] = [];
  for (let t = 0; t < TRIES; t++) {
    await pause(1000);
    for (let k = 0; k < 3; k++) {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await pause(100);
    }
    const faultEnd = Date.now();
    while (players.some((p) => p.lastOk <= faultEnd) && Date.now() - faultEnd < 30_000 && exitCode === undefined)
      await pause(10);
    recoveries.push(Date.now() - faultEnd);
  }
  stop = true;
  await Promise.all(load);

  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(`players ${PLAYERS}, tries ${TRIES} × 3 terminations`);
  console.log(`process: ${exitCode === undefined ? 'alive' : `exited with ${exitCode}`}`);
  console.log(
    `requests ${total}: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, c]) => `${s || 'no answer'}: ${c}`)
      .join(', ')}`,
  );
  console.log(`every player served again after (ms): ${recoveries.join(', ')}`);
  console.log(`uncaught errors in the log: ${(log.match(/uncaught/gi) ?? []).length}`);
} finally {
  await admin.end();
  if (exitCode === undefined) child.kill('SIGTERM');
  await exited;
  console.log(`exit code after SIGTERM: ${exitCode}`);
  await scratch.drop();
}
