// Running PostgreSQL's client programs (pg_dump, pg_restore, psql): the connection passed without its password on the
// command line, a missing or too old program said in one line.
import { spawn, type ChildProcess } from 'node:child_process';
import { CliRefusal } from '../../lib/refusal.js';

/** The URL for libpq without its password (the process list shows arguments), and the password in PGPASSWORD. */
export function libpqConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { PGAPPNAME: 'gameplatform backup', ...(password ? { PGPASSWORD: password } : {}) },
  };
}

const INSTALL = "install Debian's postgresql-client (or your system's PostgreSQL client package)";

/** Starts a client program; a missing one rejects with a refusal saying what to install. */
export function startTool(program: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(program, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * Resolves with its output once the program exits with 0; rejects with its stderr otherwise. `collect: false` for a
 * program whose output is piped on (it is not kept).
 */
export function finished(child: ChildProcess, program: string, options: { collect?: boolean } = {}): Promise<string> {
  let stdout = '';
  let stderr = '';
  if (options.collect !== false)
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new CliRefusal(`${program} is not installed: ${INSTALL}`) : error),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new CliRefusal(`${program} failed (exit status ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
}

export async function runTool(program: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = startTool(program, args, env);
  child.stdin?.end();
  return finished(child, program);
}

/** The major version of a client program (`pg_dump (PostgreSQL) 15.20 …` → 15). */
export async function toolMajorVersion(program: string): Promise<number> {
  const out = await runTool(program, ['--version']);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(out);
  if (!match) throw new CliRefusal(`cannot read the version of ${program}: ${out.trim()}`);
  return Number(match[1]);
}

/** pg_dump dumps servers of its own major version and older only: say so before it starts. */
export async function checkToolVersion(program: string, serverVersionNum: number): Promise<void> {
  const server = Math.floor(serverVersionNum / 10000);
  const tool = await toolMajorVersion(program);
  if (tool < server)
    throw new CliRefusal(
      `${program} ${tool} cannot work with PostgreSQL ${server}: install the client of version ${server} or newer (Debian: postgresql-client-${server})`,
    );
}
