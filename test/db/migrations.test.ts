// Every migration applies and reverts on both databases, and applies again after reverting.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateAllDown, migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';

for (const dialect of enabledDialects()) {
  describe(`db: migrations [${dialect}]`, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    beforeAll(async () => {
      testDb = await createTestDatabase(dialect);
      handle = openDatabase(testDb.url);
    });
    afterAll(async () => {
      await handle.destroy();
      await testDb.drop();
    });

    const tables = async () => (await handle.db.introspection.getTables()).map((t) => t.name).sort();

    it('applies every migration, reverts them all, and applies them again', async () => {
      const up = await migrateToLatest(handle.db);
      expect(up).toHaveLength(Object.keys(migrations).length);
      expect(await tables()).toEqual(expect.arrayContaining(['players', 'player_tokens', 'games', 'developer_keys']));
      const down = await migrateAllDown(handle.db);
      expect(down).toHaveLength(Object.keys(migrations).length);
      expect(await tables()).toEqual([]);
      await migrateToLatest(handle.db);
      expect(await migrateToLatest(handle.db)).toEqual([]);
    });

    if (dialect === 'sqlite') {
      it('runs SQLite in WAL mode with foreign keys on, a busy timeout and a 32 MB page cache', async () => {
        const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
        expect(mode.rows[0]?.journal_mode).toBe('wal');
        const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db);
        expect(fk.rows[0]?.foreign_keys).toBe(1);
        const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(handle.db);
        expect(busy.rows[0]?.timeout).toBeGreaterThan(0);
        const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db);
        expect(cache.rows[0]?.cache_size).toBe(-32 * 1024); // KiB (SQLite's default: -2000)
      });

      it('takes the write lock when a transaction begins', async () => {
        // A second connection cannot begin a write while our transaction is open: BEGIN IMMEDIATE took the lock.
        const { Sqlite } = await import('../../src/db/sqlite-driver.js');
        await handle.db.transaction().execute(async () => {
          const other = new Sqlite(testDb.url, { timeout: 1 });
          try {
            expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i);
          } finally {
            other.close();
          }
        });
      });
    }

    it('enforces foreign keys', async () => {
      await expect(
        handle.db
          .insertInto('player_tokens')
          .values({ player_id: 999_999, name: 'x', token_hash: 'h', prefix: 'p', created_at: 1, expires_at: 2 })
          .execute(),
      ).rejects.toThrow();
    });
  });
}
