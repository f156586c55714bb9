#!/usr/bin/env node
// The gameplatform command: serve, migrate, and the operator commands of DESIGN §9.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateAllDown, migrateDown, migrateToLatest } from './db/migrate.js';
import { serviceVersion } from './lib/version.js';
import { registerPlayerCommands } from './modules/accounts/accounts.cli.js';
import { registerMailCommands } from './modules/mail/mail.cli.js';

/** Runs `fn` with the settings and a migrated database, closing the database afterwards. */
export async function withDatabase<T>(fn: (config: Config, database: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config.database_url);
  try {
    await migrateToLatest(database.db);
    return await fn(config, database);
  } finally {
    await database.destroy();
  }
}

export function buildProgram(): Command {
  const program = new Command('gameplatform').description('The game platform service').version(serviceVersion());

  program
    .command('serve')
    .description('serve the API, the portal and the game files')
    .action(async () => {
      // Loaded only here: the other commands start without the whole web stack.
      const { startServer } = await import('./server.js');
      await startServer(loadConfig());
    });

  program
    .command('migrate')
    .description('apply every pending migration (or revert with --down)')
    .option('--down', 'revert the newest migration')
    .option('--all', 'with --down: revert every migration')
    .action(async (options: { down?: boolean; all?: boolean }) => {
      const config = loadConfig();
      const database = openDatabase(config.database_url);
      try {
        const run = options.down ? (options.all ? migrateAllDown : migrateDown) : migrateToLatest;
        const lines = await run(database.db);
        console.log(lines.length ? lines.join('\n') : 'nothing to do: the database is up to date');
      } finally {
        await database.destroy();
      }
    });

  registerPlayerCommands(program);
  registerMailCommands(program);

  return program;
}

export async function runCli(argv: string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`gameplatform: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

// Run when executed as a script (npm start, npm run cli); bin/gameplatform.js calls runCli itself.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) void runCli();
