// Starts the service: open the database, migrate, build the app, listen; on SIGTERM/SIGINT stop accepting, finish in-flight requests, close the pools.
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp, type App } from './app.js';
import { publicUrlPortWarning, type Config } from './config.js';
import { openDatabase } from './db/connect.js';
import { loggerOptions } from './http/logging.js';
import { migrateToLatest } from './db/migrate.js';
import { whileDatabaseUnreachable } from './db/wait.js';
import { legacyNode } from './db/sqlite-driver.js';
import { gamesUrlWarning } from './modules/games/game-origin.js';
import { publishDemoGamesIfEmpty } from './modules/portal/demo-games.js';
import { startIdleSweep } from './modules/play/play.sweeper.js';
import { startDeletionPurge } from './modules/accounts/purge.sweeper.js';
import { startUploadSweep } from './modules/games/uploads.sweeper.js';
import { listenForMetrics } from './modules/status/metrics-listener.js';
import { startTracing } from './services/tracing/tracing.js';

export async function startServer(config: Config): Promise<App> {
  const logger = pino(loggerOptions(config.log_level));
  if (legacyNode)
    logger.warn(
      `Node.js ${process.versions.node} is past its end of life and untested here; use Node.js 22.12 or newer (24 LTS)`,
    );
  const tracing = await startTracing(config);
  if (tracing) logger.info(`tracing on: ${config.tracing.exporters.join(', ')} ${config.tracing.endpoint}`.trim());
  const database = openDatabase(config.database_url, {
    poolSize: config.database_pool_size,
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost; the pool will reconnect'),
  });
  // A database still starting or failing over is waited for (database_connect_timeout_seconds); a failed migration
  // left nothing behind (PostgreSQL runs them in one transaction), so it is run again from the start.
  const waiting = { timeoutMs: config.database_connect_timeout_seconds * 1000, log: logger };
  for (const line of await whileDatabaseUnreachable('migrating', () => migrateToLatest(database.db), waiting))
    logger.info(line);

  const app = await buildApp({ config, database, logger, ...(tracing ? { tracing } : {}) });
  const demos = await whileDatabaseUnreachable(
    'publishing the demo games',
    () => publishDemoGamesIfEmpty(app.ctx),
    waiting,
  );
  if (demos.length) app.log.info(`the catalogue was empty: published the demo games ${demos.join(', ')}`);
  // Every process sweeps idle play sessions (the sweep is safe to run concurrently); the timer stops before the database closes.
  const sweeper = startIdleSweep(app.ctx);
  app.addHook('onClose', async () => sweeper.stop());
  // Accounts whose deletion grace period is over are purged hourly (DELETE /v1/me), and guests idle for guests.idle_days.
  const purger = startDeletionPurge(app.ctx);
  app.addHook('onClose', async () => purger.stop());
  // Build uploads left unfinished are deleted with their parts once past builds.upload_ttl_hours.
  const uploads = startUploadSweep(app.ctx);
  app.addHook('onClose', async () => uploads.stop());
  // Mail the SMTP server did not take yet is tried again from the outbox (app.close() stops the timer through the mailer).
  app.ctx.mailer.startRetrying();

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`serving ${config.public_url} (database: ${database.dialect}), games at ${config.games_url}`);
  const listening = app.server.address();
  const portWarning = listening && typeof listening === 'object' ? publicUrlPortWarning(config, listening.port) : null;
  if (portWarning) app.log.warn(portWarning);
  if (await listenForMetrics(app))
    app.log.info(`metrics and probes at http://${config.metrics_host}:${config.metrics_port}/metrics`);
  const gamesWarning = gamesUrlWarning(config);
  if (gamesWarning) app.log.warn(gamesWarning);

  closeWithGrace({ delay: 10_000, logger }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an uncaught error');
    else app.log.info(`${signal} received: finishing in-flight requests`);
    await app.close();
    // After app.close(): its onClose hooks still write (mail being delivered goes to the outbox).
    await database.destroy();
    await tracing?.shutdown();
  });
  return app;
}
