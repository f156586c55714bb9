// Opens the database named by the settings: better-sqlite3 (WAL, foreign keys, IMMEDIATE write transactions) or a pg pool.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  type Driver,
  type PostgresDialectConfig,
  type Transaction,
} from 'kysely';
import { NotificationListener, type ListenerEvents } from './listener.js';
import { observeDriver, type DatabaseErrorListener, type ErrorReporter } from './observe.js';
import { kyselyProbe, postgresProbe, sqliteProbe, type ReadinessProbe } from './probe.js';
import type { Database } from './schema.js';
import { NamedStatementClient } from './postgres-client.js';
import { SqliteStatementDriver } from './sqlite-connection.js';
import { Sqlite } from './sqlite-driver.js';
import { DatabaseUnavailableError } from './unavailable.js';

export type Db = Kysely<Database>;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type DialectName = 'sqlite' | 'postgres';

/** What the connection pool holds: connections open, checked out, and requests waiting for one. */
export interface PoolStats {
  /** the most connections the pool opens (database_pool_size) */
  max: number;
  size: number;
  inUse: number;
  waiting: number;
}

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** Connections open, checked out and waited for (GET /metrics). SQLite has its one connection and no queue. */
  poolStats(): PoolStats;
  /** PostgreSQL: a connection of its own that LISTENs on `channels` (not connected until started). */
  listen?(channels: readonly string[], events: ListenerEvents): NotificationListener;
  /** GET /readyz's own connection (never the request pool's) */
  readiness: ReadinessProbe;
  /** The listeners opened by listen() and not closed: whether each is up, and how often it reconnected. */
  listenerStats(): ListenerStats[];
  /** Where every failed statement or connection wait is reported, by kind (one listener; a new one replaces it). */
  onError(listener: DatabaseErrorListener): void;
  destroy(): Promise<void>;
}

export interface ListenerStats {
  channels: string;
  up: boolean;
  reconnects: number;
}

/** SQLite through the service's driver (sqlite-connection.ts), its failures reported. */
class ObservedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    private readonly reporter: ErrorReporter,
  ) {
    super({ database: sqlite });
  }
  override createDriver(): Driver {
    return observeDriver(new SqliteStatementDriver(this.sqlite), this.reporter, 'throws');
  }
}

class ObservedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly reporter: ErrorReporter,
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return observeDriver(super.createDriver(), this.reporter, 'rejects');
  }
}

export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * SQLite's page cache for the service's connection, in KiB (SQLite's default is 2 MB). With 20,000 running sessions
 * and their tokens, a heartbeat's index pages no longer fitted in 2 MB once saves and scores had passed through it:
 * each heartbeat took 12 % more CPU than with 300 sessions, reading pages back from the OS; with 32 MB, 2 % (
 * bench:http, 2026-11-28). The memory is taken only as pages are read.
 */
const SQLITE_CACHE_KIB = 32 * 1024;
function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  const reporter: ErrorReporter = { listener: undefined };
  const db = new Kysely<Database>({
    dialect: new ObservedSqliteDialect(sqlite, reporter),
  });
  const readiness = file === ':memory:' ? kyselyProbe(db) : sqliteProbe(file);
  return {
    db,
    dialect: 'sqlite',
    poolStats: () => ({ max: 1, size: 1, inUse: 0, waiting: 0 }),
    readiness,
    listenerStats: () => [],
    onError: (listener) => {
      reporter.listener = listener;
    },
    destroy: async () => {
      await readiness.close();
      await db.destroy();
    },
  };
}

// bigint (int8) columns hold epoch milliseconds and scores, all safe integers: read them as numbers.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Connections in the request pool when the settings name none (database_pool_size). */
export const DEFAULT_POOL_SIZE = 10;

export interface OpenOptions {
  onPoolError?: (error: Error) => void;
  /** the request pool's connections (PostgreSQL; default DEFAULT_POOL_SIZE) */
  poolSize?: number;
  /** how long a request waits for a connection (a free one from the pool, or a new one) before 503; default 10 s */
  connectTimeoutMs?: number;
}

/**
 * The pool, made to survive its connections dying (a failover, a restarted database or pooler, a terminated backend):
 * - every client gets an 'error' listener for its whole life. pg-pool listens only while a client is idle; a client
 *   checked out (inside a transaction, between two statements) whose connection dies would emit 'error' with nobody
 *   listening, and end the process. The query running on it rejects with the error, and so does the next one, so the
 *   request fails (503) and pg-pool drops the broken client when it is released; the pool opens a new one on demand.
 * - an error while getting a connection becomes a DatabaseUnavailableError (503), whatever PostgreSQL said.
 * - TCP keep-alive notices a peer that vanished without closing (a failover to another host).
 */
function resilientPool(url: string, options: OpenOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    types: pgTypes as pg.CustomTypesConfig,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // hot statements run as named prepared statements (postgres-client.ts)
    Client: NamedStatementClient,
  } as pg.PoolConfig);
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  pool.on('connect', (client) => {
    client.on('error', () => {
      // Nothing to do: see above. The failing query reports the error; an idle client's reaches the pool's handler.
    });
  });
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    if (args.length) return connect(...args); // the callback form, used by pool.query
    return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => {
      throw new DatabaseUnavailableError(error);
    });
  }) as typeof pool.connect;
  return pool;
}

function openPostgres(url: string, options: OpenOptions): DatabaseHandle {
  const pool = resilientPool(url, options);
  const reporter: ErrorReporter = { listener: undefined };
  const db = new Kysely<Database>({ dialect: new ObservedPostgresDialect({ pool }, reporter) });
  const poolStats = () => ({
    max: pool.options.max,
    size: pool.totalCount,
    inUse: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount,
  });
  const listeners = new Set<NotificationListener>();
  const listen = (channels: readonly string[], events: ListenerEvents) => {
    const listener = new NotificationListener(url, channels, events);
    listeners.add(listener);
    return listener;
  };
  const listenerStats = () => {
    for (const listener of listeners) if (listener.closed) listeners.delete(listener);
    return [...listeners].map((l) => ({ channels: l.channels.join(','), up: l.up, reconnects: l.reconnects }));
  };
  const readiness = postgresProbe(url);
  const destroy = async () => {
    await readiness.close();
    await db.destroy();
  };
  const onError = (listener: DatabaseErrorListener) => {
    reporter.listener = listener;
  };
  return { db, dialect: 'postgres', poolStats, listen, readiness, listenerStats, onError, destroy };
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  return /^postgres(ql)?:\/\//.test(url) ? openPostgres(url, options) : openSqlite(url);
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
