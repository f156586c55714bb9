// What every service receives: settings, database, clock, logger, mailer and file store. Built once by the server (or a test).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, DialectName } from './db/connect.js';
import type { Mailer } from './modules/mail/mailer.js';
import type { ObjectStore } from './modules/storage/store.js';

export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** avatars and game files (storage_url) */
  storage: ObjectStore;
}
