// Statements marked PREPARED run as named prepared statements on PostgreSQL (planned once per connection); others
// and SQLite are unaffected.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED, openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';

for (const dialect of enabledDialects()) {
  describe(`db: prepared statements [${dialect}]`, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    beforeAll(async () => {
      testDb = await createTestDatabase(dialect);
      handle = openDatabase(testDb.url, { poolSize: 1 });
    });
    afterAll(async () => {
      await handle.destroy();
      await testDb.drop();
    });

    it('answers a marked statement like any other, with its parameters', async () => {
      for (const n of [1, 2, 3]) {
        const rows = (await sql<{ v: number }>`${sql.raw(PREPARED)} select ${n} + 1 as v`.execute(handle.db)).rows;
        expect(Number(rows[0]!.v)).toBe(n + 1);
      }
    });

    if (dialect === 'postgres') {
      it('keeps one named statement per marked text on the connection, and none for unmarked ones', async () => {
        await sql`select ${5}::int as unmarked`.execute(handle.db);
        await sql`${sql.raw(PREPARED)} select ${7}::int as marked`.execute(handle.db);
        await sql`${sql.raw(PREPARED)} select ${8}::int as marked`.execute(handle.db);
        const rows = (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db))
          .rows;
        expect(rows.filter((r) => r.statement.includes('as marked'))).toHaveLength(1);
        expect(rows.filter((r) => r.statement.includes('as unmarked'))).toHaveLength(0);
      });
    }
  });
}
