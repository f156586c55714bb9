// Catalogue and game-file throughput through the real app (app.inject, no network), and publish times. Game files are
// asked on the game's own host ({slug}.games.localhost); their lines end with their cost relative to GET /v1/status.
// Run: npx tsx bench/games.ts            (SQLite)
//      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/games.ts   (SQLite, then PostgreSQL)
import { performance } from 'node:perf_hooks';
import { brotliCompressSync } from 'node:zlib';
import type { DialectName } from '../src/db/connect.js';
import { createHarness } from '../test/helpers/app.js';
import { publishGame } from '../src/modules/games/publish.service.js';
import {
  createGame,
  createPlayer,
  createPlayerWithToken,
  createPlaySession,
  fixtureCopy,
  publishFixture,
} from '../test/helpers/factories.js';

const CATALOGUE = 300;
const CATEGORIES = ['arcade', 'puzzle', 'action', 'word', 'cards', 'sports'];

async function run(dialect: DialectName) {
  const harness = await createHarness(dialect);
  const { app } = harness;
  const line = (name: string, value: string) => console.log(`${dialect.padEnd(8)} ${name.padEnd(44)} ${value}`);
  try {
    for (let i = 0; i < CATALOGUE; i++) {
      await createGame(app.ctx, {
        name: `Game ${i}`,
        category: CATEGORIES[i % CATEGORIES.length]!,
        tagline: `Tagline ${i} with stardust`,
        description: 'x'.repeat(400),
        plays: (i * 7) % 101,
      });
    }
    // A 1.2 MB script, once with a .br copy beside it (as engine exports ship) and once without (its copies made at publish).
    const bundle = Array.from({ length: 30_000 }, (_, i) => `function f${i}(a){return a*${i}+${i % 97};}`).join('\n');
    const game = await publishFixture(app.ctx, 'orbit-dash', {
      files: { 'big.js': bundle, 'big.js.br': brotliCompressSync(bundle), 'fly.js': bundle },
    });
    const { token } = await createPlayerWithToken(app.ctx);
    const session = (
      await createPlaySession(app.ctx, (await createPlayer(app.ctx)).id, game.game.id, { status: 'active' })
    ).token;
    const headers = { authorization: `Bearer ${token}` };

    let bare = 0;
    async function measure(name: string, n: number, call: () => Promise<{ statusCode: number; rawPayload: Buffer }>) {
      await call();
      const start = performance.now();
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const res = await call();
        if (res.statusCode >= 300) throw new Error(`${name}: HTTP ${res.statusCode}`);
        bytes = res.rawPayload.length;
      }
      const ms = (performance.now() - start) / n;
      const ratio = bare ? `  ×${(ms / bare).toFixed(1)} of /v1/status` : '';
      line(
        name,
        `${ms.toFixed(2).padStart(7)} ms/request  ${(1000 / ms).toFixed(0).padStart(6)}/s  ${String(bytes).padStart(8)} B${ratio}`,
      );
      return ms;
    }

    const get =
      (url: string, h: Record<string, string> = {}) =>
      () =>
        app.inject({ method: 'GET', url, headers: h });
    const file = (path: string, encoding = 'identity') =>
      get(`http://${game.slug}.games.localhost:8080/${path}`, { 'accept-encoding': encoding });
    bare = await measure('GET /v1/status (the bare route)', 2000, get('/v1/status'));
    await measure(`GET /v1/games (${CATALOGUE + 1} games)`, 100, get('/v1/games'));
    await measure('GET /v1/games?q=stardust (all match)', 100, get('/v1/games?q=stardust'));
    await measure('GET /v1/games?q=game%2012 (11 match)', 200, get('/v1/games?q=game%2012'));
    await measure('GET /v1/games?category=puzzle', 200, get('/v1/games?category=puzzle'));
    await measure('GET /v1/games/{slug} with a player token', 1000, get(`/v1/games/${game.slug}`, headers));
    await measure('POST /v1/games/{slug}/favorite', 1000, () =>
      app.inject({ method: 'POST', url: `/v1/games/${game.slug}/favorite`, headers }),
    );
    await measure('GET game.js', 1000, file('game.js'));
    await measure('GET game.js (231 B), br: sent as it is (under 1 KB)', 1000, file('game.js', 'gzip, br'));
    await measure('GET ~{set}/cover.png', 1000, file(`~${game.files_dir}/cover.png`));
    await measure('GET ~{set}/index.html?session=', 1000, file(`~${game.files_dir}/index.html?session=${session}`));
    await measure('GET big.js (1.2 MB) uncompressed', 200, file('big.js'));
    await measure('GET big.js, br: its .br copy', 200, file('big.js', 'gzip, br'));
    await measure('GET fly.js, br: its copy made at publish', 200, file('fly.js', 'gzip, br'));
    await measure('GET fly.js, gzip: its copy made at publish', 200, file('fly.js', 'gzip'));

    for (const [label, files] of [
      ['publish the fixture (5 small files)', {}],
      [
        'publish 200 files of 256 KB (50 MB)',
        Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`assets/f${i}.bin`, Buffer.alloc(256 * 1024, i)])),
      ],
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
