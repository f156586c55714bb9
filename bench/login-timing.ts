// Prints how long login takes for a wrong password, an unknown login and a correct one (they should be close),
// and what one argon2id hash costs. Run: npx tsx bench/login-timing.ts [rounds]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { hashPassword } from '../src/modules/accounts/password.js';

const rounds = Number(process.argv[2] ?? 30);
const dir = mkdtempSync(path.join(tmpdir(), 'gp-bench-'));
const config = loadConfig({
  env: { NODE_ENV: 'test' },
  cwd: dir,
  overrides: {
    data_dir: dir,
    log_level: 'silent',
    'rate_limits.login.max': 1_000_000,
    'rate_limits.register.max': 1_000_000,
  },
});
const database = openDatabase(config.database_url);
await migrateToLatest(database.db);
const app = await buildApp({ config, database });

const post = (url: string, body: unknown) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

await post('/v1/auth/register', {
  email: 'bench@example.com',
  password: 'the right password',
  display_name: 'Bench Mark',
  username: 'bench',
});

const cases = [
  { label: 'wrong password', body: { login: 'bench', password: 'a wrong password' }, expected: 401 },
  { label: 'unknown login', body: { login: 'nobody_at_all', password: 'a wrong password' }, expected: 401 },
  { label: 'correct password', body: { login: 'bench', password: 'the right password' }, expected: 200 },
];
const samples = new Map<string, number[]>(cases.map((c) => [c.label, []]));

console.log(`login timing, ${rounds} rounds each (interleaved), ${new Date().toISOString().slice(0, 10)}`);
await post('/v1/auth/login', cases[1]!.body); // the dummy hash is made on first use
for (let i = 0; i < rounds; i++) {
  for (const c of cases) {
    const start = performance.now();
    const res = await post('/v1/auth/login', c.body);
    samples.get(c.label)!.push(performance.now() - start);
    if (res.statusCode !== c.expected) throw new Error(`${c.label}: ${res.statusCode}`);
  }
}
for (const [label, values] of samples) {
  values.sort((a, b) => a - b);
  const q = (p: number) => values[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(1);
  console.log(`${label.padEnd(22)} median ${q(0.5)} ms   p10 ${q(0.1)} ms   p90 ${q(0.9)} ms`);
}

const hashes: number[] = [];
for (let i = 0; i < 10; i++) {
  const start = performance.now();
  await hashPassword(`password ${i}`);
  hashes.push(performance.now() - start);
}
hashes.sort((a, b) => a - b);
console.log(`argon2id hash (m=19456 KiB, t=2, p=1): median ${hashes[5]!.toFixed(1)} ms`);

await app.close();
await database.destroy();
rmSync(dir, { recursive: true, force: true });
