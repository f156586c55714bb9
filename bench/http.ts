// The hot routes over real HTTP, against a bare Fastify route measured in the same run.
//
// Two processes besides this one: the bare route (bench/http-bare.ts) and the service as it is deployed (`npm run
// build`, then `node dist/src/cli.js serve` with the node flags of `npm start`, GP_* settings, default log_level info,
// logs to /dev/null) over a scratch database: a temporary SQLite file, and a new PostgreSQL database when
// TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set. autocannon drives each route over loopback; every line gives
// req/s, p50, p99, the non-2xx count, the ratio to the bare route of the same method, the CPU time per request and,
// of it, the time in V8's garbage collector (from the service's /metrics), and on PostgreSQL the share of player
// tokens the credential cache served (the rest were read from the database). Then how throughput holds as the work
// grows (heartbeats with 300 and with 20,000 running sessions, each token used once before; score submissions on a
// board of 1,000 and of 1,000,000 players), the service's RSS, and the totals (credited seconds as the sessions
// reported them; one winner per racing save; every save counted once in the slot's version).
//
// Players and their tokens, and the big tables of the scaling runs, are written with SQL (fast); sessions, scores
// and states of the 300 players go through the API.
//
// Run: npm run bench:http
// Settings (environment): BENCH_SECONDS (per route, default 8), BENCH_CONNECTIONS (50), BENCH_PLAYERS (300),
// BENCH_CROWD (20000 sessions), BENCH_BIG_BOARD (1000000 players), BENCH_ROUTES (comma list of route names to run),
// BENCH_NO_BUILD=1 (use dist/ as built), BENCH_SCALING=0 (skip the scaling runs), BENCH_DIALECTS (e.g. postgres: only these),
// BENCH_PROFILE=<dir> (the service writes a CPU profile there, node --cpu-prof; read it with bench/profile-top.ts),
// BENCH_NODE_FLAGS (more flags for the service's node, after those of `npm start`, e.g. --max-semi-space-size=8),
// BENCH_CREDENTIAL_CACHE=false (the service's credential_cache setting: every token read from the database).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { benchDialects, scratchDatabase } from './lib.js';
import { openDatabase, type DialectName, type Executor } from '../src/db/connect.js';
import { newSecret, sha256 } from '../src/lib/secrets.js';
import { dayWindow } from '../src/time.js';
import { playtimeSeconds } from '../src/modules/games/playtime.repository.js';
import { fillBestsFromScores } from '../src/modules/scores/bests.repository.js';
import { insertBoard } from '../src/modules/scores/boards.repository.js';
import { rebuildTree } from '../src/modules/scores/count-tree.js';
import {
  RESET_ZONE,
  api,
  inBatches,
  insertGame,
  insertPlayersBulk,
  insertPlayersWithTokens,
  startService,
  stop,
} from './service.js';

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const PLAYERS = Number(env.BENCH_PLAYERS ?? 300);
const CROWD = Number(env.BENCH_CROWD ?? 20_000);
const BIG_BOARD = Number(env.BENCH_BIG_BOARD ?? 1_000_000);
const SMALL_BOARD = 1_000;
const ONLY = env.BENCH_ROUTES ? new Set(env.BENCH_ROUTES.split(',')) : null;
const SCALING = env.BENCH_SCALING !== '0';
const ROOT = path.resolve(import.meta.dirname, '..');
const STATE_16K = {
  level: 7,
  grid: Array.from({ length: 200 }, (_, i) => ({
    x: i,
    y: i * 2,
    tile: 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghij'.slice(i % 7),
  })),
};

interface Player {
  id: number;
  token: string;
  session: string;
}

interface Result {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) the answering process spent per request, in µs: robust to a busy machine, unlike req/s */
  cpuUs: number;
  /** Of that, time in V8's garbage collector per request, in µs (the service's /metrics; the bare route has none) */
  gcUs?: number;
  /** PostgreSQL: the share of the player tokens read from the credential cache, not the database (its /metrics) */
  cacheHits?: number;
}

// ---- processes -----------------------------------------------------------------------------------------------

