#!/usr/bin/env node
// The gameplatform command: serve, migrate, and the operator commands (docs/operations.md, "Command line").
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import pino from 'pino';
import { systemClock } from './clock.js';
import { pickFreePort } from './lib/free-port.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { AppContext } from './context.js';
import type { DatabaseHandle } from './db/connect.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';
import { registerMigrateCommand } from './db/migrate.cli.js';
import { asRefusal, openForCli } from './db/open-cli.js';
import { AppError } from './http/errors.js';
import { CliRefusal } from './lib/refusal.js';
import { loggerOptions } from './http/logging.js';
import { tuneHeapForServing } from './lib/heap.js';
import { serviceVersion } from './lib/version.js';
import { registerPlayerCommands } from './modules/accounts/accounts.cli.js';
import { registerGameCommands } from './modules/games/games.cli.js';
import { createMailer } from './services/mail/mailer.js';
import { createMetrics } from './services/metrics/metrics.js';
import { registerMailCommands } from './services/mail/mail.cli.js';
import { registerPlayCommands } from './modules/play/play.cli.js';
import { registerStudioCommands } from './modules/studios/studios.cli.js';
import { openStore } from './services/storage/storage.js';
import { registerStorageCommands } from './services/storage/storage.cli.js';
import { registerBackupCommands } from './services/backup/backup.cli.js';
import { avatarObjectKeys } from './modules/accounts/stored-objects.repository.js';
import { contentTypeOf } from './modules/games/file-types.js';
import { fileSetPrefixes } from './modules/games/stored-objects.repository.js';
import { StorageError } from './services/storage/store.js';

export { CliRefusal };

export interface DatabaseOptions {
  /** A command that only reads: it never migrates, and refuses (saying what to do) while migrations are pending. */
  readOnly?: boolean;
}

/** Runs `fn` with the settings and a migrated database (read-only commands: a current one), closing it afterwards. */
export async function withDatabase<T>(
  fn: (config: Config, database: DatabaseHandle) => Promise<T>,
  options: DatabaseOptions = {},
): Promise<T> {
  const config = loadConfig();
  const database = openForCli(config);
  try {
    try {
      if (options.readOnly) {
        const pending = await pendingMigrations(database.db);
        if (pending.length) {
          throw new CliRefusal(
            `the database is not up to date (${pending.length} migration${pending.length === 1 ? '' : 's'} pending): run gameplatform migrate`,
          );
        }
      } else {
        await migrateToLatest(database.db);
      }
    } catch (error) {
      throw asRefusal(error, config);
    }
    return await fn(config, database);
  } finally {
    await database.destroy();
  }
}

/** Runs `fn` with an AppContext like the server's (system clock, log on stderr, mailer) over a migrated database. */
export async function withContext<T>(fn: (ctx: AppContext) => Promise<T>, options: DatabaseOptions = {}): Promise<T> {
  return withDatabase(async (config, database) => {
    const log = pino(loggerOptions(config.log_level), pino.destination(2));
    const mailer = createMailer({ config, db: database.db, clock: systemClock, log });
    const storage = await openStore(config);
    try {
      await storage.check();
      return await fn({
        config,
        db: database.db,
        dialect: database.dialect,
        clock: systemClock,
        log,
        mailer,
        metrics: createMetrics(),
        storage,
      });
    } finally {
      storage.close();
      await mailer.close();
    }
  }, options);
}

export function buildProgram(): Command {
  const program = new Command('gameplatform').description('The game platform service').version(serviceVersion());

  program
    .command('serve')
    .description('serve the API, the portal and the game files')
    .action(async () => {
      tuneHeapForServing();
      // Loaded only here: the other commands start without the whole web stack.
      const { startServer } = await import('./server.js');
      let config = loadConfig();
      // Port 0 (any free port) with public_url unset: the port is taken here, so that public_url names the real one.
      if (config.port === 0 && config.public_url_default)
        config = loadConfig({ overrides: { port: await pickFreePort(config.host) } });
      try {
        await startServer(config);
      } catch (error) {
        throw asRefusal(error, config);
      }
    });

  registerMigrateCommand(program);
  registerGameCommands(program, withContext);
  registerPlayerCommands(program, withContext);
  registerMailCommands(program, withContext);
  registerPlayCommands(program, withContext);
  registerStudioCommands(program, withContext);
  registerStorageCommands(program);
  registerBackupCommands(program, {
    references: async (db) => ({ keys: await avatarObjectKeys(db), prefixes: await fileSetPrefixes(db) }),
    contentTypeOf,
  });

  return program;
}

export async function runCli(argv: string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CliRefusal || error instanceof StorageError) {
      console.error(`gameplatform: ${error.message}`);
      process.exit(error instanceof CliRefusal ? error.exitCode : 1);
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
