// What every service receives: settings, database, clock, logger, mailer, metrics and file store. Built once by the server (or a test).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db, DialectName } from './db/connect.js';
import type { Mailer } from './services/mail/mailer.js';
import type { Metrics } from './services/metrics/metrics.js';
import type { ObjectStore } from './services/storage/store.js';

export interface AppContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** counters the services move (never the repositories); read by GET /metrics */
  metrics: Metrics;
  /** avatars and game files (storage_url) */
  storage: ObjectStore;
}
