// Heartbeat throughput and latency (p50/p99) through the whole HTTP stack (app.inject: auth, validation, the write
// transaction, serialisation) on SQLite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
// Run: npm run bench:heartbeat [-- --players 400 --games 20 --rounds 10 --concurrency 1,32]
// One unmeasured round warms up first; concurrency 1 shows the cost of one heartbeat, higher values the throughput.
import { percentile, scratchDatabase } from './lib.js';
import { parseArgs } from 'node:util';
import { buildApp, type App } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DialectName } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { newSecret, secretPrefix, sha256 } from '../src/lib/secrets.js';

const { values: args } = parseArgs({
  options: {
    players: { type: 'string', default: '400' },
    games: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,32' },
  },
});
const PLAYERS = Number(args.players);
const GAMES = Number(args.games);
const ROUNDS = Number(args.rounds);
const CONCURRENCIES = args.concurrency.split(',').map(Number);

/** Players with a token each, games, and one started session per player (players spread over `games` games). */
async function seed(app: App, games: number): Promise<Array<{ token: string; session: string }>> {
  const { db } = app.ctx;
  const now = app.ctx.clock.now();
  const slugs: string[] = [];
  for (let g = 0; g < games; g++) {
    const slug = `bench-${games}-${g}`;
    await db
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
        leaderboard_enabled: 0,
        leaderboard_order: 'desc',
        leaderboard_unit: 'points',
        save_slots: 0,
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
      .execute();
    slugs.push(slug);
  }
  const players: Array<{ token: string; session: string }> = [];
  for (let i = 0; i < PLAYERS; i++) {
    const username = `bench_${games}_${i}`;
    const { id } = await db
      .insertInto('players')
      .values({
        email: `${username}@example.com`,
        username,
        username_key: username,
        display_name: username,
        password_hash: 'x',
        bio: null,
        country: null,
        avatar_key: null,
        membership_renews_at: null,
        membership_ends_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = newSecret('agp_');
    await db
      .insertInto('player_tokens')
      .values({
        player_id: id,
        name: 'bench',
        token_hash: sha256(token),
        prefix: secretPrefix(token),
        created_at: now,
        last_used_at: now,
        expires_at: now + 86_400_000 * 90,
      })
      .execute();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/play/start',
      headers: { authorization: `Bearer ${token}` },
      payload: { game: slugs[i % games] },
    });
    if (res.statusCode !== 200) throw new Error(`start: ${res.statusCode} ${res.body}`);
    players.push({ token, session: res.json().data.session });
  }
  return players;
}

/** `rounds` rounds: the clock moves 30 s, then every player heartbeats, `concurrency` requests in flight. */
async function measure(
  app: App,
  clock: ManualClock,
  players: Array<{ token: string; session: string }>,
  rounds: number,
  concurrency: number,
) {
  const latencies: number[] = [];
  let elapsed = 0;
  for (let round = 0; round < rounds; round++) {
    clock.advance(30);
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < players.length) {
        const p = players[next++]!;
        const t0 = performance.now();
        const res = await app.inject({
          method: 'POST',
          url: '/v1/play/heartbeat',
          headers: { authorization: `Bearer ${p.token}` },
          payload: { session: p.session },
        });
        latencies.push(performance.now() - t0);
        if (res.statusCode !== 200 || res.json().data.limit_reached)
          throw new Error(`heartbeat: ${res.statusCode} ${res.body}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    elapsed += performance.now() - started;
  }
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    throughput: latencies.length / (elapsed / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1]!,
  };
}

async function bench(dialect: DialectName) {
  const scratch = await scratchDatabase(dialect);
  const dataDir = scratch.dataDir;
  const config = loadConfig({
    env: { NODE_ENV: 'test' },
    cwd: dataDir,
    // a large allowance, so that no session reaches the limit during the rounds; the cap is still evaluated
    overrides: {
      data_dir: dataDir,
      database_url: scratch.url,
      log_level: 'silent',
      free_seconds_per_day: 86_400,
      rate_limits: { default: { max: 1_000_000 } },
    },
  });
  const database = openDatabase(config.database_url, { poolSize: 20 });
  const clock = new ManualClock('2026-11-21T10:00:00Z');
  try {
    await migrateToLatest(database.db);
    const app = await buildApp({ config, database, clock });
    await app.ready();
    for (const games of [GAMES, 1]) {
      const players = await seed(app, games);
      await measure(app, clock, players, 1, 8); // warm-up
      for (const concurrency of CONCURRENCIES) {
        const r = await measure(app, clock, players, ROUNDS, concurrency);
        const where = games === 1 ? 'all on 1 game' : `spread over ${games} games`;
        console.log(
          `${dialect.padEnd(8)} ${String(PLAYERS).padStart(4)} players ${where.padEnd(22)} ${r.requests} heartbeats, ${String(concurrency).padStart(2)} in flight: ` +
            `${r.throughput.toFixed(0).padStart(5)}/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms`,
        );
      }
    }
    await app.close();
  } finally {
    await database.destroy();
    await scratch.drop();
  }
}

const dialects: DialectName[] = ['sqlite'];
if (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) dialects.push('postgres');
else console.log('(set BENCH_DATABASE_URL=postgres://… to measure PostgreSQL too)');
console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
for (const dialect of dialects) await bench(dialect);
