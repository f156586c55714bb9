// The Prometheus metrics of one app instance (prom-client, a registry of its own): services count, /metrics reads.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../../db/connect.js';
import { infrastructureMetrics } from './infrastructure.js';

/** Values read only when /metrics is scraped (no cost on the request paths). */
export interface MetricSources {
  activeSessions(): Promise<number>;
  waitingMail(): Promise<number>;
  pool(): PoolStats;
  /** what GET /readyz would answer now (on the probe's own connection, within its budget) */
  ready(): Promise<boolean>;
}

export type Metrics = ReturnType<typeof createMetrics>;

const PREFIX = 'gameplatform_';

// Seconds: the API answers in milliseconds; the top buckets catch a database or lock wait.
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One registry per app (tests build many apps in one process; the global registry would collide). The sources may be
 * given later (`setSources`), since they read the context the metrics are part of. Node.js and process defaults start
 * on the first scrape: they keep an event-loop monitor and a GC observer running, which an app nobody scrapes (a test,
 * the CLI) does not need.
 */
export function createMetrics(sources?: MetricSources) {
  const registry = new Registry();
  const registers = [registry];
  let from = sources;
  let defaults = false;

  const metrics = {
    registry,
    /** the object store, database errors, Redis, the listener, build info (infrastructure.ts) */
    infrastructure: infrastructureMetrics(registry),
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to its answer, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    heartbeats: new Counter({ name: `${PREFIX}heartbeats_total`, help: 'Heartbeats accepted (200)', registers }),
    creditedSeconds: new Counter({
      name: `${PREFIX}credited_seconds_total`,
      help: 'Play seconds credited to sessions (heartbeats, ends, sessions replaced), after commit',
      registers,
    }),
    sessionsStarted: new Counter({
      name: `${PREFIX}play_sessions_started_total`,
      help: 'Play sessions started (POST /play/start answered 201)',
      registers,
    }),
    sessionsEnded: new Counter({
      name: `${PREFIX}play_sessions_ended_total`,
      help: 'Play sessions closed, by reason (an end reason of POST /play/end, replaced, limit, timeout)',
      labelNames: ['reason'] as const,
      registers,
    }),
    scoreSubmissions: new Counter({
      name: `${PREFIX}score_submissions_total`,
      help: 'Scores accepted, by outcome: stored, or replayed for a repeated Idempotency-Key',
      labelNames: ['outcome'] as const,
      registers,
    }),
    credentialLookups: new Counter({
      name: `${PREFIX}credential_cache_lookups_total`,
      help: 'PostgreSQL: player tokens read from the credential cache (hit) or from the database (miss)',
      labelNames: ['result'] as const,
      registers,
    }),
    stateSaves: new Counter({ name: `${PREFIX}state_saves_total`, help: 'Save states written', registers }),
    stateConflicts: new Counter({
      name: `${PREFIX}state_version_conflicts_total`,
      help: 'Saves refused with 409 version_conflict',
      registers,
    }),
    rateLimited: new Counter({
      name: `${PREFIX}rate_limited_total`,
      help: 'Requests refused with 429 rate_limited, by limit (login-ip, login-name, register-ip, forgot-email, default)',
      labelNames: ['limit'] as const,
      registers,
    }),
    guestsCreated: new Counter({
      name: `${PREFIX}guests_created_total`,
      help: 'Guest players made (POST /v1/auth/guest answered 201)',
      registers,
    }),
    guestsClaimed: new Counter({
      name: `${PREFIX}guests_claimed_total`,
      help: 'Guests that became accounts, by how: register (the guest became the account) or merge (a login merged it into one)',
      labelNames: ['via'] as const,
      registers,
    }),
    guestsPurged: new Counter({
      name: `${PREFIX}guests_purged_total`,
      help: 'Idle guests purged (no token used for guests.idle_days)',
      registers,
    }),
    mailSent: new Counter({ name: `${PREFIX}mail_sent_total`, help: 'Mails the SMTP server accepted', registers }),
    mailFailures: new Counter({
      name: `${PREFIX}mail_failures_total`,
      help: 'Failed mail attempts, by outcome: retry (tried again later) or refused (refused for good, kept in the outbox)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    /** Gives the scrape-time sources once the context exists. */
    setSources(value: MetricSources) {
      from = value;
    },
    /** The exposition text, and its content type. */
    async scrape(): Promise<{ contentType: string; text: string }> {
      if (!defaults) {
        defaults = true;
        collectDefaultMetrics({ register: registry });
      }
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };

  // Registered before the active-sessions gauge: the pool is read before that gauge's query takes a connection.
  const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
    new Gauge({
      name: `${PREFIX}db_pool_${name}`,
      help,
      registers,
      collect() {
        if (from) this.set(read(from.pool()));
      },
    });
  pool('max', 'Database connections the pool opens at most (database_pool_size; SQLite: 1)', (s) => s.max);
  pool('size', 'Database connections open (SQLite: 1, its one connection)', (s) => s.size);
  pool('in_use', 'Database connections checked out by a query or transaction (SQLite: 0)', (s) => s.inUse);
  pool('waiting', 'Queries waiting for a free connection (SQLite: 0)', (s) => s.waiting);
  new Gauge({
    name: `${PREFIX}ready`,
    help: 'What GET /readyz answers now: 1 ready, 0 not (the database does not answer within readiness_timeout_ms, or lacks migrations)',
    registers,
    async collect() {
      if (from) this.set((await from.ready()) ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}play_sessions_active`,
    help: 'Play sessions open now (read from the database on each scrape; sessions idle past the timeout count until the sweep closes them)',
    registers,
    async collect() {
      if (from) this.set(await from.activeSessions());
    },
  });
  new Gauge({
    name: `${PREFIX}mail_outbox_waiting`,
    help: 'Mails in the outbox waiting for the SMTP server (read from the database on each scrape)',
    registers,
    async collect() {
      if (from) this.set(await from.waitingMail());
    },
  });
  return metrics;
}
