// Builds the front-end once before the suite (the same function `npm run build` runs), so the portal pages and the SDK
// exist. Finds PostgreSQL when TEST_DATABASE_URL is unset, names this run's test databases for its workers, and drops
// any of them still there at its end.
import pg from 'pg';
import { buildWeb } from '../../src/modules/portal/build.js';
import { dropTestDatabases, testDatabasePrefix } from './database.js';

/** Where a developer's machine (and CI's) has PostgreSQL: trust auth, user postgres, database test. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Every run covers both databases when it can: without TEST_DATABASE_URL, the local PostgreSQL is used when it
 * answers, and the run says so in its first line either way. TEST_DIALECTS=sqlite keeps a run on SQLite alone.
 */
async function choosePostgres(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const only = process.env.TEST_DIALECTS?.split(',').map((d) => d.trim());
  if (only && !only.includes('postgres')) return;
  if (await reachable(LOCAL_POSTGRES)) {
    process.env.TEST_DATABASE_URL = LOCAL_POSTGRES;
    console.log(`Tests run on SQLite and on PostgreSQL at ${LOCAL_POSTGRES} (TEST_DIALECTS=sqlite for SQLite alone).`);
  } else {
    console.log(
      `PostgreSQL is not reachable at ${LOCAL_POSTGRES}: this run covers SQLite only (set TEST_DATABASE_URL to test PostgreSQL).`,
    );
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  // The workers are forked from this process after this runs, and inherit its environment.
  process.env.GP_TEST_RUN = String(process.pid);
  await choosePostgres();
  await buildWeb();
  return async () => {
    const admin = process.env.TEST_DATABASE_URL;
    if (!admin) return;
    const left = await dropTestDatabases(admin, testDatabasePrefix(String(process.pid)));
    if (left.length) console.warn(`dropped ${left.length} test database(s) the run left: ${left.join(', ')}`);
  };
}