async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = pattern.exec(line);
    if (match) {
      lines.close();
      child.stdout!.resume();
      return match;
    }
  }
  throw new Error(`process ended before printing ${pattern}`);
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/http-bare.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...env, PORT: '0' },
  });
  const [, port] = await waitForLine(child, /^listening (\d+)/);
  return { url: `http://127.0.0.1:${port}`, child };
}

/** CPU time (user + system) of a process so far, in µs (from /proc, in clock ticks of 10 ms). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Seconds the process spent collecting garbage so far, all kinds (its /metrics), or undefined without /metrics. */
async function gcSeconds(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!response?.ok) return undefined;
  const sums = [...(await response.text()).matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)];
  return sums.reduce((total, [, value]) => total + Number(value), 0);
}

/** The credential cache's hits and misses so far (its /metrics), or undefined when the service keeps no cache. */
async function credentialLookups(url: string): Promise<{ hit: number; miss: number } | undefined> {
  const response = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!response?.ok) return undefined;
  const text = await response.text();
  const count = (result: string) =>
    new RegExp(`^gameplatform_credential_cache_lookups_total\\{result="${result}"\\} (\\S+)$`, 'm').exec(text)?.[1];
  const [hit, miss] = [count('hit'), count('miss')];
  return hit === undefined && miss === undefined ? undefined : { hit: Number(hit ?? 0), miss: Number(miss ?? 0) };
}

/** The V8 heap (total and used) and external memory the service reports on /metrics, in MB: where its RSS goes. */
async function heapOf(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const mb = (name: string) =>
    (Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1048576).toFixed(0);
  return `heap ${mb('nodejs_heap_size_total_bytes')} MB (${mb('nodejs_heap_size_used_bytes')} used), external ${mb('nodejs_external_memory_bytes')} MB`;
}

function rssMb(pid: number): { rss: number; peak: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return {
    rss: kb(status, 'VmRSS') / 1024,
    peak: kb(status, 'VmHWM') / 1024,
    anon: kb(status, 'RssAnon') / 1024,
    file: kb(status, 'RssFile') / 1024,
  };
}

// ---- load ----------------------------------------------------------------------------------------------------

type Request = { method: string; path: string; headers?: Record<string, string>; body?: string };

/**
 * `SECONDS` of load with `CONNECTIONS` connections, one request in flight each. `next(i)` builds the i-th request
 * (called once per request, so that every request can name another player); `onResponse` sees each response.
 */
async function load(
  name: string,
  method: Result['method'],
  url: string,
  next: (i: number) => Request,
  onResponse?: (status: number, body: string, request: Request) => void,
): Promise<Result> {
  let i = 0;
  const pid = pids.get(url)!;
  const gcBefore = await gcSeconds(url);
  const lookupsBefore = await credentialLookups(url);
  const cpuBefore = cpuUs(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
          const r = next(i++);
          context.request = r;
          return {
            ...req,
            method: r.method,
            path: r.path,
            headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...r.headers },
            body: r.body,
          };
        },
        ...(onResponse
          ? {
              onResponse: (status: number, body: string, context: Record<string, unknown>) =>
                onResponse(status, body, context.request as Request),
            }
          : {}),
      },
    ],
  });
  const cpuAfter = cpuUs(pid);
  const gcAfter = gcBefore === undefined ? undefined : await gcSeconds(url);
  const lookupsAfter = await credentialLookups(url);
  const requests = Math.max(1, result.requests.total);
  const hits = (lookupsAfter?.hit ?? 0) - (lookupsBefore?.hit ?? 0);
  const lookups = hits + (lookupsAfter?.miss ?? 0) - (lookupsBefore?.miss ?? 0);
  return {
    name,
    method,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUs: (cpuAfter - cpuBefore) / requests,
    ...(gcAfter === undefined ? {} : { gcUs: ((gcAfter - gcBefore!) * 1e6) / requests }),
    ...(lookups > 0 ? { cacheHits: hits / lookups } : {}),
  };
}

/** The process behind each base URL (bare route, service), for cpuUs. */
const pids = new Map<string, number>();

const bearer = (p: Player) => ({ authorization: `Bearer ${p.token}` });
const pick = <T>(list: T[], i: number) => list[i % list.length]!;

// ---- seeding -------------------------------------------------------------------------------------------------

