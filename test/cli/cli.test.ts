// The gameplatform command as an operator runs it: a child process with its own settings.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { runCli as cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// Each call is a new process that compiles the sources: slow when the machine is busy.
describe('cli', { timeout: 120_000 }, () => {
  it('migrates a new database, then has nothing to do, and reverts only with --yes', async () => {
    const dir = tempDir('gp-cli-');
    const env = { GP_DATA_DIR: dir, CWD: dir };
    // A read-only command never migrates: on a new database it says what to do.
    const list = await cli(['games', 'list'], env);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(
      /^gameplatform: the database is not up to date \(\d+ migrations pending\): run gameplatform migrate\n$/,
    );
    const first = await cli(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied 2026_11_21_0001_core/);
    expect((await cli(['migrate'], env)).stdout).toMatch(/up to date/);
    expect((await cli(['games', 'list', '--json'], env)).stdout).toBe('[]\n');
    // Destructive: with no terminal to ask on, only --yes goes ahead.
    for (const args of [
      ['migrate', '--down'],
      ['migrate', '--down', '--all'],
    ]) {
      const refused = await cli(args, env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^gameplatform: .*revert.*--yes.*\n$/);
    }
    // Nothing was reverted by the refusals: --yes reverts every migration.
    const reverted = await cli(['migrate', '--down', '--all', '--yes'], env);
    expect(reverted.stdout).toMatch(/reverted 2026_11_21_0001_core/);
    expect(reverted.stdout.trim().split('\n')).toHaveLength(Object.keys(migrations).length);
  }, 300_000);

  it('says in one line, without a stack, that the database cannot be reached', async () => {
    // A SQLite path under a plain file: its directory can never be made.
    const file = path.join(tempDir('gp-cli-'), 'a-file');
    writeFileSync(file, '');
    for (const url of ['postgres://gp:secret-pw@127.0.0.1:1/gameplatform', path.join(file, 'gameplatform.sqlite')]) {
      const res = await cli(['games', 'list'], { GP_DATABASE_URL: url });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^gameplatform: cannot reach the database [^\n]+\n$/);
      expect(res.stderr).not.toContain('secret-pw');
    }
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
