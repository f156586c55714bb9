// Catalogue and game-file throughput through the real app (app.inject, no network), and publish times.
// Run: npx tsx bench/games.ts            (SQLite)
//      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/games.ts   (SQLite, then PostgreSQL)
import { performance } from 'node:perf_hooks';
import type { DialectName } from '../src/db/connect.js';
import { createHarness } from '../test/helpers/app.js';
import { publishGame } from '../src/modules/games/publish.service.js';
import { createGame, createPlayer, createPlayerWithToken, createPlaySession, fixtureCopy, publishFixture } from '../test/helpers/factories.js';

const CATALOGUE = 300;
const CATEGORIES = ['arcade', 'puzzle', 'action', 'word', 'cards', 'sports'];

async function run(dialect: DialectName) {
  const harness = await createHarness(dialect);
  const { app } = harness;
  const line = (name: string, value: string) => console.log(`${dialect.padEnd(8)} ${name.padEnd(44)} ${value}`);
  try {
    for (let i = 0; i < CATALOGUE; i++) {
      await createGame(app.ctx, { name: `Game ${i}`, category: CATEGORIES[i % CATEGORIES.length]!, tagline: `Tagline ${i} with stardust`, description: 'x'.repeat(400), plays: i * 7 % 101 });
    }
    const game = await publishFixture(app.ctx, 'orbit-dash');
    const { token } = await createPlayerWithToken(app.ctx);
    const session = (await createPlaySession(app.ctx, (await createPlayer(app.ctx)).id, game.game.id, { status: 'active' })).token;
    const headers = { authorization: `Bearer ${token}` };

    async function measure(name: string, n: number, call: () => Promise<{ statusCode: number }>) {
      await call();
      const start = performance.now();
      for (let i = 0; i < n; i++) {
        const res = await call();
        if (res.statusCode >= 400) throw new Error(`${name}: HTTP ${res.statusCode}`);
      }
      const ms = (performance.now() - start) / n;
      line(name, `${ms.toFixed(2).padStart(7)} ms/request  ${(1000 / ms).toFixed(0).padStart(6)}/s`);
    }

    const get = (url: string, h: Record<string, string> = {}) => () => app.inject({ method: 'GET', url, headers: h });
    await measure(`GET /v1/games (${CATALOGUE + 1} games)`, 100, get('/v1/games'));
    await measure('GET /v1/games?q=stardust (all match)', 100, get('/v1/games?q=stardust'));
    await measure('GET /v1/games?q=game%2012 (11 match)', 200, get('/v1/games?q=game%2012'));
    await measure('GET /v1/games?category=puzzle', 200, get('/v1/games?category=puzzle'));
    await measure('GET /v1/games/{slug} with a player token', 1000, get(`/v1/games/${game.slug}`, headers));
    await measure('POST /v1/games/{slug}/favorite', 1000, () => app.inject({ method: 'POST', url: `/v1/games/${game.slug}/favorite`, headers }));
    await measure('GET /g/{slug}/game.js', 1000, get(`/g/${game.slug}/game.js`));
    await measure('GET /g/{slug}/~{set}/cover.png', 1000, get(`/g/${game.slug}/~${game.files_dir}/cover.png`));
    await measure('GET /g/{slug}/index.html?session= (302)', 1000, get(`/g/${game.slug}/index.html?session=${session}`));
    await measure('GET /g/{slug}/~{set}/index.html?session=', 1000, get(`/g/${game.slug}/~${game.files_dir}/index.html?session=${session}`));

    for (const [label, files] of [
      ['publish the fixture (5 small files)', {}],
      ['publish 200 files of 256 KB (50 MB)', Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`assets/f${i}.bin`, Buffer.alloc(256 * 1024, i)]))],
    ] as const) {
      const dir = fixtureCopy('orbit-dash', { manifest: { slug: game.slug }, files });
      const start = performance.now();
      await publishGame(app.ctx, dir);
      line(label, `${(performance.now() - start).toFixed(0).padStart(7)} ms`);
    }
  } finally {
    await harness.close();
  }
}

await run('sqlite');
if (process.env.TEST_DATABASE_URL) await run('postgres');
