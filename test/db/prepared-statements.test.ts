// Hot statements (db/statement.ts) run as named prepared statements on PostgreSQL, under their names (planned once
// per connection); other queries, and SQLite, are unaffected.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { type Params, statement } from '../../src/db/statement.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';

const plusOne = statement('test.prepared.plusOne', (p: Params<{ n: number }>, db) => ({
  compile: () => sql<{ v: number }>`select cast(${p.n} as integer) + 1 as v`.compile(db),
}));

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

    it('answers a statement like any other query, with its arguments, inside a transaction too', async () => {
      for (const n of [1, 2, 3]) expect(Number((await plusOne.first(handle.db, { n }))!.v)).toBe(n + 1);
      const inside = await handle.db.transaction().execute((trx) => plusOne.first(trx, { n: 41 }));
      expect(Number(inside!.v)).toBe(42);
    });

    if (dialect === 'postgres') {
      it('keeps one prepared statement per statement on the connection, under its name, and none for other queries', async () => {
        await sql`select ${5}::int as unnamed`.execute(handle.db);
        await plusOne.first(handle.db, { n: 7 });
        await plusOne.first(handle.db, { n: 8 });
        const rows = (
          await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(
            handle.db,
          )
        ).rows;
        expect(rows.filter((r) => r.statement.includes('+ 1 as v'))).toEqual([
          { name: 'test.prepared.plusOne', statement: expect.stringContaining('select cast($1 as integer) + 1 as v') },
        ]);
        expect(rows.filter((r) => r.statement.includes('as unnamed'))).toHaveLength(0);
      });
    }
  });
}
