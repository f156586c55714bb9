// SQLite statements that join read their parameters from a one-row CTE (prepared.ts): same rows, same binding order.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { paramsFromOneRow } from './prepared.js';

describe('paramsFromOneRow', () => {
  it('moves every ? into a one-row MATERIALIZED CTE, in order, in front of a SELECT or into a WITH', () => {
    expect(paramsFromOneRow('select a from t join u on u.id = t.u where t.x = ? and u.y > ?', 2)).toBe(
      'with prepared_args as materialized (select ? as p1, ? as p2) select a from t join u on u.id = t.u where t.x = (select p1 from prepared_args) and u.y > (select p2 from prepared_args)',
    );
    expect(
      paramsFromOneRow(
        '\n  with q as (select * from json_each(?)) select * from q join t on t.id = q.value limit ?',
        2,
      ),
    ).toBe(
      'with prepared_args as materialized (select ? as p1, ? as p2), q as (select * from json_each((select p1 from prepared_args))) select * from q join t on t.id = q.value limit (select p2 from prepared_args)',
    );
    expect(
      paramsFromOneRow(
        'with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) select i from n',
        1,
      ),
    ).toBe(
      'with recursive prepared_args as materialized (select ? as p1), n(i) as (select 1 union all select i + 1 from n where i < (select p1 from prepared_args)) select i from n',
    );
  });

  it('leaves a statement without parameters, or with a ? that is not one, as it is', () => {
    expect(paramsFromOneRow('select 1 from t join u on u.id = t.u', 0)).toBe('select 1 from t join u on u.id = t.u');
    expect(paramsFromOneRow("select '?' from t join u on u.id = t.u where t.x = ?", 1)).toBe(
      "select '?' from t join u on u.id = t.u where t.x = ?",
    );
  });

  it('gives the same rows as the statement with bound parameters, row values and LIMIT included', () => {
    const db = new Database(':memory:');
    db.exec(`create table t (id integer primary key, u integer, x integer, y integer);
      create table u (id integer primary key, name text);
      create index t_uxy on t (u, x, y);`);
    for (let i = 1; i <= 50; i++) db.prepare('insert into u values (?, ?)').run(i, `u${i}`);
    for (let i = 1; i <= 500; i++) db.prepare('insert into t values (?, ?, ?, ?)').run(i, 1 + (i % 50), i % 7, i);
    const text =
      'select t.id, u.name from t join u on u.id = t.u where t.u = ? and (t.x, t.y) > (?, ?) order by t.x, t.y limit ?';
    const args = [3, 2, 100, 3];
    const rewritten = paramsFromOneRow(text, args.length);
    expect(rewritten).not.toBe(text);
    expect(db.prepare(rewritten).all(...args)).toEqual(db.prepare(text).all(...args));
    expect(db.prepare(rewritten).all(...args)).toHaveLength(3);
    // still a keyset range on the index, in its order (no sort)
    const plan = (db.prepare(`explain query plan ${rewritten}`).all(...args) as Array<{ detail: string }>).map(
      (r) => r.detail,
    );
    expect(plan).toContainEqual(
      expect.stringMatching(/^SEARCH t USING (COVERING )?INDEX t_uxy \(u=\? AND \(x,y\)>\(\?,\?\)\)$/),
    );
    expect(plan.filter((line) => line.includes('TEMP B-TREE'))).toEqual([]);
  });
});
