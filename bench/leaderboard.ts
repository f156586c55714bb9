// Leaderboard benchmark: fills one board with N ranked players on each database and prints p50/p99 latencies of
// "my rank" (GET …/leaderboard/me), the top-10 page and a few other reads, through the service layer.
//
//   npm run bench:leaderboard                                  # SQLite; PostgreSQL too when TEST_DATABASE_URL is set
//   npm run bench:leaderboard -- --sizes 10000,1000000 --samples 2000 --dialects sqlite,postgres
//
// PostgreSQL: BENCH_DATABASE_URL (or TEST_DATABASE_URL) is an admin connection; the bench creates its own database
// there and drops it afterwards. Not a test: it prints numbers.
import { benchDialects, percentile, scratchDatabase } from './lib.js';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Sqlite } from '../src/db/sqlite-driver.js';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery as Compiled } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { openDatabase, type DatabaseHandle, type DialectName } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { asPlayer } from '../test/helpers/factories.js';
import { createMailer } from '../src/services/mail/mailer.js';
import { createMetrics } from '../src/services/metrics/metrics.js';
import { openStore } from '../src/services/storage/storage.js';
import { getLeaderboard, getStanding } from '../src/modules/scores/leaderboard.service.js';
import type { Database } from '../src/db/schema.js';
import { findBest, keyOfBest } from '../src/modules/scores/bests.repository.js';
import { pageAtOffset, pageBefore, pageFrom } from '../src/modules/scores/pages.repository.js';
import { rankOf, rebuildTree } from '../src/modules/scores/count-tree.js';
import { submitScore } from '../src/modules/scores/scores.service.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,1000000' },
    samples: { type: 'string', default: '2000' },
    dialects: { type: 'string' },
    writes: { type: 'string', default: '300' },
    explain: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = args.sizes!.split(',').map(Number);
const samples = Number(args.samples);
const writes = Number(args.writes);
const dialects = (args.dialects?.split(',') ?? benchDialects) as DialectName[];

const NOW = Date.parse('2026-11-21T12:00:00Z');
const SLUG = 'bench-game';

/**
 * One game, N players and one all-time board, generated in SQL (the same rows on both databases): scores 0..100,000
 * spread by a multiplicative hash (about N/100,000 players share each score), one player in 20 on the perfect
 * 100,003 (a tie group of N/20, ranked by time), best reached at a second within 30 days.
 */
