// The real app on a fresh database with a manual clock, for tests and benchmarks (no vitest here, so scripts can use it).
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type DatabaseHandle, type DialectName } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { loggerOptions } from '../../src/http/logging.js';
import type { Tracing } from '../../src/services/tracing/tracing.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { requester, type Requester } from './request.js';

export const TEST_ORIGIN = 'http://localhost:8080';

export interface Harness {
  dialect: DialectName;
  app: App;
  ctx: AppContext;
  config: Config;
  clock: ManualClock;
  database: DatabaseHandle;
  dataDir: string;
  /** HTTP calls through app.inject */
  http: Requester;
}

export interface HarnessOptions {
  /** settings over the test defaults */
  settings?: Record<string, unknown>;
  /** NODE_ENV for the config (default test) */
  env?: 'test' | 'production' | 'development';
  /** extra environment variables for loadConfig */
  environment?: Record<string, string>;
  /** a logger for the app instead of a silent one (tests that read the log) */
  logger?: FastifyBaseLogger;
  /** runs after buildApp and before ready: tests may add probe routes here */
  beforeReady?: (app: App) => void | Promise<void>;
  /** where the app's log lines go (at the config's log_level, with the server's logger options); default none */
  logStream?: NodeJS.WritableStream;
  /** OpenTelemetry tracing started by the test (startTracing with an in-memory exporter) */
  tracing?: Tracing;
}

export function testConfig(dataDir: string, databaseUrl: string, options: HarnessOptions = {}): Config {
  return loadConfig({
    env: { NODE_ENV: options.env ?? 'test', ...options.environment },
    cwd: dataDir,
    overrides: {
      data_dir: dataDir,
      database_url: databaseUrl,
      public_url: TEST_ORIGIN,
      log_level: 'silent',
      // Every request of a test file comes from one address: limits stay out of the way unless a test sets them.
      'rate_limits.login.max': 100_000,
      'rate_limits.register.max': 100_000,
      'rate_limits.forgot_password.max': 100_000,
      'rate_limits.default.max': 100_000,
      'rate_limits.developer_key.max': 100_000,
      // and make their guests: the cap of new guests per address stays out of the way too
      'guests.per_ip_per_day': 100_000,
      // Production needs a games_url of its own (the *.games.localhost default is for development and tests).
      ...(options.env === 'production' ? { games_url: 'https://{slug}.games.example.net' } : {}),
      ...options.settings,
    },
  });
}

export async function createHarness(
  dialect: DialectName,
  options: HarnessOptions = {},
): Promise<Harness & { close(): Promise<void> }> {
  const testDb: TestDatabase = await createTestDatabase(dialect);
  const config = testConfig(testDb.dataDir, testDb.url, options);
  const database = openDatabase(config.database_url, { poolSize: 20 });
  const clock = new ManualClock();
  let app: App | undefined;
  try {
    await migrateToLatest(database.db);
    const logger =
      options.logger ?? (options.logStream ? pino(loggerOptions(config.log_level), options.logStream) : undefined);
    app = await buildApp({
      config,
      database,
      clock,
      ...(logger ? { logger } : {}),
      ...(options.tracing ? { tracing: options.tracing } : {}),
    });
    await options.beforeReady?.(app);
    await app.ready();
  } catch (error) {
    // A harness that does not start (a test of a refused start) leaves no database behind.
    await app?.close().catch(() => undefined);
    await database.destroy();
    await testDb.drop();
    throw error;
  }
  return {
    dialect,
    app,
    ctx: app.ctx,
    config,
    clock,
    database,
    dataDir: testDb.dataDir,
    http: requester(app),
    async close() {
      await app.close();
      await database.destroy();
      await testDb.drop();
    },
  };
}
