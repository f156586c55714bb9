// Hot statements (statement.ts): compiled once per dialect, run with named arguments that are checked at each call;
// Params are SQL expressions that neither TypeScript nor JavaScript lets a build compute with.
import BetterSqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, type DatabaseHandle, openDatabase } from './connect.js';
import type { Database } from './schema.js';
import { Sqlite } from './sqlite-driver.js';
import { type Param, type Params, paramsFromOneRow, statement } from './statement.js';

let serial = 0;
/** A name no other statement of this test file has. */
const unique = (label: string) => `test.${label}.${++serial}`;

describe('statement', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = openDatabase(':memory:');
    await sql`create table t (id integer primary key, name text not null, n integer not null)`.execute(handle.db);
    await sql`insert into t (id, name, n) values (1, 'one', 10), (2, 'two', 20), (3, 'three', 30)`.execute(handle.db);
  });
  afterAll(() => handle.destroy());

  const byId = statement(unique('byId'), (p: Params<{ id: number; above: number }>, db) =>
    db
      .selectFrom(sql<{ id: number; name: string; n: number }>`t`.as('t'))
      .selectAll()
      .where('t.id', '=', p.id)
      .where('t.n', '>', p.above),
  );

  it('runs with named arguments, in any order, again and again', async () => {
    expect(await byId.first(handle.db, { id: 2, above: 0 })).toEqual({ id: 2, name: 'two', n: 20 });
    expect(await byId.first(handle.db, { above: 25, id: 3 })).toEqual({ id: 3, name: 'three', n: 30 });
    expect(await byId.first(handle.db, { id: 3, above: 30 })).toBeUndefined();
    expect((await byId.run(handle.db, { id: 1, above: 5 })).rows).toEqual([{ id: 1, name: 'one', n: 10 }]);
  });

  it('uses one argument in several places, next to constants of the build', async () => {
    const twice = statement(unique('twice'), (p: Params<{ n: number }>) => ({
      compile: () =>
        sql<{ a: number; b: number; c: string }>`select ${p.n} + 1 as a, ${p.n} * ${3} as b, ${'x'} as c`.compile(
          handle.db,
        ),
    }));
    expect(await twice.first(handle.db, { n: 4 })).toEqual({ a: 5, b: 12, c: 'x' });
    expect(await twice.first(handle.db, { n: 7 })).toEqual({ a: 8, b: 21, c: 'x' });
  });

  it('takes no arguments when it has none', async () => {
    const count = statement(unique('count'), (_p, db) =>
      db.selectFrom(sql<{ id: number }>`t`.as('t')).select((eb) => eb.fn.countAll<number>().as('n')),
    );
    expect(await count.first(handle.db)).toEqual({ n: 3 });
  });

  it('throws at the call on a missing or an unknown argument', async () => {
    const partial = { id: 1 } as unknown as { id: number; above: number };
    expect(() => byId.run(handle.db, partial)).toThrow('statement "test.byId.1" is missing its argument "above"');
    const undefinedOne = { id: 1, above: undefined } as unknown as { id: number; above: number };
    expect(() => byId.run(handle.db, undefinedOne)).toThrow('is missing its argument "above"');
    const extra = { id: 1, above: 0, below: 9 } as { id: number; above: number };
    expect(() => byId.run(handle.db, extra)).toThrow('statement "test.byId.1" has no argument "below"');
    // null is a value (SQL NULL), not a missing argument
    expect(await byId.first(handle.db, { id: 1, above: null as unknown as number })).toBeUndefined();
  });

  it('refuses a second statement of the same name', () => {
    const name = unique('twin');
    statement(name, (_p, db) => db.selectFrom(sql<{ id: number }>`t`.as('t')).select('id'));
    expect(() => statement(name, (_p, db) => db.selectFrom(sql<{ id: number }>`t`.as('t')).select('id'))).toThrow(
      `statement "${name}" is defined twice`,
    );
  });

  it('throws when the build turns a Param into a value, or reads one it leaves out of the SQL', async () => {
    const concatenated = statement(unique('concat'), (p: Params<{ name: string }>, db) =>
      db.selectFrom(sql<{ name: string }>`t`.as('t')).select('name').where('name', '=', `${p.name}`),
    );
    await expect(async () => concatenated.run(handle.db, { name: 'one' })).rejects.toThrow(
      'statement argument "name" is an SQL parameter',
    );
    const branched = statement(unique('branch'), (p: Params<{ id: number; all: boolean }>, db) => {
      const query = db.selectFrom(sql<{ id: number }>`t`.as('t')).select('id');
      return p.all ? query : query.where('id', '=', p.id);
    });
    await expect(async () => branched.run(handle.db, { id: 1, all: true })).rejects.toThrow(
      'argument "all" is read but not in the SQL',
    );
  });

  it('is typed: arguments by name and type, and no arithmetic on a Param', () => {
    statement(unique('types'), (p: Params<{ id: number; name: string }>, db) => {
      // @ts-expect-error a Param is an SQL expression, not a number
      const next = p.id + 1;
      // @ts-expect-error nor a value a JavaScript function takes
      Math.max(p.id, 2);
      // @ts-expect-error a Param of a number is not a Param of a string
      const name: Param<string> = p.id;
      void name;
      void next;
      return db.selectFrom(sql<{ id: number; name: string }>`t`.as('t')).selectAll().where('id', '=', p.id);
    });
    const typed = statement(unique('typedArgs'), (p: Params<{ id: number }>, db) =>
      db.selectFrom(sql<{ id: number }>`t`.as('t')).select('id').where('id', '=', p.id),
    );
    // the calls are not run: only their types are checked
    const calls = [
      // @ts-expect-error an argument missing
      () => typed.run(handle.db, {}),
      // @ts-expect-error an argument of another type
      () => typed.run(handle.db, { id: 'one' }),
      // @ts-expect-error an argument the statement does not have
      () => typed.run(handle.db, { id: 1, other: 2 }),
    ];
    expect(calls).toHaveLength(3);
  });

  it('reads its parameters from a one-row CTE on SQLite when it says so, with the same rows', async () => {
    const seen: string[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new Sqlite(':memory:') }),
      log: (event) => void seen.push(event.query.sql),
    });
    try {
      await sql`create table t (id integer primary key, n integer not null)`.execute(db);
      await sql`insert into t (id, n) values (1, 10), (2, 20)`.execute(db);
      const build = (p: Params<{ n: number }>, db: Db) =>
        db
          .selectFrom(sql<{ id: number; n: number }>`t`.as('a'))
          .innerJoin(sql<{ id: number; n: number }>`t`.as('b'), 'b.id', 'a.id')
          .select('a.id')
          .where('b.n', '>', p.n);
      const plain = statement(unique('plain'), build);
      const oneRow = statement(unique('oneRow'), build, { sqliteParamsFromOneRow: true });
      seen.length = 0;
      expect((await plain.run(db, { n: 15 })).rows).toEqual([{ id: 2 }]);
      expect((await oneRow.run(db, { n: 15 })).rows).toEqual([{ id: 2 }]);
      expect(seen[1]).toBe(paramsFromOneRow(seen[0]!, 1));
      expect(seen[1]).toContain('prepared_args');
    } finally {
      await db.destroy();
    }
  });
});

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
    const db = new BetterSqlite(':memory:');
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
