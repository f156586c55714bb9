// One test run leaves no folders in the system temp directory: tempDir's folders go when their process ends, and a
// command run by runCli removes its own working folder as soon as it ends.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { liveTempDirs } from '../helpers/temp.js';

const helper = path.resolve(import.meta.dirname, '../helpers/temp.ts');

describe('tests clean up their temporary folders', { timeout: 120_000 }, () => {
  it('removes the folders of tempDir, with their contents, when the process exits', async () => {
    const script = `
      import { writeFileSync, mkdirSync } from 'node:fs';
      import { tempDir } from ${JSON.stringify(helper)};
      const a = tempDir('gp-cli-'), b = tempDir('gp-fixture-');
      mkdirSync(a + '/sub'); writeFileSync(a + '/sub/file', 'x'); writeFileSync(b + '/game.json', '{}');
      console.log(JSON.stringify([a, b]));`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    const dirs = JSON.parse(stdout) as string[];
    expect(dirs).toHaveLength(2);
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
  });

  it('runs a command in a folder of its own and removes it when the command ends', async () => {
    const before = liveTempDirs();
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    expect(path.basename(res.cwd)).toMatch(/^gp-cli-/);
    expect(existsSync(res.cwd)).toBe(false);
    expect(liveTempDirs()).toEqual(before);
  });
});
