// The platform listening on a port of its own (on the wall clock), and the studio command line run against it from a
// folder of its own, as on a studio's machine: the bundled file, the URL, the token in the environment, nothing else.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from './database.js';
import { testConfig } from './harness.js';
import { freePort } from './ports.js';
import { tempDir } from './temp.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export interface Platform {
  app: App;
  origin: string;
  close(): Promise<void>;
}

export async function startPlatform(
  dialect: 'sqlite' | 'postgres',
  settings: Record<string, unknown> = {},
): Promise<Platform> {
  const testDb = await createTestDatabase(dialect);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = testConfig(testDb.dataDir, testDb.url, {
    settings: { public_url: origin, host: '127.0.0.1', port, ...settings },
  });
  const database = openDatabase(config.database_url);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    origin,
    async close() {
      await app.close();
      await database.destroy();
      await testDb.drop();
    },
  };
}

/** A folder standing for a studio's machine, holding the command line built into one file (cli.js). */
export async function studioMachine(): Promise<string> {
  const machine = tempDir('gp-machine-');
  await run(process.execPath, [path.join(root, 'packages/cli/build.mjs'), machine]);
  return machine;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node cli.js <args>` in the machine's folder with only PATH, HOME and GAMEPLATFORM_TOKEN set. */
export async function runStudioCli(machine: string, token: string | undefined, args: string[]): Promise<CliRun> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: machine };
  if (token !== undefined) env.GAMEPLATFORM_TOKEN = token;
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(machine, 'cli.js'), ...args], {
      cwd: machine,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
