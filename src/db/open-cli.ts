// Opening the database for a command of the command line: a database that cannot be reached is a one-line refusal.
import type { Config } from '../config.js';
import { CliRefusal } from '../lib/refusal.js';
import { openDatabase, type DatabaseHandle } from './connect.js';
import { displayDatabaseUrl, unreachableMessage } from './reachability.js';

/** Opens the database of the settings; a database that cannot be reached or opened is a one-line refusal. */
export function openForCli(config: Config): DatabaseHandle {
  try {
    return openDatabase(config.database_url);
  } catch (error) {
    // Opening touches no network (PostgreSQL connects on the first query): this is SQLite's file or its directory.
    throw new CliRefusal(
      unreachableMessage(error, config.database_url) ??
        `cannot reach the database ${displayDatabaseUrl(config.database_url)}: ${(error as Error).message ?? String(error)}`,
    );
  }
}

/** The error as a one-line refusal when it means "the database cannot be reached"; otherwise unchanged. */
export function asRefusal(error: unknown, config: Config): unknown {
  const message = unreachableMessage(error, config.database_url);
  return message ? new CliRefusal(message) : error;
}
