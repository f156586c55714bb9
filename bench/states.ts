// Save-state throughput through the real app (app.inject, no network): small and 256 KB states, deep nesting, a race.
// Run: npx tsx bench/states.ts            (SQLite)
//      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/states.ts   (SQLite, then PostgreSQL)
import { performance } from 'node:perf_hooks';
import type { DialectName } from '../src/db/connect.js';
import { createHarness } from '../test/helpers/app.js';
import { createGame, createPlayerWithToken } from '../test/helpers/factories.js';

const MAX = 262_144;

/** A realistic 256 KB save: an array of small records, filled up to just under the limit. */
function bigState(): unknown {
  const items: unknown[] = [];
  const bytes = () => Buffer.byteLength(JSON.stringify(items));
  for (let i = 0; i % 100 !== 0 || bytes() < MAX; i++) {
    items.push({ id: i, name: `item ${i} ✨`, pos: [i % 97, -(i % 13)], ok: i % 2 === 0 });
  }
  while (bytes() > MAX) items.pop();
  return items;
}

async function run(dialect: DialectName) {
  const harness = await createHarness(dialect);
  const { app } = harness;
  try {
    const game = await createGame(app.ctx, { save_slots: 10 });
    const { token } = await createPlayerWithToken(app.ctx);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const url = (slot: number) => `/v1/games/${game.slug}/states/${slot}`;
    const put = (slot: number, payload: string) => app.inject({ method: 'PUT', url: url(slot), headers, payload });
    const get = (slot: number) => app.inject({ method: 'GET', url: url(slot), headers });

    async function measure(name: string, n: number, call: (i: number) => Promise<{ statusCode: number }>) {
      await call(0);
      const start = performance.now();
      for (let i = 0; i < n; i++) {
        const res = await call(i);
        if (res.statusCode >= 300) throw new Error(`${name}: HTTP ${res.statusCode}`);
      }
      const ms = (performance.now() - start) / n;
      console.log(
        `${dialect.padEnd(8)} ${name.padEnd(38)} ${ms.toFixed(2).padStart(7)} ms/request  ${(1000 / ms).toFixed(0).padStart(6)}/s`,
      );
    }

    const small = JSON.stringify({
      state: { level: 7, hp: 93, inventory: ['sword', 'shield'], pos: [12.5, -3] },
      label: 'Castle',
    });
    const big = JSON.stringify({ state: bigState() });
    const deep = `{"state":${'['.repeat(MAX / 2)}${']'.repeat(MAX / 2)}}`;
    await measure('GET /v1/status (for comparison)', 1000, () => app.inject({ method: 'GET', url: '/v1/status' }));
    await measure('PUT small state (sequential)', 1000, () => put(0, small));
    await measure('GET small state', 1000, () => get(0));
    await measure('PUT 256 KB state', 100, () => put(1, big));
    await measure('GET 256 KB state', 100, () => get(1));
    await measure('PUT 256 KB, 131,072 levels deep', 20, () => put(2, deep));
    await measure('GET 256 KB, 131,072 levels deep', 20, () => get(2));

    const current = JSON.parse((await get(0)).body).data.state.version as number;
    const start = performance.now();
    const racers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => put(0, JSON.stringify({ state: { racer: i }, expected_version: current }))),
    );
    const won = racers.filter((r) => r.statusCode === 200).length;
    const lost = racers.filter((r) => r.statusCode === 409).length;
    console.log(
      `${dialect.padEnd(8)} ${'50 racing PUTs, same expected_version'.padEnd(38)} ${(performance.now() - start).toFixed(0).padStart(7)} ms total   ${won} won, ${lost} × 409`,
    );
  } finally {
    await harness.close();
  }
}

await run('sqlite');
if (process.env.TEST_DATABASE_URL) await run('postgres');
