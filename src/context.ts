// What every service receives: settings, database, clock, logger and mailer. Built once by the server (or a test).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, DialectName } from './db/connect.js';
import type { Mailer } from './modules/mail/mailer.js';

export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
}
