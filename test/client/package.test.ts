// npm pack of @gameplatform/client gives a package that installs into a project of its own, imports, and runs the
// example backend script (developer key: a player's states, a score on their behalf, the game's stats) against a live service.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGame, createKey, createPlayer, createPlaySession } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const packageDir = path.join(root, 'packages/client');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'gp-client-'));
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', scratch], { cwd: packageDir });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  expect(packed!.files.map((f) => f.path)).toEqual(
    expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'package.json']),
  );
  const project = path.join(scratch, 'project');
  await cp(path.join(packageDir, 'example.ts'), path.join(project, 'example.ts'));
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'a-game-backend', private: true, type: 'module' }),
  );
  await run(
    npm,
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      path.join(scratch, packed!.filename),
    ],
    { cwd: project },
  );
}, 180_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

it('installs from the packed tarball with its one dependency, and imports', async () => {
  const project = path.join(scratch, 'project');
  expect(await readdir(path.join(project, 'node_modules/@gameplatform/client/dist'))).toEqual(
    expect.arrayContaining(['index.js', 'index.d.ts']),
  );
  const { stdout } = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const m = await import('@gameplatform/client'); console.log(Object.keys(m).sort().join(' '))",
    ],
    { cwd: project },
  );
  expect(stdout.trim()).toBe('ApiError createClient isApiError unwrap');
});

eachDialect('client: the example backend script against a live service', (h) => {
  it('reads the states, submits a score for the player and reads the stats with a developer key', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as AddressInfo).port;
    const game = await createGame(h.ctx, { save_slots: 3 });
    const player = await createPlayer(h.ctx);
    await createPlaySession(h.ctx, player.id, game.id);
    const { key } = await createKey(h.ctx, game.id, ['states:read', 'scores:write', 'stats:read']);
    const writer = (await createKey(h.ctx, game.id, ['states:write'])).key;
    const saved = await h.http.put(`/v1/dev/games/${game.slug}/players/${player.id}/states/1`, {
      token: writer,
      body: { state: { level: 3 }, label: 'Level 3' },
    });
    expect(saved.status).toBe(201);

    // the installed package; tsx strips the types (Node does so by itself only from 22.18)
    const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), ['example.ts'], {
      cwd: path.join(scratch, 'project'),
      env: {
        ...process.env,
        GAMEPLATFORM_URL: `http://127.0.0.1:${port}`,
        GAMEPLATFORM_KEY: key,
        GAME: game.slug,
        PLAYER_ID: String(player.id),
      },
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('slot 1 (Level 3): version 1');
    expect(lines[1]).toBe('1 of 3 slots used');
    expect(lines[2]).toBe('score 4200 on main: rank 1, a personal best');
    const stats = JSON.parse(lines[3]!).stats;
    expect(stats.scores).toBeDefined();
    const stored = await h.ctx.db
      .selectFrom('scores')
      .select(['score', 'player_id'])
      .where('game_id', '=', game.id)
      .execute();
    expect(stored).toEqual([{ score: 4200, player_id: player.id }]);
  });
});
