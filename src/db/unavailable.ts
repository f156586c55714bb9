// Recognises "the database cannot be reached now" (a lost or refused connection, a failover, a full pool) on either
// database, as opposed to a bug: requests answer it with 503 unavailable, and the start retries it.

/** An error met while getting a connection from the pool: whatever it says, the database is not usable now. */
export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';

  constructor(cause: unknown) {
    super(`database unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

const ERRNOS = new Set([
  'database_unavailable',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'SQLITE_BUSY',
]);

/**
 * PostgreSQL SQLSTATEs: admin_shutdown (a terminated backend, a failover), crash_shutdown, cannot_connect_now (starting
 * or shutting down), too_many_connections, read_only_sql_transaction (a primary that became a standby), and every
 * connection exception (class 08).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** What pg says, without a code, when the socket goes away under a query or a client that lost it is used again. */
const MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|terminating connection/i;

/** Whether the error (or its cause, or one of an AggregateError's errors) means the database is unreachable now. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (ERRNOS.has(e.code) || SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)))
    return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** The message of the innermost cause (what the socket or PostgreSQL said), for the log. */
export function rootMessage(error: unknown): string {
  let current = error as { message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    const next = current.cause ?? (Array.isArray(current.errors) ? current.errors[0] : undefined);
    if (!next || typeof next !== 'object') break;
    current = next as typeof current;
  }
  return typeof current?.message === 'string' && current.message ? current.message : String(error);
}
