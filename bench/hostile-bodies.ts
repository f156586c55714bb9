// What a hostile JSON body costs the service: CPU time and peak RSS for bodies nested very deep, through the real app
// (app.inject, SQLite). A body is refused by a linear pre-scan before JSON.parse, so it should cost what its size costs.
// Run: npm run bench:hostile-bodies
import { performance } from 'node:perf_hooks';
import { createHarness } from '../test/helpers/app.js';
import { createGame, createPlayerWithToken } from '../test/helpers/factories.js';

const MB = 1024 * 1024;

function rssMb(): number {
  return process.memoryUsage().rss / MB;
}

async function main() {
  const harness = await createHarness('sqlite');
  const { app } = harness;
  try {
    const game = await createGame(app.ctx, { save_slots: 2 });
    const { token } = await createPlayerWithToken(app.ctx);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const levels = 1_000_000;
    const deepState = `{"state":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const deepest = `{"state":${'['.repeat(131_072)}${']'.repeat(131_072)}}`;
    const deepMeta = `{"score":1,"meta":{"a":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}}}`;
    const cases: Array<{ name: string; count: number; call: () => Promise<{ statusCode: number }> }> = [
      {
        name: `PUT state nested ${levels.toLocaleString('en')} deep (${(deepState.length / MB).toFixed(1)} MB)`,
        count: 1,
        call: () => app.inject({ method: 'PUT', url: `/v1/games/${game.slug}/states/0`, headers, payload: deepState }),
      },
      {
        name: 'the same, 8 at once',
        count: 8,
        call: () => app.inject({ method: 'PUT', url: `/v1/games/${game.slug}/states/1`, headers, payload: deepState }),
      },
      {
        name: 'PUT state nested 131,072 deep (the deepest allowed)',
        count: 1,
        call: () => app.inject({ method: 'PUT', url: `/v1/games/${game.slug}/states/0`, headers, payload: deepest }),
      },
      {
        name: `POST score with meta nested 6,000 deep (${(deepMeta.length / 1024).toFixed(0)} KB)`,
        count: 1,
        call: () => app.inject({ method: 'POST', url: `/v1/games/${game.slug}/scores`, headers, payload: deepMeta }),
      },
    ];
    console.log(`hostile bodies, ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}`);
    for (const c of cases) {
      global.gc?.();
      const rssBefore = rssMb();
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
      const cpu = process.cpuUsage();
      const start = performance.now();
      const results = await Promise.all(Array.from({ length: c.count }, () => c.call()));
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      clearInterval(sampler);
      peak = Math.max(peak, rssMb());
      const statuses = [...new Set(results.map((r) => r.statusCode))].join(',');
      console.log(
        `${c.name.padEnd(52)} HTTP ${statuses}  wall ${wall.toFixed(0).padStart(5)} ms  CPU ${((used.user + used.system) / 1000).toFixed(0).padStart(5)} ms  ` +
          `RSS ${rssBefore.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - rssBefore).toFixed(0)})`,
      );
    }
  } finally {
    await harness.close();
  }
}

await main();
