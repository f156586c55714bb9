// The gameplatform command as an operator runs it: a child process with its own settings.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as cli } from '../helpers/cli.js';

// Each call is a new process that compiles the sources: slow when the machine is busy.
describe('cli', { timeout: 120_000 }, () => {
  it('migrates a new database, then has nothing to do, and reverts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gp-cli-'));
    const env = { GP_DATA_DIR: dir, CWD: dir };
    const first = await cli(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied 2026_11_21_0001_core/);
    expect((await cli(['migrate'], env)).stdout).toMatch(/up to date/);
    expect((await cli(['migrate', '--down', '--all'], env)).stdout).toMatch(/reverted 2026_11_21_0001_core/);
  });

  it('stops with a message naming a bad setting', async () => {
    const res = await cli(['migrate'], { GP_FREE_SECONDS_PER_DAY: 'many' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/free_seconds_per_day \(GP_FREE_SECONDS_PER_DAY\)/);
  });

  it('lists its commands', async () => {
    const res = await cli(['--help']);
    expect(res.stdout).toMatch(/serve/);
    expect(res.stdout).toMatch(/migrate/);
  });
});
