// Runs the gameplatform command as an operator would: a child process (tsx over the sources) with its own settings.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Harness } from './harness.js';
import { removeTempDir, tempDir } from './temp.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** the folder the command ran in */
  cwd: string;
}

/** Runs the command in env.CWD, or in a folder of its own that is removed as soon as the command ends. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const ownDir = env.CWD ? undefined : tempDir('gp-cli-');
  const cwd = (env.CWD ?? ownDir)!;
  try {
    const { stdout, stderr } = await run(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'src/cli.ts'), ...args],
      {
        cwd,
        env: { PATH: process.env.PATH ?? '', GP_LOG_LEVEL: 'silent', ...env },
      },
    );
    return { code: 0, stdout, stderr, cwd };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, cwd };
  } finally {
    if (ownDir) removeTempDir(ownDir);
  }
}

/** The command against a harness's database and data directory. */
export function cliFor(h: Harness) {
  return (args: string[]) => runCli(args, { GP_DATABASE_URL: h.config.database_url, GP_DATA_DIR: h.dataDir });
}
