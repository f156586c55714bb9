// Game files compressed once: a game with a 9 MB WebAssembly module and a 3 MB script is published (the copies are
// made then), and each file is fetched as brotli, gzip, as it is and as a range from the service as deployed (`npm
// run build`, `node dist/src/cli.js serve` with the flags of `npm start`, log_level info, SQLite). Per answer: the
// service's CPU time (user + system, from /proc, over BENCH_REPEAT answers), beside a bare Fastify route sending the
// same stored bytes from disk (bench/game-files-bare.ts); the bytes sent, whether Content-Length was there and equal
// to them, and whether they decode to the published file. Exits 1 when an answer lacks Content-Length, decodes to
// other bytes or costs more than BENCH_CPU_BUDGET_MS (default 40) of the service's CPU.
//
// Run: npx tsx bench/game-files.ts   Settings: BENCH_REPEAT (answers per line, default 30), BENCH_NO_BUILD=1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { freePort } from '../test/helpers/ports.js';
import { tempDir } from '../test/helpers/temp.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const BUDGET_MS = Number(process.env.BENCH_CPU_BUDGET_MS ?? 40);
const SLUG = 'bench-files';

/**
 * A 9 MB module: a WebAssembly header, then code-like bytes that compress about as real modules do (gzip to a third,
 * brotli to a fifth): snippets of common opcodes, often repeated nearby, with a random byte here and there.
 */
function wasmModule(size: number): Buffer {
  const out = Buffer.alloc(size);
  Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]).copy(out);
  let seed = 0x9e3779b9;
  const rand = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const common = [0x20, 0x21, 0x41, 0x6a, 0x28, 0x36, 0x0b, 0x10, 0x22, 0x45, 0x0d, 0x02, 0x00, 0x01, 0x7f, 0x47];
  const snippet = () =>
    Buffer.from(Array.from({ length: 8 + (rand() % 40) }, () => (rand() % 4 ? common[rand() % 16]! : rand() & 0xff)));
  const pool = Array.from({ length: 30_000 }, snippet);
  const recent: Buffer[] = [];
  let i = 8;
  while (i < size) {
    const next = recent.length && rand() % 10 < 6 ? recent[rand() % recent.length]! : pool[rand() % pool.length]!;
    recent.push(next);
    if (recent.length > 64) recent.shift();
    i += next.copy(out, i);
    if (rand() % 3 === 0 && i < size) out[i++] = rand() & 0xff;
  }
  return out;
}

/** A 3 MB script: the start of Phaser's unminified build (from node_modules). */
function script(size: number): Buffer {
  return readFileSync(path.join(ROOT, 'node_modules/phaser/dist/phaser.js')).subarray(0, size);
}

function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(port: number, host: string, urlPath: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = pattern.exec(line);
    if (match) return match;
  }
  throw new Error(`process ended before printing ${pattern}`);
}

function startFlags(): string[] {
  const start: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(1, words.indexOf('dist/src/cli.js'));
}

function serviceEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    GP_DATA_DIR: dataDir,
    GP_HOST: '127.0.0.1',
    GP_PORT: String(port),
    GP_PUBLIC_URL: `http://localhost:${port}`,
    GP_RATE_LIMITS_DEFAULT_MAX: '1000000000',
  };
}

