// The npm package @gameplatform/sdk as a game developer uses it: `npm pack`, installed from the tarball into a scratch
// project, type-checked, the README's example game bundled with esbuild, published, and played in Debian's Chromium
// inside the play shell; its identity token then verifies offline against the service's JWKS.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { browserSuite, registerPlayer, text, until, visible } from './browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE_DIR = path.join(ROOT, 'packages/sdk');

/** npm of the Node running the tests. */
function npm(args: string[], cwd: string): string {
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
    npm_config_update_notifier: 'false',
  };
  return execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The README's code blocks, by the file name in their info string (```js title="game.js"). */
function readmeFiles(): Record<string, string> {
  const readme = readFileSync(path.join(PACKAGE_DIR, 'README.md'), 'utf8');
  const files: Record<string, string> = {};
  for (const match of readme.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)) files[match[1]!] = match[2]!;
  return files;
}

/** What the test adds beside the README's game: the player id from init() and an identity token, on the body. */
const PROBE = `import './game.js';
import GamePlatform from '@gameplatform/sdk';

(async () => {
  const info = await GamePlatform.init();
  const identity = await GamePlatform.identityToken().catch((error) => ({ error: error.code }));
  document.body.dataset.probe = JSON.stringify({ id: info.player.id, local: info.local, ...identity, version: GamePlatform.version });
})();
`;

/** The package's types as a TypeScript game sees them. */
const TYPED = `import { GamePlatform } from '@gameplatform/sdk';
import Default from '@gameplatform/sdk';

export async function run(): Promise<number> {
  const info: GamePlatform.InitInfo = await GamePlatform.init();
  const saved: GamePlatform.State<{ clicks: number }> | null = await Default.saves.load<{ clicks: number }>(0);
  const identity: GamePlatform.IdentityToken = await GamePlatform.identityToken();
  // @ts-expect-error a slot is a number
  void GamePlatform.saves.load('first');
  return info.player.id + (saved?.state.clicks ?? 0) + identity.expires_in;
}
`;