/** A board of `size` players seeded with SQL: players, one score each last year (so only the all-time board is big), the all-time board built by the service's own code. */
async function seedBoard(db: Executor, dialect: DialectName, slug: string, size: number, now: number): Promise<void> {
  const gameId = await insertGame(db, slug, now);
  const before = await insertPlayersBulk(db, dialect, slug, size, now);
  const past = now - 400 * 86_400_000;
  await sql`insert into scores (game_id, player_id, board, score, meta, play_session_id, created_at)
    select ${gameId}, id, 'main', (id % 4093) * 509 + id % 1021, null, null, cast(${past} as bigint) + id from players where id > ${before}`.execute(
    db,
  );
  const ref = { gameId, board: 'main', period: 'all', periodKey: 'all', order: 'desc' };
  await db.transaction().execute(async (trx) => {
    const id = (await insertBoard(trx, ref, now))!;
    await fillBestsFromScores(trx, { boardId: id, gameId, board: 'main', order: 'desc', window: null });
    await rebuildTree(trx, id);
  });
}

// ---- one database --------------------------------------------------------------------------------------------

const fmt = (n: number, w: number) => n.toFixed(0).padStart(w);

function line(r: Result, bare: Record<string, number>): string {
  const base = r.method === 'GET' ? bare.GET! : bare.POST!;
  const ratio = base ? `${((100 * r.rps) / base).toFixed(1).padStart(5)} %` : '';
  const cpuBase = r.method === 'GET' ? bare.cpuGET! : bare.cpuPOST!;
  const cpuRatio = cpuBase
    ? ` CPU ${fmt(r.cpuUs, 5)} µs/req (bare/this ${((100 * cpuBase) / r.cpuUs).toFixed(1).padStart(5)} %)`
    : '';
  const gc = r.gcUs === undefined ? '' : `, GC ${r.gcUs.toFixed(1).padStart(5)} µs`;
  const cache = r.cacheHits === undefined ? '' : `, credential cache hits ${(100 * r.cacheHits).toFixed(0)} %`;
  return `  ${r.name.padEnd(34)} ${fmt(r.rps, 7)} req/s  p50 ${fmt(r.p50, 3)} ms  p99 ${fmt(r.p99, 4)} ms  non-2xx ${fmt(r.non2xx, 5)}  err ${fmt(r.errors, 3)}  ${ratio}${cpuRatio}${gc}${cache}`;
}

const want = (name: string) => !ONLY || ONLY.has(name);

