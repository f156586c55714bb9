// What kind of failure a database error is, for gameplatform_db_errors_total: coarse enough to alert on, the same
// words on SQLite and PostgreSQL.
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * - `connection`: the database cannot be reached or used now (lost, refused, no free connection in time)
 * - `timeout`: a statement or a lock wait ran out of time (statement_timeout, lock_timeout, SQLite's busy timeout)
 * - `conflict`: a serialization failure or a deadlock; the transaction may be run again
 * - `constraint`: a unique, foreign-key, not-null or check constraint refused a write (often expected and handled)
 * - `other`: anything else, usually a bug
 */
export type DatabaseErrorKind = 'connection' | 'timeout' | 'conflict' | 'constraint' | 'other';

export const DATABASE_ERROR_KINDS: readonly DatabaseErrorKind[] = [
  'connection',
  'timeout',
  'conflict',
  'constraint',
  'other',
];

const TIMEOUTS = new Set([
  '57014',
  '55P03',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
]);
const CONFLICTS = new Set(['40001', '40P01']);

export function databaseErrorKind(error: unknown): DatabaseErrorKind {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (TIMEOUTS.has(code)) return 'timeout';
    if (CONFLICTS.has(code)) return 'conflict';
    if (code.startsWith('23') || code.startsWith('SQLITE_CONSTRAINT')) return 'constraint';
  }
  return isDatabaseUnavailable(error) ? 'connection' : 'other';
}
