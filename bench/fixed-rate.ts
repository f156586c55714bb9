// Latency under a fixed, modest load: players heartbeating, saving, loading, scoring and reading boards at a chosen
// request rate (an open loop: each request is sent at its scheduled moment whether or not the earlier ones were
// answered, and its latency counts from that moment, so a stall shows in the percentiles instead of slowing the load).
//
// The service runs as deployed (`npm run build`, the node flags of `npm start`) over a scratch database per dialect,
// with the players, their play sessions, a score and a save each seeded first. Then, per dialect: the mix's maximum
// rate (closed loop, BENCH_CONNECTIONS requests in flight, BENCH_MAX_SECONDS), and the fixed-rate run at
// BENCH_RATE_SHARE of it (default half) or at BENCH_RATE requests a second, BENCH_SECONDS long, which prints p50, p95,
// p99 and the worst latency per route, and the service's database pool waits.
//
// Run: npm run bench:fixed-rate (TEST_DATABASE_URL=postgres://… for PostgreSQL too)
// Settings (environment): BENCH_SECONDS (fixed-rate run, default 30), BENCH_MAX_SECONDS (10), BENCH_CONNECTIONS (50),
// BENCH_PLAYERS (300), BENCH_RATE (requests a second; else BENCH_RATE_SHARE, 0.5, of the measured maximum),
// BENCH_DIALECTS, BENCH_NO_BUILD=1, BENCH_POOL_SIZE (the service's database_pool_size).
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type DialectName } from '../src/db/connect.js';
import { benchDialects, percentile, scratchDatabase } from './lib.js';
import { api, inBatches, insertGame, insertPlayersWithTokens, startService, stop } from './service.js';

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 30);
const MAX_SECONDS = Number(env.BENCH_MAX_SECONDS ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const PLAYERS = Number(env.BENCH_PLAYERS ?? 300);
const RATE_SHARE = Number(env.BENCH_RATE_SHARE ?? 0.5);
const ROOT = path.resolve(import.meta.dirname, '..');
/** A save as a game would write it: a few KB. */
const STATE = { format: 1, level: 4, cells: Array.from({ length: 400 }, (_, i) => (i * 7) % 11), score: 1234 };

interface Player {
  token: string;
  session: string;
}

interface Call {
  route: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  token: string;
}

/** The mix, by weight: what a portal full of players sends (heartbeats most, every few seconds per player). */
const MIX: Array<{ route: string; weight: number; make: (p: Player, i: number) => Omit<Call, 'route' | 'token'> }> = [
  {
    route: 'POST /v1/play/heartbeat',
    weight: 50,
    make: (p) => ({ method: 'POST', path: '/v1/play/heartbeat', body: JSON.stringify({ session: p.session }) }),
  },
  {
    route: 'PUT …/states/{slot}',
    weight: 12,
    make: () => ({ method: 'PUT', path: '/v1/games/bench/states/0', body: JSON.stringify({ state: STATE }) }),
  },
  { route: 'GET …/states/{slot}', weight: 8, make: () => ({ method: 'GET', path: '/v1/games/bench/states/0' }) },
  {
    route: 'POST …/scores',
    weight: 10,
    make: (p, i) => ({
      method: 'POST',
      path: '/v1/games/bench/scores',
      body: JSON.stringify({ score: (i * 7919) % 100_003, play_session: p.session }),
    }),
  },
  {
    route: 'GET …/leaderboard',
    weight: 12,
    make: () => ({ method: 'GET', path: '/v1/games/bench/leaderboard?limit=10' }),
  },
  { route: 'GET …/leaderboard/me', weight: 8, make: () => ({ method: 'GET', path: '/v1/games/bench/leaderboard/me' }) },
];
const TOTAL_WEIGHT = MIX.reduce((sum, m) => sum + m.weight, 0);

/** The i-th call of the mix: the routes in their proportions, spread over the players. */
function callAt(players: Player[], i: number): Call {
  let slot = (i * 37) % TOTAL_WEIGHT;
  const entry = MIX.find((m) => (slot -= m.weight) < 0)!;
  const player = players[(i * 7) % players.length]!;
  return { route: entry.route, token: player.token, ...entry.make(player, i) };
}

/** Kept-alive connections, as many as the calls in flight need. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** Sends one call; resolves with its status once the whole answer is in (0: no answer). */
function send(url: string, call: Call): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      url + call.path,
      {
        method: call.method,
        agent,
        headers: {
          authorization: `Bearer ${call.token}`,
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(call.body);
  });
}

/** The mix's maximum rate: `CONNECTIONS` calls in flight for `MAX_SECONDS`, a new one as each is answered. */
async function maxRate(url: string, players: Player[]): Promise<number> {
  let next = 0;
  let done = 0;
  const until = performance.now() + MAX_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        await send(url, callAt(players, next++));
        done++;
      }
    }),
  );
  return done / MAX_SECONDS;
}

