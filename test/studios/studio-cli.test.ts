// The studio command line (packages/cli) as people and CI meet it: progress on stderr, the build's number and preview
// URL at the end, refusals naming the file, a missing or refused token, an upload resumed, keys made and revoked.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { type Platform, runStudioCli, startPlatform, studioMachine } from '../helpers/platform.js';
import { addMember, buildEntries, buildZip, createStudio, createStudioGame } from '../helpers/studios.js';
import { renameEntry, zipOf } from '../helpers/zips.js';

describe('studios: the command line on a studio machine', { timeout: 120_000 }, () => {
  let platform: Platform;
  let machine = '';
  let token = '';
  let studioId = 0;
  beforeAll(async () => {
    platform = await startPlatform('sqlite');
    machine = await studioMachine();
    studioId = (await createStudio(platform.app.ctx)).id;
    const member = await createPlayerWithToken(platform.app.ctx);
    await addMember(platform.app.ctx, studioId, member.player.id);
    token = member.token;
  }, 60_000);
  afterAll(async () => platform?.close());

  const cli = (args: string[], t: string | null = token) =>
    runStudioCli(machine, t ?? undefined, [...args, '--url', platform.origin]);
  const newGame = () => createStudioGame(platform.app.ctx, studioId);
  const writeZip = (name: string, zip: Buffer) => {
    writeFileSync(path.join(machine, name), zip);
    return `./${name}`;
  };

  it('deploys a zip, telling the progress and ending with the build number and the preview URL', async () => {
    const game = await newGame();
    const file = writeZip('a.zip', await buildZip(game.slug, { files: { 'pad.bin': randomBytes(300_000) } }));
    const result = await cli(['deploy', file, '--part-size', '0.1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/uploaded 0 B of .* \(0%\)/);
    expect(result.stderr).toMatch(/\(100%\)/);
    expect(result.stdout).toContain(`${game.slug}: build 1 (1.2.0): 6 files`);
    expect(result.stdout).toContain('build number: 1');
    expect(result.stdout).toContain(`preview: ${platform.origin}/preview/${game.slug}/1`);
    expect(result.stdout).toContain(`release it: gameplatform-cli release ${game.slug} 1`);
    const builds = await cli(['builds', game.slug]);
    expect(builds.stdout).toMatch(/^BUILD\s+VERSION\s+STATE\s+LIVE/);
  });

  it('names the refused entry and exits 1', async () => {
    const game = await newGame();
    const zip = renameEntry(await zipOf({ ...buildEntries(game.slug), 'xx/evil.js': 'x' }), 'xx/evil.js', '../evil.js');
    const result = await cli(['deploy', writeZip('evil.zip', zip), '--game', game.slug]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`../evil.js: ".." would leave the game's folder (invalid_build)`);
  });

  it('says what to do without a token, and refuses a revoked one', async () => {
    const game = await newGame();
    const none = await cli(['builds', game.slug], null);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/set GAMEPLATFORM_TOKEN/);
    const wrong = await cli(['builds', game.slug], 'agp_notatoken');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/unauthenticated/);
    const nowhere = await runStudioCli(machine, token, ['builds', game.slug, '--url', 'http://127.0.0.1:9']);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('resumes an upload that stopped: only the parts it lacks are sent', async () => {
    const game = await newGame();
    const zip = await buildZip(game.slug, { files: { 'pad.bin': Buffer.alloc(200_000, 3) } });
    const file = writeZip('resume.zip', zip);
    const part = Math.floor(0.1 * 1024 * 1024);
    const started = await fetch(`${platform.origin}/v1/studio/games/${game.slug}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ size: zip.length }),
    });
    const { id } = ((await started.json()) as { data: { id: string } }).data;
    await fetch(`${platform.origin}/v1/studio/games/${game.slug}/uploads/${id}/parts/1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: zip.subarray(0, part),
    });
    const result = await cli(['deploy', file, '--resume', id, '--part-size', '0.1', '--json']);
    expect(result.code, result.stdout).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ game: game.slug, number: 1, released: false });
    const other = await cli(['deploy', writeZip('other.zip', await buildZip(game.slug)), '--resume', id]);
    expect(other.code).not.toBe(0);
  });

  it("makes, lists and revokes the game's developer keys, the key shown once", async () => {
    const game = await newGame();
    const made = await cli([
      'keys',
      'create',
      game.slug,
      '--scopes',
      'builds:write,builds:release',
      '--name',
      'CI',
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout);
    expect(key.key).toMatch(/^agk_/);
    const deployed = await cli(
      ['deploy', writeZip('k.zip', await buildZip(game.slug)), '--release', '--json'],
      key.key,
    );
    expect(JSON.parse(deployed.stdout)).toMatchObject({ number: 1, released: true, uploaded_with: 'key' });
    const listed = await cli(['keys', 'list', game.slug]);
    expect(listed.stdout).toContain(key.prefix);
    expect(listed.stdout).not.toContain(key.key);
    expect((await cli(['keys', 'revoke', game.slug, String(key.id)])).stdout.trim()).toBe(`revoked key ${key.id}`);
    expect((await cli(['builds', game.slug], key.key)).code).toBe(1);
  });
});
