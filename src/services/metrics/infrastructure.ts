// The metrics of what the service depends on: the object store, the database's errors, Redis, the notification
// listener, and what is running (build info). Redis and listener series exist only where there is one to report.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DATABASE_ERROR_KINDS, type DatabaseErrorKind } from '../../db/error-kinds.js';
import type { ListenerStats } from '../../db/connect.js';
import { serviceVersion } from '../../lib/version.js';

const PREFIX = 'gameplatform_';

/** Seconds: a local disk answers in well under a millisecond, an object store in tens of them; a timeout in seconds. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One operation's series, resolved once: a call costs an observation, never a label lookup. */
export interface OperationSeries {
  observe(seconds: number): void;
  error(): void;
}

export type InfrastructureMetrics = ReturnType<typeof infrastructureMetrics>;

export function infrastructureMetrics(registry: Registry) {
  const registers = [registry];
  const storeDuration = new Histogram({
    name: `${PREFIX}object_store_duration_seconds`,
    help: 'Object store calls (avatars, game files) by operation, failed ones included, until the store answered (get: until the object starts to arrive)',
    labelNames: ['operation'] as const,
    buckets: STORE_BUCKETS,
    registers,
  });
  const storeErrors = new Counter({
    name: `${PREFIX}object_store_errors_total`,
    help: 'Object store calls that failed, by operation (a missing object is not a failure)',
    labelNames: ['operation'] as const,
    registers,
  });
  const dbErrors = new Counter({
    name: `${PREFIX}db_errors_total`,
    help: 'Failed database statements and connection waits, by kind: connection, timeout, conflict, constraint, other',
    labelNames: ['kind'] as const,
    registers,
  });
  for (const kind of DATABASE_ERROR_KINDS) dbErrors.labels(kind).inc(0);
  const buildInfo = new Gauge({
    name: `${PREFIX}build_info`,
    help: 'Always 1: the version of the service, the Node.js running it and the database it uses, in its labels',
    labelNames: ['version', 'node_version', 'dialect'] as const,
    registers,
  });
  const operations = new Map<string, OperationSeries>();
  let redisErrors: Counter | undefined;

  return {
    /** The series of one object store operation (put, get, head, delete, delete_prefix, list, folders, check). */
    storeOperation(operation: string): OperationSeries {
      let series = operations.get(operation);
      if (!series) {
        const duration = storeDuration.labels(operation);
        const errors = storeErrors.labels(operation);
        errors.inc(0);
        series = { observe: (seconds) => duration.observe(seconds), error: () => errors.inc() };
        operations.set(operation, series);
      }
      return series;
    },
    databaseError(kind: DatabaseErrorKind): void {
      dbErrors.labels(kind).inc();
    },
    describeBuild(dialect: string): void {
      buildInfo.reset();
      buildInfo.labels(serviceVersion(), process.versions.node, dialect).set(1);
    },
    /** Redis's series, from the moment there is a Redis to report on (redis_url set). */
    trackRedis(connected: () => boolean): { error(): void } {
      if (!redisErrors) {
        new Gauge({
          name: `${PREFIX}redis_connected`,
          help: 'Whether the connection to Redis (redis_url) is ready: 1, or 0 while it is lost and the rate limits are not counted',
          registers,
          collect() {
            this.set(connected() ? 1 : 0);
          },
        });
        redisErrors = new Counter({
          name: `${PREFIX}redis_errors_total`,
          help: 'Errors of the connection to Redis (each failed connection attempt counts)',
          registers,
        });
      }
      const errors = redisErrors;
      return { error: () => errors.inc() };
    },
    /** The notification listeners' series (PostgreSQL with credential_cache), read on each scrape. */
    trackListeners(read: () => ListenerStats[]): void {
      new Gauge({
        name: `${PREFIX}notification_listener_connected`,
        help: 'PostgreSQL: whether the LISTEN connection (credential cache) is connected and its echoes come back: 1, or 0 while every token is read from the database',
        labelNames: ['channels'] as const,
        registers,
        collect() {
          this.reset();
          for (const listener of read()) this.labels(listener.channels).set(listener.up ? 1 : 0);
        },
      });
      new Counter({
        name: `${PREFIX}notification_listener_reconnects_total`,
        help: 'PostgreSQL: times the LISTEN connection was lost (or could not be opened) and set out to connect again',
        labelNames: ['channels'] as const,
        registers,
        collect() {
          this.reset();
          for (const listener of read()) this.labels(listener.channels).inc(listener.reconnects);
        },
      });
    },
  };
}
