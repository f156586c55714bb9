// SQL fragments shared by statements compiled once (db/statement.ts): typed integer parameters, raw statements, JSON rows.
import { type Compilable, type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from './connect.js';
import type { ValueOrParam } from './statement.js';

/**
 * A number in a VALUES list or a row value: PostgreSQL needs the type written out, SQLite must not have it (a CAST
 * gives the value an affinity that keeps SQLite from using a row-value range on an index).
 */
export function int(db: Executor, value: ValueOrParam<number>): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`cast(${value} as bigint)` : sql<number>`${value}`;
}

/** A raw statement as db/statement.ts takes it (a RawBuilder compiles only given its executor). */
export const compilable = <R>(db: Executor, query: RawBuilder<R>): Compilable<R> => ({
  compile: () => query.compile(db),
});

/**
 * The rows of a JSON array of arrays of integers as a table with these columns, for a statement whose SQL text must
 * not depend on how many rows it gets (so it is compiled once, db/statement.ts): jsonb_each on SQLite, jsonb on
 * PostgreSQL. `ord` is the row's 0-based position. On SQLite `->>` gives an INTEGER with no affinity, so the values
 * still drive row-value ranges on indexes (see int()). SQLite's jsonb_each parses the text once into its binary
 * form, and each `->>` then reads a binary element: with json_each, every `->>` parsed its element's text again, and
 * that took most of a rank's time (a path of 17 levels, 7 columns: 57 → 39 µs a rank; 144 ranges of nodes 285 →
 * 172 µs).
 */
export function jsonRows(db: Executor, json: ValueOrParam<string>, columns: string[]): RawBuilder<unknown> {
  if (isPostgres(db)) {
    const cols = columns.map((c, i) => `cast(j.e ->> ${i} as bigint) as ${c}`).join(', ');
    return sql`select ${sql.raw(cols)}, j.ord - 1 as ord from jsonb_array_elements(cast(${json} as jsonb)) with ordinality as j(e, ord)`;
  }
  const cols = columns.map((c, i) => `j.value ->> ${i} as ${c}`).join(', ');
  return sql`select ${sql.raw(cols)}, j.key as ord from jsonb_each(${json}) j`;
}
