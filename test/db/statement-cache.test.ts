// The SQLite connection's statement cache (sqlite-connection.ts): the same SQL reuses its compiled statement, the
// cache stays bounded, and a schema change under a cached statement does not break it.
import { describe, expect, it } from 'vitest';
import { SqliteConnection } from '../../src/db/sqlite-connection.js';
import { Sqlite } from '../../src/db/sqlite-driver.js';

describe('db: SQLite statement cache', () => {
  it('reuses the compiled statement for the same SQL text', () => {
    const db = new SqliteConnection(new Sqlite(':memory:'));
    expect(db.prepare('select ? as v')).toBe(db.prepare('select ? as v'));
    expect(db.prepare('select ? as v').get(3)).toEqual({ v: 3 });
    expect(db.prepare('select ? as w')).not.toBe(db.prepare('select ? as v'));
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const db = new SqliteConnection(new Sqlite(':memory:'), 2);
    const a = db.prepare('select 1');
    const two = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a);
    db.prepare('select 3'); // drops "select 2", used longest ago
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 2')).not.toBe(two);
    const b = db.prepare('select 2');
    expect(db.prepare('select 2')).toBe(b);
  });

  it('keeps working when the schema changes under a cached statement', async () => {
    const db = new SqliteConnection(new Sqlite(':memory:'));
    db.sqlite.exec('create table t (a integer)');
    await db.executeQuery({ sql: 'insert into t (a) values (?)', parameters: [1] } as never);
    const select = { sql: 'select * from t', parameters: [] } as never;
    expect((await db.executeQuery(select)).rows).toEqual([{ a: 1 }]);
    db.sqlite.exec('alter table t add column b integer default 7');
    expect((await db.executeQuery(select)).rows).toEqual([{ a: 1, b: 7 }]);
  });
});
