// The gameplatform command as an operator runs it: a child process with its own settings.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/cli.ts'), ...args], {
      cwd: env.CWD ?? mkdtempSync(path.join(tmpdir(), 'gp-cli-')),
      env: { PATH: process.env.PATH ?? '', GP_LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

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
