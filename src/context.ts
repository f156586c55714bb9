// What every service receives: settings, database, clock and logger. Built once by the server (or a test).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, DialectName } from './db/connect.js';

export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
}
