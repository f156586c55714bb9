// GET /v1/dev/games/{slug}/stats over a large history: how long the call takes, and (--explain) the plan of each query,
// to show that every statistic reads one game's rows through an index and none scans a table.
// Run: npm run bench:dev-stats [-- --players 20000 --sessions 300000 --noise 300000 --runs 20 --explain]
//      with TEST_DATABASE_URL=postgres://… it runs on SQLite, then PostgreSQL.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { CompiledQuery, type KyselyPlugin } from 'kysely';
import { buildApp, type App } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Db, type DialectName } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { newSecret, secretPrefix, sha256 } from '../src/lib/secrets.js';
import {
  countBoards,
  countLiveSessions,
  countPlayersEver,
  countSavedSlots,
  playsPerWindow,
} from '../src/modules/dev/stats.repository.js';
import { recentDays } from '../src/time.js';
import { createTestDatabase } from '../test/helpers/database.js';

const { values: args } = parseArgs({
  options: {
    players: { type: 'string', default: '20000' },
    sessions: { type: 'string', default: '300000' },
    noise: { type: 'string', default: '300000' },
    runs: { type: 'string', default: '20' },
    explain: { type: 'boolean', default: false },
  },
});
const PLAYERS = Number(args.players);
const SESSIONS = Number(args.sessions);
const NOISE = Number(args.noise);
const RUNS = Number(args.runs);
const NOW = Date.parse('2026-11-21T12:00:00Z');
const DAY = 86_400_000;

/** A small deterministic generator (mulberry32), so every run seeds the same history. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function insertBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Two games' worth of history: `SESSIONS` sessions of the measured game over 90 days, `NOISE` on another, saves, live sessions, a board. */
async function seed(db: Db): Promise<{ gameId: number; slug: string; key: string }> {
  const rnd = random(42);
  const game = (slug: string) => ({
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
    leaderboard_enabled: 1 as const,
    leaderboard_order: 'desc',
    leaderboard_unit: 'points',
    save_slots: 3,
    requires_premium: 0 as const,
    status: 'published',
    author: 'bench',
    released_at: '2026-01-01',
    cover: 'c.png',
    entry: 'index.html',
    files_dir: slug,
    created_at: NOW,
    updated_at: NOW,
    plays: slug === 'measured' ? SESSIONS : NOISE,
  });
  const measured = (await db.insertInto('games').values(game('measured')).returning('id').executeTakeFirstOrThrow()).id;
  const noise = (await db.insertInto('games').values(game('noise')).returning('id').executeTakeFirstOrThrow()).id;
  const players = Array.from({ length: PLAYERS }, (_, i) => ({
    email: `p${i}@example.com`,
    username: `p${i}`,
    username_key: `p${i}`,
    display_name: `P ${i}`,
    password_hash: 'x',
    bio: null,
    country: null,
    avatar_key: null,
    membership_renews_at: null,
    membership_ends_at: null,
    created_at: NOW,
    updated_at: NOW,
  }));
  await insertBatches(players, 1000, (batch) => db.insertInto('players').values(batch).execute());
  const firstId = (
    await db
      .selectFrom('players')
      .select((eb) => eb.fn.min<number>('id').as('id'))
      .executeTakeFirstOrThrow()
  ).id;

  let n = 0;
  const session = (
    gameId: number,
    playerId: number,
    startedAt: number,
    active: boolean,
    heardAt = startedAt + 600_000,
  ) => ({
    token_hash: `bench-${n++}`,
    player_id: playerId,
    game_id: gameId,
    status: active ? 'active' : 'closed',
    started_at: startedAt,
    last_heartbeat_at: heardAt,
    credited_until: heardAt,
    credited_seconds: 600,
    ended_at: active ? null : heardAt,
    end_reason: active ? null : 'quit',
  });
  const history = (gameId: number, count: number) =>
    Array.from({ length: count }, () =>
      session(gameId, firstId + Math.floor(rnd() * PLAYERS), NOW - 3600_000 - Math.floor(rnd() * 90 * DAY), false),
    );
  await insertBatches([...history(measured, SESSIONS), ...history(noise, NOISE)], 500, (batch) =>
    db.insertInto('play_sessions').values(batch).execute(),
  );
  // Sessions open now: 500 live (heard within a minute) and 500 idle (not swept yet), each of a different player.
  const open = Array.from({ length: 1000 }, (_, i) =>
    session(measured, firstId + i, NOW - 1800_000, true, i < 500 ? NOW - 30_000 : NOW - 900_000),
  );
  await insertBatches(open, 500, (batch) => db.insertInto('play_sessions').values(batch).execute());

  const saves = players.flatMap((_, i) =>
    [0, 1, 2].map((slot) => ({
      player_id: firstId + i,
      game_id: i % 2 ? measured : noise,
      slot,
      version: 1,
      label: null,
      state: JSON.stringify({ level: i, slot, inventory: ['sword', 'shield', 'potion'] }),
      size_bytes: 60,
      created_at: NOW,
      updated_at: NOW,
    })),
  );
  await insertBatches(saves, 1000, (batch) => db.insertInto('save_states').values(batch).execute());

  // The all-time main board of the measured game, every player ranked once with a number of submissions, beside the
  // boards that share the tables: the same players on the other game's board and on 60 day boards of the measured game.
  const addBoard = async (gameId: number, period: string, periodKey: string, ranked: number) => {
    const id = (
      await db
        .insertInto('leaderboards')
        .values({ game_id: gameId, board: 'main', period, period_key: periodKey, sort_order: 'desc', created_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const bests = Array.from({ length: ranked }, (_, i) => {
      const score = Math.floor(rnd() * 100_000);
      return {
        leaderboard_id: id,
        player_id: firstId + i,
        score,
        norm: -score,
        reached_at: NOW - i,
        score_id: i + 1,
        entries: 1 + Math.floor(rnd() * 20),
        last_played: NOW,
      };
    });
    await insertBatches(bests, 1000, (batch) => db.insertInto('leaderboard_bests').values(batch).execute());
  };
  await addBoard(measured, 'all', 'all', PLAYERS);
  await addBoard(noise, 'all', 'all', PLAYERS);
  for (let day = 0; day < 60; day++)
    await addBoard(measured, 'day', new Date(NOW - day * DAY).toISOString().slice(0, 10), Math.floor(PLAYERS / 20));

  const key = newSecret('agk_');
  await db
    .insertInto('developer_keys')
    .values({
      game_id: measured,
      name: 'bench',
      key_hash: sha256(key),
      prefix: secretPrefix(key),
      scopes: 'stats:read',
      created_at: NOW,
    })
    .execute();
  return { gameId: measured, slug: 'measured', key };
}

/** Records the SQL of every query run through the returned handle (subqueries are compiled too: keep the executed ones). */
function capturing(db: Db): { db: Db; queries: CompiledQuery[] } {
  const compiled = new Map<unknown, CompiledQuery>();
  const queries: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (a) => {
      compiled.set(a.queryId, db.getExecutor().compileQuery(a.node, a.queryId));
      return a.node;
    },
    transformResult: async (a) => {
      queries.push(compiled.get(a.queryId)!);
      return a.result;
    },
  };
  return { db: db.withPlugin(plugin), queries };
}

async function explain(db: Db, dialect: DialectName, gameId: number) {
  const { db: spy, queries } = capturing(db);
  await countPlayersEver(spy, gameId);
  await countLiveSessions(spy, gameId, NOW - 300_000);
  await playsPerWindow(spy, gameId, recentDays(NOW, 'Europe/Berlin', 7));
  await countSavedSlots(spy, gameId, 3);
  await countBoards(spy, gameId);
  for (const q of queries) {
    const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain (analyze, buffers, costs off, timing off) ';
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + q.sql, [...q.parameters]));
    console.log(`\n${q.sql.replace(/\s+/g, ' ').slice(0, 160)}${q.sql.length > 160 ? ' …' : ''}`);
    for (const row of plan.rows) console.log(`    ${dialect === 'sqlite' ? row.detail : row['QUERY PLAN']}`);
  }
}