async function benchDialect(dialect: DialectName, bareUrl: string): Promise<boolean> {
  const scratch = await scratchDatabase(dialect);
  const service = await startService(scratch.url, scratch.dataDir);
  pids.set(service.url, service.child.pid!);
  const database = openDatabase(scratch.url, { poolSize: 4 });
  const { db } = database;
  let ok = true;
  const check = (what: string, good: boolean, detail: string) => {
    console.log(`  check ${good ? 'ok  ' : 'FAIL'} ${what}: ${detail}`);
    if (!good) ok = false;
  };
  try {
    console.log(`\n${dialect} (service pid ${service.child.pid})`);
    const now = Date.now();
    const gameId = await insertGame(db, 'bench', now);
    const seeded = await insertPlayersWithTokens(db, dialect, 'bp', PLAYERS, now, null);
    const players: Player[] = [];
    await inBatches(seeded, 20, async (p) => {
      const start = await api(service.url, 'POST', '/v1/play/start', p.token, { game: 'bench' });
      if (start.status !== 200) throw new Error(`start: ${start.status} ${JSON.stringify(start.json)}`);
      const score = await api(service.url, 'POST', '/v1/games/bench/scores', p.token, { score: p.id * 10 });
      if (score.status !== 201) throw new Error(`score: ${score.status} ${JSON.stringify(score.json)}`);
      const save = await api(service.url, 'PUT', '/v1/games/bench/states/0', p.token, {
        state: STATE_16K,
        label: 'bench',
      });
      if (save.status !== 201) throw new Error(`save: ${save.status} ${JSON.stringify(save.json)}`);
      players.push({ ...p, session: start.json.data.session });
    });
    const stateBytes = JSON.stringify(STATE_16K).length;

    const bare: Record<string, number> = {};
    const results: Result[] = [];
    const run = async (r: Promise<Result>) => {
      const result = await r;
      results.push(result);
      if (result.name === 'bare GET /') Object.assign(bare, { GET: result.rps, cpuGET: result.cpuUs });
      if (result.name === 'bare POST / (JSON)') Object.assign(bare, { POST: result.rps, cpuPOST: result.cpuUs });
      console.log(line(result, bare));
    };

    let heartbeats = 0;
    const onHeartbeat = (status: number) => {
      if (status === 200) heartbeats++;
    };
    let crowdPlayers: Player[] = [];
    const heartbeatOf =
      (list: Player[]) =>
      (i: number): Request => {
        const p = pick(list, i);
        return {
          method: 'POST',
          path: '/v1/play/heartbeat',
          headers: bearer(p),
          body: JSON.stringify({ session: p.session }),
        };
      };
    const scoreOn =
      (slug: string) =>
      (i: number): Request => ({
        method: 'POST',
        path: `/v1/games/${slug}/scores`,
        headers: bearer(pick(players, i)),
        body: JSON.stringify({ score: (i * 7919) % 1_000_003 }),
      });

    await run(load('bare GET /', 'GET', bareUrl, () => ({ method: 'GET', path: '/' })));
    await run(
      load('bare POST / (JSON)', 'POST', bareUrl, (i) => ({
        method: 'POST',
        path: '/',
        body: JSON.stringify({ session: `ps_${i}`, n: i }),
      })),
    );
    if (want('status'))
      await run(load('GET /v1/status', 'GET', service.url, () => ({ method: 'GET', path: '/v1/status' })));
    if (want('games'))
      await run(load('GET /v1/games', 'GET', service.url, () => ({ method: 'GET', path: '/v1/games' })));
    if (want('heartbeat'))
      await run(load(`POST heartbeat (${PLAYERS} sessions)`, 'POST', service.url, heartbeatOf(players), onHeartbeat));
    if (want('scores')) await run(load('POST …/scores', 'POST', service.url, scoreOn('bench')));
    if (want('leaderboard')) {
      await run(
        load('GET …/leaderboard?limit=10 (player)', 'GET', service.url, (i) => ({
          method: 'GET',
          path: '/v1/games/bench/leaderboard?limit=10',
          headers: bearer(pick(players, i)),
        })),
      );
    }
    if (want('me'))
      await run(
        load('GET …/leaderboard/me', 'GET', service.url, (i) => ({
          method: 'GET',
          path: '/v1/games/bench/leaderboard/me',
          headers: bearer(pick(players, i)),
        })),
      );
    // saves: every 2xx counted per player, to check each is one version step
    const saves = new Map<string, number>();
    if (want('state-put')) {
      await run(
        load(
          `PUT …/states/0 (${(stateBytes / 1024).toFixed(0)} KB)`,
          'PUT',
          service.url,
          (i) => ({
            method: 'PUT',
            path: '/v1/games/bench/states/0',
            headers: bearer(pick(players, i)),
            body: JSON.stringify({ state: STATE_16K }),
          }),
          (status, _body, req) => {
            if (status < 300) saves.set(req.headers!.authorization!, (saves.get(req.headers!.authorization!) ?? 0) + 1);
          },
        ),
      );
    }
    if (want('state-get')) {
      await run(
        load(`GET …/states/0 (${(stateBytes / 1024).toFixed(0)} KB)`, 'GET', service.url, (i) => ({
          method: 'GET',
          path: '/v1/games/bench/states/0',
          headers: bearer(pick(players, i)),
        })),
      );
    }
    const afterRoutes = rssMb(service.child.pid!);
    console.log(
      `  service RSS ${afterRoutes.rss.toFixed(0)} MB (peak ${afterRoutes.peak.toFixed(0)} MB; anon ${afterRoutes.anon.toFixed(0)}, file ${afterRoutes.file.toFixed(0)}); ${await heapOf(service.url)}`,
    );

    // ---- totals of the heartbeats (before the sessions can go idle) ----
    const checkCredits = async () => {
      // Responses still in flight when a load stops are never seen; so every session that was credited gets one more
      // heartbeat, alone, whose credited_seconds is the session's whole credit as the service reports it (after a
      // pause: the service may still be answering requests autocannon gave up on).
      await new Promise((r) => setTimeout(r, 5000));
      const tokens = new Map([...players, ...crowdPlayers].map((p) => [sha256(p.session), p]));
      const credited = await db
        .selectFrom('play_sessions')
        .select(['token_hash', 'credited_seconds'])
        .where('credited_seconds', '>', 0)
        .execute();
      const final = new Map<string, number>();
      await inBatches(credited, 10, async (s) => {
        const p = tokens.get(s.token_hash)!;
        const res = await api(service.url, 'POST', '/v1/play/heartbeat', p.token, { session: p.session });
        if (res.status !== 200) throw new Error(`final heartbeat: ${res.status} ${JSON.stringify(res.json)}`);
        final.set(s.token_hash, res.json.data.credited_seconds);
      });
      const sessions = await db.selectFrom('play_sessions').select(['token_hash', 'credited_seconds']).execute();
      let mismatched = 0;
      let reportedTotal = 0;
      let creditedTotal = 0;
      for (const s of sessions) {
        creditedTotal += s.credited_seconds;
        reportedTotal += final.get(s.token_hash) ?? 0;
        if ((final.get(s.token_hash) ?? 0) !== s.credited_seconds) mismatched++;
      }
      const usage = await db
        .selectFrom('daily_usage')
        .select((eb) => eb.fn.sum<number>('seconds').as('s'))
        .executeTakeFirstOrThrow();
      const playtime = await db
        .selectFrom('games')
        .select(playtimeSeconds('games'))
        .execute()
        .then((rows) => ({ s: rows.reduce((n, r) => n + Number(r.playtime_seconds), 0) }));
      check(
        'credited seconds',
        mismatched === 0 &&
          reportedTotal === creditedTotal &&
          Number(usage.s) === creditedTotal &&
          Number(playtime.s) === creditedTotal,
        `${heartbeats} heartbeats answered 200; ${final.size} sessions report ${reportedTotal} s; sessions hold ${creditedTotal} s, daily usage ${Number(usage.s)} s, games' playtime ${Number(playtime.s)} s; ${mismatched} sessions differ`,
      );
    };

    if (SCALING) {
      console.log('  scaling:');
      const heartbeatSmall = results.find((r) => r.name.startsWith('POST heartbeat'));
      if (want('heartbeat')) {
        const t = performance.now();
        const crowdGame = await insertGame(db, 'crowd', now);
        // Their sessions are seeded as started now, as POST /play/start would have: with their tokens (so touched
        // then), and each counted on the player's day row (so the heartbeats credit an existing row, as in a day
        // of play, not each one's first of the day).
        const started = Date.now();
        const crowd = await insertPlayersWithTokens(db, dialect, 'cp', CROWD, now, started);
        crowdPlayers = crowd.map((p) => ({ ...p, session: newSecret('ps_') }));
        for (let i = 0; i < crowdPlayers.length; i += 1000) {
          await db
            .insertInto('play_sessions')
            .values(
              crowdPlayers.slice(i, i + 1000).map((p) => ({
                token_hash: sha256(p.session),
                player_id: p.id,
                game_id: crowdGame,
                status: 'active',
                started_at: started,
                last_heartbeat_at: started,
                credited_until: started,
                credited_seconds: 0,
                continues_play: 0,
              })),
            )
            .execute();
          await db
            .insertInto('daily_usage')
            .values(
              crowdPlayers.slice(i, i + 1000).map((p) => ({
                player_id: p.id,
                day: dayWindow(started, RESET_ZONE).day,
                seconds: 0,
                sessions: 1,
                last_credit: 0,
              })),
            )
            .execute();
        }
        console.log(`  (seeded ${CROWD} running sessions in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
        // Each crowd token is used once before the run, as the 300 players' tokens were while their sessions, scores
        // and saves were seeded: both lines then find their tokens in the credential cache (PostgreSQL), as a
        // player's heartbeats do in production (a heartbeat every 30 s), and the line measures the heartbeat's own
        // work with 20,000 sessions. Unwarmed, a 5 s run uses most tokens for the first time and reads each from the
        // database.
        const warm = performance.now();
        await inBatches(crowdPlayers, CONNECTIONS, async (p) => {
          const me = await api(service.url, 'GET', '/v1/me', p.token);
          if (me.status !== 200) throw new Error(`GET /v1/me answered ${me.status}`);
        });
        console.log(
          `  (used the ${CROWD} tokens once, GET /v1/me, in ${((performance.now() - warm) / 1000).toFixed(1)} s)`,
        );
        const big = await load(
          `POST heartbeat (${CROWD} sessions)`,
          'POST',
          service.url,
          heartbeatOf(crowdPlayers),
          onHeartbeat,
        );
        results.push(big);
        console.log(line(big, bare));
        if (heartbeatSmall)
          console.log(
            `  heartbeats with ${CROWD} sessions at ${((100 * big.rps) / heartbeatSmall.rps).toFixed(0)} % of the rate with ${PLAYERS}`,
          );
      }
      await checkCredits();
      if (want('scores')) {
        const t = performance.now();
        await seedBoard(db, dialect, 'board1k', SMALL_BOARD, now);
        await seedBoard(db, dialect, 'board1m', BIG_BOARD, now);
        console.log(
          `  (seeded boards of ${SMALL_BOARD} and ${BIG_BOARD} players in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
        );
        const small = await load(`POST scores (board of ${SMALL_BOARD})`, 'POST', service.url, scoreOn('board1k'));
        console.log(line(small, bare));
        const large = await load(`POST scores (board of ${BIG_BOARD})`, 'POST', service.url, scoreOn('board1m'));
        console.log(line(large, bare));
        console.log(
          `  scores on a board of ${BIG_BOARD} at ${((100 * large.rps) / small.rps).toFixed(0)} % of the rate on a board of ${SMALL_BOARD}`,
        );
      }
      const end = rssMb(service.child.pid!);
      console.log(`  service RSS ${end.rss.toFixed(0)} MB (peak ${end.peak.toFixed(0)} MB)`);
    } else {
      await checkCredits();
    }

    if (saves.size > 0) {
      const versions = await db
        .selectFrom('save_states')
        .select(['player_id', 'version'])
        .where('game_id', '=', gameId)
        .where('slot', '=', 0)
        .execute();
      const versionOf = new Map(versions.map((v) => [v.player_id, v.version]));
      // a save still in flight when the load stopped was written but not counted: at most one per connection
      const extra = players.map((p) => versionOf.get(p.id)! - 1 - (saves.get(`Bearer ${p.token}`) ?? 0));
      const unseen = extra.reduce((a, b) => a + b, 0);
      check(
        'save versions',
        extra.every((e) => e >= 0) && unseen <= CONNECTIONS,
        `${[...saves.values()].reduce((a, b) => a + b, 0)} saves answered 2xx; versions count ${unseen} more (≤ ${CONNECTIONS} in flight at the stop), ${extra.filter((e) => e < 0).length} fewer`,
      );
    }
    // racing saves: 10 conditional saves of an empty slot at once, for 30 players: exactly one wins each
    let races = 0;
    let badRaces = 0;
    await inBatches(players.slice(0, 30), 3, async (p) => {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          api(service.url, 'PUT', '/v1/games/bench/states/2', p.token, { state: { k }, expected_version: 0 }),
        ),
      );
      const won = outcomes.filter((o) => o.status === 201).length;
      const lost = outcomes.filter((o) => o.status === 409 && o.json.error.code === 'version_conflict').length;
      races++;
      if (won !== 1 || lost !== 9) badRaces++;
    });
    check(
      'racing saves',
      badRaces === 0,
      `${races} races of 10 conditional saves; ${badRaces} without exactly one winner`,
    );
    return ok;
  } finally {
    await stop(service.child);
    await database.destroy();
    await scratch.drop();
  }
}

// ---- main ----------------------------------------------------------------------------------------------------

if (env.BENCH_NO_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}
const os = await import('node:os');
console.log(
  `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ${CONNECTIONS} connections, ${SECONDS} s per route, log_level info`,
);
if (!benchDialects.includes('postgres')) console.log('(set TEST_DATABASE_URL=postgres://… to measure PostgreSQL too)');
const bare = await startBare();
pids.set(bare.url, bare.child.pid!);
let allOk = true;
try {
  const only = env.BENCH_DIALECTS?.split(',');
  for (const dialect of benchDialects.filter((d) => !only || only.includes(d)))
    allOk = (await benchDialect(dialect, bare.url)) && allOk;
} finally {
  await stop(bare.child);
}
if (!allOk) process.exitCode = 1;
