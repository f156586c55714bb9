// Whether an error means "the database cannot be reached or opened" (rather than a bug), for one-line messages.

/** Connection-level failures: the network, PostgreSQL refusing the login or the database, SQLite unable to open its file. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '28P01', // password authentication failed
  '28000', // no such role / not allowed
  '3D000', // no such database
  '57P03', // the database system is starting up
  '53300', // too many connections
  'SQLITE_CANTOPEN',
  'SQLITE_NOTADB',
  'SQLITE_PERM',
]);

const TIMEOUT_MESSAGE = /timeout|timed out|Connection terminated/i;

type Failure = Error & { code?: string; address?: string; port?: number; errors?: unknown[] };

/** Walks the error, its causes and an AggregateError's errors; returns the first connection-level failure. */
function findFailure(error: unknown, depth = 0): Failure | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  const e = error as Failure;
  // An AggregateError (every address of a host refused) has no message of its own: its first error says more.
  for (const inner of e.errors ?? []) {
    const found = findFailure(inner, depth + 1);
    if (found) return found;
  }
  if (
    (e.code && UNREACHABLE_CODES.has(e.code)) ||
    (!e.code && TIMEOUT_MESSAGE.test(e.message) && /connect/i.test(e.message))
  )
    return e;
  return findFailure(e.cause, depth + 1);
}

/** The database URL with its password hidden. */
export function displayDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!/^postgres/.test(parsed.protocol)) return url;
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** "cannot reach the database <url>: <why>" when the error is a connection-level failure; undefined otherwise. */
export function unreachableMessage(error: unknown, databaseUrl: string): string | undefined {
  const failure = findFailure(error);
  if (!failure) return undefined;
  const message = failure.message ?? '';
  const why = (failure.code && !message.includes(failure.code) ? `${failure.code} ${message}` : message) || 'no answer';
  return `cannot reach the database ${displayDatabaseUrl(databaseUrl)}: ${why.replace(/\s+/g, ' ').trim()}`;
}