interface RouteStats {
  latencies: number[];
  failed: number;
}

/** `rate` calls a second for `SECONDS`, each sent at its moment; latency from that moment to the whole answer. */
async function fixedRate(url: string, players: Player[], rate: number): Promise<Map<string, RouteStats>> {
  const stats = new Map<string, RouteStats>(MIX.map((m) => [m.route, { latencies: [], failed: 0 }]));
  const total = Math.round(rate * SECONDS);
  const start = performance.now();
  const inFlight: Array<Promise<void>> = [];
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Every call whose moment has come is sent now (the timer's lateness is charged to it, as a client would see).
    for (; i < total && start + (i * 1000) / rate <= now; i++) {
      const due = start + (i * 1000) / rate;
      const call = callAt(players, 1_000_000 + i);
      inFlight.push(
        send(url, call).then((status) => {
          const route = stats.get(call.route)!;
          if (status >= 200 && status < 300) route.latencies.push(performance.now() - due);
          else route.failed++;
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return stats;
}

/** Queries waiting for a database connection now (the service's /metrics: gameplatform_db_pool_waiting). */
async function poolWaiting(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('gameplatform_db_pool_waiting'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Samples the pool's queue every quarter second until `done` settles: its largest and mean length. */
async function watchPool(url: string, done: Promise<unknown>): Promise<{ max: number; mean: number }> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const samples: number[] = [];
  while (!finished) {
    samples.push(await poolWaiting(url).catch(() => 0));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { max: Math.max(0, ...samples), mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length) };
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const scratch = await scratchDatabase(dialect);
  const settings: Record<string, string> = env.BENCH_POOL_SIZE ? { GP_DATABASE_POOL_SIZE: env.BENCH_POOL_SIZE } : {};
  const service = await startService(scratch.url, scratch.dataDir, settings);
  const database = openDatabase(scratch.url, { poolSize: 4 });
  try {
    const now = Date.now();
    await insertGame(database.db, 'bench', now);
    const seeded = await insertPlayersWithTokens(database.db, dialect, 'fr', PLAYERS, now, null);
    const players: Player[] = [];
    await inBatches(seeded, 20, async (p) => {
      const start = await api(service.url, 'POST', '/v1/play/start', p.token, { game: 'bench' });
      if (start.status !== 200) throw new Error(`start: ${start.status} ${JSON.stringify(start.json)}`);
      const save = await api(service.url, 'PUT', '/v1/games/bench/states/0', p.token, { state: STATE });
      if (save.status !== 201) throw new Error(`save: ${save.status} ${JSON.stringify(save.json)}`);
      players.push({ token: p.token, session: start.json.data.session });
    });
    const max = await maxRate(service.url, players);
    const rate = Math.max(1, Math.round(env.BENCH_RATE ? Number(env.BENCH_RATE) : max * RATE_SHARE));
    console.log(
      `\n${dialect}: the mix's maximum ${max.toFixed(0)} req/s (${CONNECTIONS} in flight); fixed rate ${rate} req/s for ${SECONDS} s`,
    );
    const running = fixedRate(service.url, players, rate);
    const pool = await watchPool(service.url, running);
    const stats = await running;
    console.log('\n| route | share | answered | p50 ms | p95 ms | p99 ms | max ms | failed |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const entry of MIX) {
      const route = stats.get(entry.route)!;
      const sorted = route.latencies.sort((a, b) => a - b);
      const ms = (p: number) => (sorted.length ? percentile(sorted, p).toFixed(1) : '–');
      console.log(
        `| ${entry.route} | ${Math.round((entry.weight / TOTAL_WEIGHT) * 100)} % | ${sorted.length} | ${ms(50)} | ${ms(95)} | ${ms(99)} | ${sorted.length ? sorted[sorted.length - 1]!.toFixed(1) : '–'} | ${route.failed} |`,
      );
    }
    console.log(
      `\nqueries waiting for a database connection, sampled every 250 ms: at most ${pool.max}, ${pool.mean.toFixed(2)} on average`,
    );
  } finally {
    await stop(service.child);
    await database.destroy();
    await scratch.drop();
  }
}

if (env.BENCH_NO_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}
console.log(
  `node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString().slice(0, 16)} UTC; ${PLAYERS} players`,
);
if (!benchDialects.includes('postgres')) console.log('(set TEST_DATABASE_URL=postgres://… to measure PostgreSQL too)');
const only = env.BENCH_DIALECTS?.split(',');
for (const dialect of benchDialects.filter((d) => !only || only.includes(d))) await benchDialect(dialect);
agent.destroy();