browserSuite('sdk package: installed from its tarball, bundled, in a real browser', { timeout: 120_000 }, (rig) => {
  let scratch: string;
  let packed: { filename: string; version: string; files: Array<{ path: string }> };
  const slug = 'clicker';

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'gp-sdk-package-'));
    const packDir = path.join(scratch, 'pack');
    mkdirSync(packDir);
    [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', packDir], PACKAGE_DIR));
    const project = path.join(scratch, 'game');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'clicker', private: true, type: 'module' }),
    );
    npm(
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(packDir, packed.filename)],
      project,
    );
    for (const [file, content] of Object.entries(readmeFiles())) writeFileSync(path.join(project, file), content);
    writeFileSync(path.join(project, 'probe.js'), PROBE);
    writeFileSync(path.join(project, 'typed.ts'), TYPED);
  }, 120_000);

  afterAll(async () => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('packs ES module code, the script-tag build, their type declarations, the README and the changelog, and nothing else', () => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
    expect(packed.version).toBe(pkg.version);
    expect(packed.files.map((f) => f.path).sort()).toEqual([
      'CHANGELOG.md',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/v1.d.ts',
      'dist/v1.js',
      'package.json',
    ]);
    expect(readFileSync(path.join(PACKAGE_DIR, 'CHANGELOG.md'), 'utf8')).toContain(`## ${pkg.version} `);
    const installed = JSON.parse(
      readFileSync(path.join(scratch, 'game/node_modules/@gameplatform/sdk/package.json'), 'utf8'),
    );
    expect(installed).toMatchObject({
      name: '@gameplatform/sdk',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './v1.js': './dist/v1.js' },
    });
  });

  it('type-checks a TypeScript game against the installed declarations', () => {
    const project = path.join(scratch, 'game');
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['typed.ts'],
      }),
    );
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], {
      encoding: 'utf8',
    });
  });

  it("plays the README's example game, bundled with esbuild from the tarball, in the play shell", async () => {
    const project = path.join(scratch, 'game');
    const dist = path.join(project, 'dist');
    const { build } = await import('esbuild');
    // The README's command, with the probe as the entry (it imports game.js, so the bundle is the README's game and more).
    await build({
      absWorkingDir: project,
      entryPoints: ['probe.js'],
      bundle: true,
      format: 'iife',
      target: 'es2022',
      outfile: path.join(dist, 'game.js'),
      logLevel: 'silent',
    });
    expect(readFileSync(path.join(dist, 'game.js'), 'utf8')).toContain('gameplatform.sdk/1');
    for (const file of ['index.html', 'game.json', 'cover.svg'])
      writeFileSync(path.join(dist, file), readFileSync(path.join(project, file)));
    await publishGame(rig.app.ctx, dist);

    const page: Page = await rig.newPage();
    const player = await registerPlayer(rig, page);
    await page.goto(`/play/${slug}`);
    await visible(page.locator('iframe.game-frame'));
    const frame: Frame = (await (await page.locator('iframe.game-frame').elementHandle())!.contentFrame())!;

    await until(() => text(frame.locator('#hello'))).toBe(`Hello ${player.display_name}`);
    for (let i = 0; i < 3; i++) await frame.locator('#click').click();
    await frame.locator('#save').click();
    await until(() => text(frame.locator('#status'))).toBe('Saved (version 1)');
    await frame.locator('#submit').click();
    await until(() => text(frame.locator('#status'))).toBe('Score 3: rank #1');
    await until(() => text(frame.locator('#board'))).toBe(`${player.display_name}: 3`);

    const game = await rig.app.ctx.db
      .selectFrom('games')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    const save = await rig.app.ctx.db
      .selectFrom('save_states')
      .select(['slot', 'version'])
      .where('game_id', '=', game.id)
      .where('player_id', '=', player.id)
      .execute();
    expect(save).toEqual([{ slot: 0, version: 1 }]);

    // The identity token: init()'s player id, and a JWT the game's backend verifies offline against the JWKS.
    await until(() => frame.locator('body').getAttribute('data-probe')).not.toBeNull();
    const probe = JSON.parse((await frame.locator('body').getAttribute('data-probe'))!);
    expect(probe).toMatchObject({ id: player.id, local: false, version: '1' });
    const jwks = (await (await fetch(`${rig.origin}/v1/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(probe.token, createLocalJWKSet(jwks), {
      issuer: rig.origin,
      audience: slug,
      currentDate: new Date(rig.clock.now()),
    });
    expect(payload.sub).toBe(String(player.id));

    // A load of the page again finds the save.
    await page.reload();
    const again = (await (await page.locator('iframe.game-frame').elementHandle())!.contentFrame())!;
    await until(() => text(again.locator('#clicks'))).toBe('3');
    expect(rig.problems).toEqual([]);
    await page.close();
  });

  it('runs the same game opened as a file, in local mode: saves and scores kept in the page, and says so', async () => {
    const page = await rig.newPage();
    const notices: string[] = [];
    page.on('console', (message) => notices.push(message.text()));
    const file = pathToFileURL(path.join(scratch, 'game/dist/index.html')).href;
    await page.goto(file);
    await until(() => text(page.locator('#hello'))).toBe('Hello Local player (local mode: saves stay in this browser)');
    expect(notices.some((n) => n.startsWith('GamePlatform: local mode.'))).toBe(true);
    await until(() => page.locator('body').getAttribute('data-probe')).not.toBeNull();
    expect(JSON.parse((await page.locator('body').getAttribute('data-probe'))!)).toEqual({
      id: 0,
      local: true,
      error: 'local_mode',
      version: '1',
    });
    for (let i = 0; i < 2; i++) await page.locator('#click').click();
    await page.locator('#save').click();
    await until(() => text(page.locator('#status'))).toBe('Saved (version 1)');
    await page.locator('#submit').click();
    await until(() => text(page.locator('#status'))).toBe('Score 2: rank #1');
    await until(() => text(page.locator('#board'))).toBe('Local player: 2');
    await page.reload();
    await until(() => text(page.locator('#clicks'))).toBe('2');
    await until(() => text(page.locator('#board'))).toBe('Local player: 2');
    expect(rig.problems).toEqual([]);
    await page.close();
  });
});
