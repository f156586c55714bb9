// From a zip to a released game and back, as a studio member on another machine does it: a folder of its own holding a
// Vite build and the command line, a process knowing nothing but the platform's URL and a token. Deploy, preview in
// Chromium, release, deploy again, roll back; on SQLite with files under data_dir, and on PostgreSQL with an S3 store.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../browser/browser.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createPlayerWithPassword, createToken } from '../helpers/factories.js';
import { type Platform, runStudioCli, startPlatform, studioMachine } from '../helpers/platform.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { addMember, createStudio, createStudioGame } from '../helpers/studios.js';
import { tempDir } from '../helpers/temp.js';

const PASSWORD = 'correct horse battery';

/** A small Vite game: ES modules, a root-absolute fetch of a file from public/, the SDK's init and a save. */
function viteGame(slug: string, version: string): string {
  const dir = tempDir('gp-vite-game-');
  const files: Record<string, string> = {
    'index.html':
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deploy probe</title></head><body>\n<p>Deploy probe</p>\n<script src="/sdk/v1.js"></script>\n<script type="module" src="/src/main.js"></script>\n</body></html>\n',
    'src/main.js': `import { VERSION } from './version.js';
const level = await (await fetch('/level.json')).json();
const { player } = await GamePlatform.init();
const saved = await GamePlatform.saves.save(0, { version: VERSION });
document.body.dataset.result = JSON.stringify({ version: VERSION, level: level.name, player: player.display_name, saved: saved.version });
`,
    'src/version.js': `export const VERSION = '${version}';\n`,
    'public/level.json': JSON.stringify({ name: `level of ${version}` }),
    'public/cover.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 36"><rect width="64" height="36"/></svg>',
    'public/game.json': JSON.stringify({
      slug,
      name: 'Deploy Probe',
      category: 'test',
      version,
      author: 'Probe Studio',
      released_at: '2026-11-28',
      cover: 'cover.svg',
      save_slots: 1,
    }),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

async function buildVite(sources: string, out: string): Promise<void> {
  const { build } = await import('vite');
  await build({ root: sources, configFile: false, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
}

const chromiumReason = existsSync(CHROMIUM_PATH)
  ? null
  : `no Chromium at ${CHROMIUM_PATH}: the preview step is skipped`;

for (const dialect of enabledDialects()) {
  const store = dialect === 'postgres' ? 'an S3 store' : 'files under data_dir';
  describe(`studios: deploy from another machine [${dialect}, ${store}]`, { timeout: 180_000 }, () => {
    let s3: S3Server | undefined;
    let platform: Platform;
    let browser: Browser | undefined;
    let machine = '';
    const slug = `deploy-probe-${dialect}`;
    let token = '';
    let email = '';
    const builds: string[] = [];

    beforeAll(async () => {
      s3 = dialect === 'postgres' ? await startS3() : undefined;
      platform = await startPlatform(dialect, s3 ? s3.settings() : {});
      const ctx = platform.app.ctx;
      const studio = await createStudio(ctx);
      const member = await createPlayerWithPassword(ctx, PASSWORD, { display_name: 'Member Probe' });
      email = member.email;
      await addMember(ctx, studio.id, member.id, 'developer');
      token = (await createToken(ctx, member.id)).token;
      await createStudioGame(ctx, studio.id, { slug });
      // The studio's machine: the command line (one file, nothing installed) and the two builds, nothing else.
      machine = await studioMachine();
      for (const version of ['1.0.0', '1.1.0']) {
        const out = path.join(machine, `dist-${version}`);
        await buildVite(viteGame(slug, version), out);
        builds.push(out);
      }
      if (!chromiumReason)
        browser = await chromium.launch({
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: ['--no-sandbox', '--disable-gpu'],
        });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await platform?.close();
      await s3?.close();
    });

    /** The command line, run on the studio's machine: its own folder, the URL, the token in the environment. */
    const cli = async (...args: string[]) => {
      const result = await runStudioCli(machine, token, [...args, '--url', platform.origin, '--json']);
      if (result.code !== 0)
        throw new Error(`gameplatform-cli ${args.join(' ')} failed: ${result.stdout} ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    const liveVersion = async () =>
      ((await (await fetch(`${platform.origin}/v1/games/${slug}`)).json()) as { data?: { version: string } }).data
        ?.version;
    /** The game's file at its plain URL on its own origin (as a page of the live version loads it). */
    const liveFile = (file: string) =>
      new Promise<string>((resolve, reject) => {
        const port = Number(new URL(platform.origin).port);
        const headers = { host: `${slug}.games.localhost:${port}` };
        http
          .get({ host: '127.0.0.1', port, path: `/${file}`, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          })
          .on('error', reject);
      });

    it('holds nothing but the command line and the builds on the machine', () => {
      expect(readdirSync(machine).sort()).toEqual(['cli.js', 'dist-1.0.0', 'dist-1.1.0']);
    });

    it('deploys the first build: a number and a preview URL, not live', async () => {
      const result = await cli('deploy', `./dist-1.0.0`);
      expect(result).toMatchObject({ game: slug, number: 1, version: '1.0.0', live: false, released: false });
      expect(result.preview_url).toBe(`${platform.origin}/preview/${slug}/1`);
      expect(await liveVersion()).toBeUndefined();
    });

    it.skipIf(chromiumReason !== null)(
      'previews it in Chromium: the real shell runs the build, its save kept apart',
      async () => {
        const context = await browser!.newContext({ baseURL: platform.origin });
        const page = await context.newPage();
        await page.goto('/login');
        const login = await page.evaluate(
          `fetch('/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'ServiceSDK' }, body: ${JSON.stringify(JSON.stringify({ login: email, password: PASSWORD }))} }).then((r) => r.status)`,
        );
        expect(login).toBe(200);
        await page.goto(`/preview/${slug}/1`);
        await page.locator('iframe.game-frame').waitFor({ state: 'visible', timeout: 20_000 });
        expect(await page.locator('.shell-bar .badge').innerText()).toContain('build 1');
        const frame = (await (await page.locator('iframe.game-frame').elementHandle())!.contentFrame()) as Frame;
        await frame.waitForFunction('document.body.dataset.result !== undefined', undefined, { timeout: 20_000 });
        const result = JSON.parse((await frame.locator('body').getAttribute('data-result'))!);
        expect(result).toEqual({ version: '1.0.0', level: 'level of 1.0.0', player: 'Member Probe', saved: 1 });
        const saves = await fetch(`${platform.origin}/v1/studio/games/${slug}/preview/states?build=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(((await saves.json()) as { data: { states: unknown[] } }).data.states).toEqual([
          expect.objectContaining({ slot: 0, version: 1 }),
        ]);
        await context.close();
      },
    );

    it('releases it: players get 1.0.0', async () => {
      const released = await cli('release', slug, '1');
      expect(released).toMatchObject({ changed: true, previous: null, build: { number: 1, live: true } });
      const status = await fetch(`${platform.origin}/v1/studio/games/${slug}/status`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'published' }),
      });
      expect(status.status).toBe(200);
      expect(await liveVersion()).toBe('1.0.0');
      expect(await liveFile('level.json')).toBe(JSON.stringify({ name: 'level of 1.0.0' }));
    });

    it('deploys and releases the second build in one command', async () => {
      const result = await cli('deploy', './dist-1.1.0', '--release');
      expect(result).toMatchObject({ number: 2, version: '1.1.0', released: true, live: true });
      expect(await liveVersion()).toBe('1.1.0');
      expect(await liveFile('level.json')).toBe(JSON.stringify({ name: 'level of 1.1.0' }));
      const listed = await cli('builds', slug);
      expect(listed.map((b: { number: number; live: boolean }) => [b.number, b.live])).toEqual([
        [2, true],
        [1, false],
      ]);
    });

    it('rolls back to the first build', async () => {
      const result = await cli('rollback', slug);
      expect(result).toMatchObject({ previous: 2, build: { number: 1, version: '1.0.0', live: true } });
      expect(await liveVersion()).toBe('1.0.0');
      expect(await liveFile('level.json')).toBe(JSON.stringify({ name: 'level of 1.0.0' }));
    });

    it("refuses a build with the platform's message, as JSON for CI", async () => {
      const bad = path.join(machine, 'bad');
      cpSync(builds[0]!, bad, { recursive: true });
      writeFileSync(path.join(bad, 'game.json'), JSON.stringify({ slug, version: 'one' }));
      const refused = await runStudioCli(machine, token, ['deploy', './bad', '--url', platform.origin, '--json']);
      expect(refused.code).toBe(1);
      const answer = JSON.parse(refused.stdout);
      expect(answer.error).toMatchObject({
        code: 'validation_failed',
        fields: expect.objectContaining({ name: 'is required' }),
      });
      copyFileSync(path.join(builds[0]!, 'game.json'), path.join(bad, 'game.json'));
    });
  });
}
