// Builds the front-end once before the suite (the same function `npm run build` runs), so the portal pages and the SDK
// exist. Names this run's PostgreSQL test databases for its workers, and drops any of them still there at its end.
import { buildWeb } from '../../src/modules/portal/build.js';
import { dropTestDatabases, testDatabasePrefix } from './database.js';

export default async function setup(): Promise<() => Promise<void>> {
  // The workers are forked from this process after this runs, and inherit its environment.
  process.env.GP_TEST_RUN = String(process.pid);
  await buildWeb();
  return async () => {
    const admin = process.env.TEST_DATABASE_URL;
    if (!admin) return;
    const left = await dropTestDatabases(admin, testDatabasePrefix(String(process.pid)));
    if (left.length) console.warn(`dropped ${left.length} test database(s) the run left: ${left.join(', ')}`);
  };
}