async function measure(app: App, slug: string, key: string) {
  const call = () =>
    app.inject({ method: 'GET', url: `/v1/dev/games/${slug}/stats`, headers: { authorization: `Bearer ${key}` } });
  const first = await call();
  if (first.statusCode !== 200) throw new Error(`stats: ${first.statusCode} ${first.body}`);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]!, data: first.json().data };
}

async function run(dialect: DialectName) {
  const testDb = await createTestDatabase(dialect);
  const config = loadConfig({
    env: { NODE_ENV: 'test' },
    cwd: testDb.dataDir,
    overrides: { data_dir: testDb.dataDir, database_url: testDb.url, log_level: 'silent' },
  });
  const database = openDatabase(config.database_url, { poolSize: 10 });
  try {
    await migrateToLatest(database.db);
    const t0 = performance.now();
    const { gameId, slug, key } = await seed(database.db);
    if (dialect === 'postgres') await database.db.executeQuery(CompiledQuery.raw('vacuum analyze'));
    console.log(
      `${dialect}: seeded ${PLAYERS} players, ${SESSIONS + NOISE + 1000} sessions, ${PLAYERS * 3} saves in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const app = await buildApp({ config, database, clock: new ManualClock(NOW) });
    await app.ready();
    const r = await measure(app, slug, key);
    console.log(
      `${dialect}: GET /dev/games/{slug}/stats  p50 ${r.p50.toFixed(1)} ms  max ${r.max.toFixed(1)} ms over ${RUNS} calls`,
    );
    console.log(
      `${dialect}: players ${r.data.players}, plays ${r.data.plays}, live ${r.data.active_sessions}, 7 days ${r.data.last_7_days.plays} plays / ${r.data.last_7_days.players} players, slots ${r.data.saves.slots_in_use}, scores ${r.data.scores.submitted} by ${r.data.scores.boards[0]?.players} players`,
    );
    if (args.explain) await explain(database.db, dialect, gameId);
    await app.close();
  } finally {
    await database.destroy();
    await testDb.drop();
  }
}

console.log(`node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
await run('sqlite');
if (process.env.TEST_DATABASE_URL) await run('postgres');
else console.log('(set TEST_DATABASE_URL=postgres://… to measure PostgreSQL too)');
