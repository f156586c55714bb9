#!/usr/bin/env node
// The gameplatform command: serve, migrate, and the operator commands of DESIGN §9.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import pino from 'pino';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateAllDown, migrateDown, migrateToLatest } from './db/migrate.js';
import { AppError } from './http/errors.js';
import { serviceVersion } from './lib/version.js';
import { registerPlayerCommands } from './modules/accounts/accounts.cli.js';
import { registerGameCommands } from './modules/games/games.cli.js';
import { createMailer } from './modules/mail/mailer.js';
import { registerMailCommands } from './modules/mail/mail.cli.js';
import { registerPlayCommands } from './modules/play/play.cli.js';
import { openStore } from './modules/storage/storage.js';
import { registerStorageCommands } from './modules/storage/storage.cli.js';
import { StorageError } from './modules/storage/store.js';

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

/** Runs `fn` with an AppContext like the server's (system clock, log on stderr, mailer) over a migrated database. */
export async function withContext<T>(fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  return withDatabase(async (config, database) => {
    const log = pino({ level: config.log_level }, pino.destination(2));
    const mailer = createMailer({ config, db: database.db, clock: systemClock, log });
    const storage = openStore(config);
    try {
      await storage.check();
      return await fn({ config, db: database.db, dialect: database.dialect, clock: systemClock, log, mailer, storage });
    } finally {
      storage.close();
      await mailer.close();
    }
  });
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

  registerGameCommands(program, withContext);
  registerPlayerCommands(program, withContext);
  registerMailCommands(program, withContext);
  registerPlayCommands(program, withContext);
  registerStorageCommands(program);

  return program;
}

export async function runCli(argv: string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StorageError) {
      console.error(`gameplatform: ${error.message}`);
      process.exit(1);
    }
    // A refusal the operator can act on (bad input, unknown name): the message and each field, no stack.
    if (error instanceof AppError) {
      console.error(`gameplatform: ${error.message}`);
      const fields = (error.extra.fields ?? {}) as Record<string, string>;
      for (const [field, message] of Object.entries(fields)) console.error(`  ${field}: ${message}`);
      process.exit(1);
    }
    throw error;
  }
}

// Run when executed as a script (npm start, npm run cli); bin/gameplatform.js calls runCli itself.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) void runCli();