async function startService(dataDir: string, port: number): Promise<ChildProcess> {
  const cli = path.join(ROOT, 'dist/src/cli.js');
  const child = spawn(process.execPath, [...startFlags(), cli, 'serve'], {
    cwd: dataDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: serviceEnv(dataDir, port),
  });
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/v1/status`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

const DECODE: Record<string, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (b) => b,
};

interface Line {
  port: number;
  pid: number;
  host: string;
  path: string;
  headers: Record<string, string>;
  expected: Buffer;
}

/** REPEAT answers of one kind: CPU per answer of the answering process, and the checks on every answer. */
async function measure(line: Line) {
  let problems = 0;
  let bytes = 0;
  let encoding = '';
  const before = cpuUs(line.pid);
  for (let i = 0; i < REPEAT; i++) {
    const res = await get(line.port, line.host, line.path, line.headers);
    encoding = String(res.headers['content-encoding'] ?? 'identity');
    bytes = res.body.length;
    const length = Number(res.headers['content-length']);
    const decoded = DECODE[encoding]!(res.body);
    const ok = res.status < 300 && length === res.body.length && decoded.equals(line.expected);
    if (!ok) problems++;
  }
  const cpuMs = (cpuUs(line.pid) - before) / REPEAT / 1000;
  return { cpuMs, bytes, encoding, problems };
}

const dataDir = tempDir('gp-bench-files-');
const gameDir = path.join(dataDir, 'source');
mkdirSync(path.join(gameDir, 'Build'), { recursive: true });
cpSync(path.join(ROOT, 'test/fixtures/games/orbit-dash'), gameDir, { recursive: true });
const manifest = JSON.parse(readFileSync(path.join(gameDir, 'game.json'), 'utf8'));
writeFileSync(path.join(gameDir, 'game.json'), JSON.stringify({ ...manifest, slug: SLUG }));
const WASM = wasmModule(9 * 1024 * 1024);
const SCRIPT = script(3 * 1024 * 1024);
writeFileSync(path.join(gameDir, 'Build/game.wasm'), WASM);
writeFileSync(path.join(gameDir, 'Build/game.js'), SCRIPT);

if (!process.env.BENCH_NO_BUILD) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}
const port = await freePort();
const started = Date.now();
const publish = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), 'games', 'publish', gameDir], {
  cwd: dataDir,
  env: { ...serviceEnv(dataDir, port), GP_LOG_LEVEL: 'warn' },
  encoding: 'utf8',
});
if (publish.status !== 0) throw new Error(`publish failed: ${publish.stderr}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 16)}Z`);
console.log(`publish: ${((Date.now() - started) / 1000).toFixed(1)} s (${publish.stdout.trim()})`);

const service = await startService(dataDir, port);
const game = (await fetch(`http://127.0.0.1:${port}/v1/games/${SLUG}`).then((r) => r.json())) as {
  data: { cover_url: string };
};
const storedDir = path.join(dataDir, 'games', SLUG, /~([^/]+)\//.exec(game.data.cover_url)![1]!);
const bare = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/game-files-bare.ts')], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, PORT: '0', BARE_DIR: storedDir },
});
const barePort = Number((await waitForLine(bare, /^listening (\d+)/))[1]);

const KINDS = [
  ['br', { 'accept-encoding': 'br, gzip' }, '.br'],
  ['gzip', { 'accept-encoding': 'gzip' }, '.gz'],
  ['identity', { 'accept-encoding': 'identity' }, ''],
  ['range 1 MB', { 'accept-encoding': 'br, gzip', range: 'bytes=0-1048575' }, null],
] as const;

let failed = false;
try {
  const host = `${SLUG}.games.localhost:${port}`;
  console.log(`${REPEAT} answers per line; CPU per answer of the answering process (/proc), budget ${BUDGET_MS} ms`);
  console.log(
    `${'file'.padEnd(16)} ${'asked'.padEnd(11)}${'sent as'.padEnd(9)}${'bytes'.padStart(10)}  service CPU  bare route CPU  checks`,
  );
  // Warm both processes up (JIT, file cache).
  await get(port, host, '/Build/game.wasm', { 'accept-encoding': 'br' });
  await get(barePort, 'bare', '/Build/game.wasm.br', {});
  for (const [file, content] of [
    ['Build/game.wasm', WASM],
    ['Build/game.js', SCRIPT],
  ] as const) {
    for (const [asked, headers, suffix] of KINDS) {
      const expected = suffix === null ? content.subarray(0, 1048576) : content;
      const answer = await measure({ port, pid: service.pid!, host, path: `/${file}`, headers, expected });
      // The bare route sends the stored bytes the service sent (the copy, or the file), whole, as they are.
      const baseline =
        suffix === null
          ? undefined
          : await measure({
              port: barePort,
              pid: bare.pid!,
              host: 'bare',
              path: `/${file}${suffix}`,
              headers: {},
              expected: readFileSync(path.join(storedDir, `${file}${suffix}`)),
            });
      const over = answer.cpuMs > BUDGET_MS;
      if (answer.problems || over || baseline?.problems) failed = true;
      const checks = answer.problems ? `${answer.problems} answers failed` : 'Content-Length, same bytes';
      console.log(
        `${file.padEnd(16)} ${asked.padEnd(11)}${answer.encoding.padEnd(9)}${String(answer.bytes).padStart(10)}  ` +
          `${answer.cpuMs.toFixed(2).padStart(8)} ms  ${baseline ? `${baseline.cpuMs.toFixed(2).padStart(11)} ms` : '          -   '}  ${checks}${over ? ', OVER BUDGET' : ''}`,
      );
    }
  }
} finally {
  service.kill('SIGTERM');
  bare.kill('SIGTERM');
}
process.exitCode = failed ? 1 : 0;
