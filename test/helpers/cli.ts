// Runs the gameplatform command as an operator does: a child process with its own settings (for example the test database).
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export async function runCli(args: string[], env: Record<string, string> = {}) {
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
