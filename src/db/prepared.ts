// Hot statements built and compiled once, then run with new parameters (bench/RESULTS.md): building a query with Kysely
// (operation nodes, freezing, cloning, the compiler's visitors) costs more than SQLite takes to run a primary-key
// lookup, and every heartbeat ran about seven of them.
//
// `prepared(build)` calls `build` once per dialect with placeholders in place of its arguments, compiles it, and
// from then on only swaps the placeholders in the compiled parameters for the call's arguments. The SQL text is the
// same on every call, so better-sqlite3's statement cache (connect.ts) reuses its compiled statement, and on
// PostgreSQL the text is marked PREPARED: a named prepared statement, planned once per connection.
//
// On SQLite (3.54 as better-sqlite3 13 builds it), a statement that joins (tables, or a table and jsonb_each) and
// takes bound parameters is compiled again on every run: binding a value the planner looked at expires it, and
// sqlite3_step re-prepares it. A rank cost 270 µs instead of 40, a page of a leaderboard 45 instead of 6. Such a
// statement reads its parameters from a one-row MATERIALIZED CTE instead (paramsFromOneRow): the planner then sees
// no bound value outside that CTE, and the statement stays compiled. The SQL text and the order of the parameters
// are the same on every call, so the statement cache still finds it.
//
// The rule for `build`: pass the arguments only where Kysely takes a value (a comparison, a set, an insert value, an
// `sql` interpolation); never branch on them or compute with them, since they are placeholders there. A variant of
// the SQL (a clause present or not) is another prepared statement.
import { createQueryId, type Compilable, type CompiledQuery, type DialectAdapter, type QueryResult } from 'kysely';
import { PREPARED, isPostgres, type Db, type Executor } from './connect.js';

/** Stands for the argument at `index` while the statement is built. */
class Placeholder {
  constructor(readonly index: number) {}
}

type Args = readonly unknown[];
const MAX_ARGS = 16;

export interface Prepared<A extends Args, R> {
  /** Runs the statement on `db` (a database or a transaction) with these arguments. */
  execute(db: Executor, ...args: A): Promise<QueryResult<R>>;
  /** The first row, or undefined. */
  first(db: Executor, ...args: A): Promise<R | undefined>;
}

export function prepared<A extends Args, R>(build: (db: Db, ...args: A) => Compilable<R>): Prepared<A, R> {
  const compiled = new WeakMap<DialectAdapter, CompiledQuery<R>>();
  const compile = (db: Executor): CompiledQuery<R> => {
    const placeholders = Array.from({ length: MAX_ARGS }, (_, i) => new Placeholder(i)) as unknown as A;
    const query = build(db as Db, ...placeholders).compile();
    if (isPostgres(db)) return { ...query, sql: `${query.sql} ${PREPARED}` };
    return JOINS.test(query.sql) ? { ...query, sql: paramsFromOneRow(query.sql, query.parameters.length) } : query;
  };
  const execute = (db: Executor, ...args: A): Promise<QueryResult<R>> => {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) compiled.set(adapter, (query = compile(db)));
    const parameters = query.parameters.map((value) => (value instanceof Placeholder ? args[value.index] : value));
    return db.executeQuery<R>({ query: query.query, sql: query.sql, parameters, queryId: createQueryId() });
  };
  return {
    execute,
    first: async (db, ...args) => (await execute(db, ...args)).rows[0],
  };
}

/** A read that joins or reads json_each or jsonb_each: the SQLite statements that re-prepare when their parameters are bound. */
const JOINS = /^\s*(with|select)\b[\s\S]*\b(join|jsonb?_each)\b/i;

/**
 * The statement with each `?` replaced by a column of `prepared_args`, a one-row MATERIALIZED CTE that takes the
 * parameters in the order they appeared (so they bind as before). Unchanged when the count of `?` is not the
 * count of parameters (a `?` inside a literal).
 */
export function paramsFromOneRow(text: string, count: number): string {
  let n = 0;
  const body = text.replace(/\?/g, () => `(select p${++n} from prepared_args)`);
  if (n === 0 || n !== count) return text;
  const args = `prepared_args as materialized (select ${Array.from({ length: n }, (_, i) => `? as p${i + 1}`).join(', ')})`;
  const withClause = /^\s*with(\s+recursive)?\s/i.exec(body);
  return withClause
    ? `with${withClause[1] ?? ''} ${args}, ${body.slice(withClause[0].length)}`
    : `with ${args} ${body}`;
}
