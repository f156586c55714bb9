// The SQLite statement cache: the same SQL reuses its compiled statement, the cache stays bounded, and a schema
// change under a cached statement does not break it.
import { Sqlite } from '../../src/db/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { cacheStatements } from '../../src/db/connect.js';

describe('db: SQLite statement cache', () => {
  it('reuses the compiled statement for the same SQL text', () => {
    const db = cacheStatements(new Sqlite(':memory:'));
    expect(db.prepare('select ? as v')).toBe(db.prepare('select ? as v'));
    expect(db.prepare('select ? as v').get(3)).toEqual({ v: 3 });
    expect(db.prepare('select ? as w')).not.toBe(db.prepare('select ? as v'));
  });

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const db = cacheStatements(new Sqlite(':memory:'), 2);
    const a = db.prepare('select 1');
    db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a);
    db.prepare('select 3'); // drops "select 2", used longest ago
    expect(db.prepare('select 1')).toBe(a);
    const b = db.prepare('select 2');
    expect(db.prepare('select 2')).toBe(b);
    expect(db.prepare('select 3')).not.toBe(undefined);
  });

  it('keeps working when the schema changes under a cached statement', () => {
    const db = cacheStatements(new Sqlite(':memory:'));
    db.exec('create table t (a integer)');
    db.prepare('insert into t (a) values (?)').run(1);
    expect(db.prepare('select * from t').all()).toEqual([{ a: 1 }]);
    db.exec('alter table t add column b integer default 7');
    expect(db.prepare('select * from t').all()).toEqual([{ a: 1, b: 7 }]);
  });
});