async function fill(handle: DatabaseHandle, n: number): Promise<number> {
  const { db } = handle;
  const game = await db
    .insertInto('games')
    .values({
      slug: SLUG,
      name: 'Bench Game',
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
      save_slots: 0,
      requires_premium: 0,
      status: 'published',
      author: 'Bench',
      released_at: '2026-01-01',
      cover: 'cover.png',
      entry: 'index.html',
      files_dir: 'bench',
      created_at: NOW,
      updated_at: NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const board = await db
    .insertInto('leaderboards')
    .values({ game_id: game.id, board: 'main', period: 'all', period_key: 'all', sort_order: 'desc', created_at: NOW })
    .returning('id')
    .executeTakeFirstOrThrow();
  const series = sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n})`;
  await sql`${series}
    insert into players (email, username, username_key, display_name, password_hash, bio, country, avatar_key, membership_renews_at, membership_ends_at, created_at, updated_at)
    select 'p' || i || '@bench.test', 'p' || i, 'p' || i, 'Player ' || i, 'x', null, 'DE', null, null, null, cast(${NOW} as bigint), cast(${NOW} as bigint) from s`.execute(
    db,
  );
  const score = sql`(case when i % 20 = 0 then 100003 else (cast(i as bigint) * 7919) % 100001 end)`;
  await sql`${series}
    insert into leaderboard_bests (leaderboard_id, player_id, score, norm, reached_at, score_id, entries, last_played)
    select cast(${board.id} as integer), i, ${score}, -${score}, cast(${NOW} as bigint) - ((cast(i as bigint) * 104729) % 2592000) * 1000, i, 1 + i % 5, cast(${NOW} as bigint) from s`.execute(
    db,
  );
  await rebuildTree(db, board.id);
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
  return board.id;
}

async function measure(label: string, count: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(200, count); i++) await fn(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { label, p50: percentile(times, 50), p99: percentile(times, 99) };
}

const player = asPlayer;

function randomIds(n: number, count: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return 1 + (s % n);
  });
}

/** Runs the hot statements through a Kysely that records them, then prints each one's plan. */
async function explain(dialect: DialectName, url: string, boardId: number, playerId: number): Promise<void> {
  const seen: Compiled[] = [];
  const log = (event: { query: Compiled }) => void seen.push(event.query);
  const pool = dialect === 'postgres' ? new pg.Pool({ connectionString: url, max: 1 }) : undefined;
  const db = new Kysely<Database>({
    dialect: pool ? new PostgresDialect({ pool }) : new SqliteDialect({ database: new Sqlite(url) }),
    log,
  });
  try {
    const key = keyOfBest((await findBest(db, boardId, playerId))!);
    const wanted: Array<[string, () => Promise<unknown>]> = [
      ['rank of one player (rankAndTotal)', () => rankOf(db, boardId, key)],
      ['top-10 page (pageAtOffset)', () => pageAtOffset(db, boardId, 0, 10)],
      ['keyset page after a key (pageFrom)', () => pageFrom(db, boardId, key, 10)],
      ['keyset page before a key (pageBefore)', () => pageBefore(db, boardId, key, 5)],
    ];
    for (const [label, run] of wanted) {
      seen.length = 0;
      await run();
      const query = seen[0]!;
      const prefix =
        dialect === 'postgres' ? 'explain (analyze, costs off, timing off, summary off) ' : 'explain query plan ';
      const plan = await db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
      );
      console.log(`\n-- ${dialect}: ${label}`);
      for (const row of plan.rows) console.log(`   ${String(row['QUERY PLAN'] ?? row.detail)}`);
    }
  } finally {
    await db.destroy();
  }
}

type Row = { dialect: DialectName; size: number; label: string; p50: number; p99: number };

async function runOne(dialect: DialectName, n: number): Promise<Row[]> {
  const scratch = await scratchDatabase(dialect);
  const config = loadConfig({
    env: { NODE_ENV: 'test' },
    overrides: { database_url: scratch.url, log_level: 'silent' },
  });
  const handle = openDatabase(config.database_url, { poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const t0 = performance.now();
    const boardId = await fill(handle, n);
    const fillSeconds = (performance.now() - t0) / 1000;
    const nodes = await handle.db
      .selectFrom('leaderboard_nodes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    console.error(
      `  ${dialect} ${n.toLocaleString('en')} players: filled in ${fillSeconds.toFixed(1)} s, ${Number(nodes.n).toLocaleString('en')} tree nodes`,
    );
    const clock = new ManualClock(NOW);
    const log = pino({ level: 'silent' });
    const ctx: AppContext = {
      config,
      db: handle.db,
      dialect: handle.dialect,
      clock,
      log,
      mailer: createMailer({ config, db: handle.db, clock, log }),
      metrics: createMetrics(),
      storage: await openStore(config),
    };
    const ids = randomIds(n, samples + 200, 12345);
    const keys = await Promise.all(
      ids.slice(0, 300).map(async (id) => keyOfBest((await findBest(handle.db, boardId, id))!)),
    );
    const query = { board: 'main', period: 'all' as const, limit: 10, offset: 0 };
    const results = [
      await measure('my rank (GET …/leaderboard/me)', samples, (i) =>
        getStanding(ctx, SLUG, ids[i]!, { board: 'main', period: 'all' }),
      ),
      await measure('top-10 page (GET …/leaderboard)', samples, () => getLeaderboard(ctx, SLUG, query, null)),
      await measure('rank query alone (rankOf)', samples, (i) => rankOf(handle.db, boardId, keys[i % keys.length]!)),
      await measure('top-10 page with data.me', samples, (i) => getLeaderboard(ctx, SLUG, query, player(ids[i]!))),
      await measure('around=me page (limit 10)', samples, (i) =>
        getLeaderboard(ctx, SLUG, { ...query, around: 'me' }, player(ids[i]!)),
      ),
      await measure('deep page (offset N/2, limit 10)', Math.min(samples, 500), () =>
        getLeaderboard(ctx, SLUG, { ...query, offset: Math.floor(n / 2) }, null),
      ),
      await measure('submit a score (POST …/scores)', writes, (i) =>
        submitScore(ctx, {
          slug: SLUG,
          credential: player(ids[i]!),
          body: { score: 50_000 + ((i * 37) % 60_000), board: 'main' },
        }),
      ),
    ];
    if (args.explain && n === Math.max(...sizes)) await explain(dialect, config.database_url, boardId, ids[0]!);
    return results.map((r) => ({ dialect, size: n, ...r }));
  } finally {
    await handle.destroy();
    if (args.keep) console.error(`  kept ${scratch.url}`);
    else await scratch.drop();
  }
}

function report(rows: Row[]): void {
  const ms = (v: number) => `${v.toFixed(2)} ms`.padStart(9);
  console.log(`\nleaderboard bench, ${samples} samples per read, ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    `${'database'.padEnd(9)}${'players'.padStart(10)}  ${'operation'.padEnd(36)}${'p50'.padStart(9)}${'p99'.padStart(9)}`,
  );
  for (const r of rows)
    console.log(
      `${r.dialect.padEnd(9)}${r.size.toLocaleString('en').padStart(10)}  ${r.label.padEnd(36)}${ms(r.p50)}${ms(r.p99)}`,
    );
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  if (small === large) return;
  console.log(
    `\nmy-rank cost at ${large.toLocaleString('en')} players over its cost at ${small.toLocaleString('en')} (target ≤ 2):`,
  );
  for (const dialect of dialects) {
    const pick = (size: number) =>
      rows.find((r) => r.dialect === dialect && r.size === size && r.label.startsWith('my rank'))!;
    const a = pick(small);
    const b = pick(large);
    console.log(`  ${dialect.padEnd(9)} p50 ×${(b.p50 / a.p50).toFixed(2)}   p99 ×${(b.p99 / a.p99).toFixed(2)}`);
  }
}

const rows: Row[] = [];
for (const dialect of dialects) {
  for (const n of sizes) rows.push(...(await runOne(dialect, n)));
}
report(rows);
