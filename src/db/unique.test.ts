// The constraint violations services and the error handler recognise, as each database reports them.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { foreignKeyViolation, uniqueViolation } from './unique.js';

describe('db: constraint violations', () => {
  const sqlite = () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(
      'create table p (id integer primary key, name text unique); create table c (p_id integer references p (id))',
    );
    return db;
  };
  const errorOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error('no error');
  };

  it('tells a foreign-key violation on SQLite and PostgreSQL from anything else', () => {
    const db = sqlite();
    expect(foreignKeyViolation(errorOf(() => db.exec('insert into c values (7)')))).toBe(true);
    db.exec("insert into p values (1, 'a')");
    const unique = errorOf(() => db.exec("insert into p values (2, 'a')"));
    expect(foreignKeyViolation(unique)).toBe(false);
    expect(uniqueViolation(unique)).toBe('name');
    expect(
      foreignKeyViolation({ code: '23503', detail: 'Key (player_id)=(5) is not present in table "players".' }),
    ).toBe(true);
    expect(foreignKeyViolation(new Error('other'))).toBe(false);
    expect(foreignKeyViolation(undefined)).toBe(false);
  });
});
