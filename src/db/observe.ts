// Every failed statement and every failed wait for a connection, reported by kind (gameplatform_db_errors_total).
// The driver's connections are patched once each; a statement that succeeds costs one more closure call.
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';
import { databaseErrorKind, type DatabaseErrorKind } from './error-kinds.js';

export type DatabaseErrorListener = (kind: DatabaseErrorKind, error: unknown) => void;

/** Where a handle's errors go; set once the metrics exist (after the database was opened). */
export interface ErrorReporter {
  listener: DatabaseErrorListener | undefined;
}

function report(reporter: ErrorReporter, error: unknown): void {
  reporter.listener?.(databaseErrorKind(error), error);
}

const observed = new WeakSet<DatabaseConnection>();

/**
 * How a driver's statements fail: better-sqlite3 throws before Kysely's SQLite connection returns a promise (so a
 * try/catch sees every failure and a success costs no extra promise); pg rejects the promise.
 */
export type FailureMode = 'throws' | 'rejects';

function observeConnection(connection: DatabaseConnection, reporter: ErrorReporter, mode: FailureMode): void {
  if (observed.has(connection)) return;
  observed.add(connection);
  const execute = connection.executeQuery.bind(connection);
  const failed = (error: unknown): never => {
    report(reporter, error);
    throw error;
  };
  connection.executeQuery =
    mode === 'throws'
      ? <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
          try {
            return execute<R>(query);
          } catch (error) {
            return failed(error);
          }
        }
      : <R>(query: CompiledQuery): Promise<QueryResult<R>> => execute<R>(query).catch(failed);
}

/** Patches the driver so that each connection it hands out reports its failures to `reporter`. */
export function observeDriver(driver: Driver, reporter: ErrorReporter, mode: FailureMode): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    let connection: DatabaseConnection;
    try {
      connection = await acquire();
    } catch (error) {
      report(reporter, error);
      throw error;
    }
    observeConnection(connection, reporter, mode);
    return connection;
  };
  return driver;
}
