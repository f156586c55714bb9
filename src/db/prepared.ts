// Hot statements built and compiled once, then run with new parameters (issue 14): building a query with Kysely
// (operation nodes, freezing, cloning, the compiler's visitors) costs more than SQLite takes to run a primary-key
// lookup, and every heartbeat ran about seven of them.
//
// `prepared(build)` calls `build` once per dialect with placeholders in place of its arguments, compiles it, and
// from then on only swaps the placeholders in the compiled parameters for the call's arguments. The SQL text is the
// same on every call, so better-sqlite3's statement cache (connect.ts) reuses its compiled statement, and on
// PostgreSQL the text is marked PREPARED: a named prepared statement, planned once per connection.
//
// On SQLite (3.54 as better-sqlite3 13 builds it), a statement whose FROM joins tables and which takes a bound
// parameter is compiled again on every run (sqlite3_step re-prepares it: binding a value the planner looked at
// expires the statement): a token lookup joined to its player cost 37 µs instead of 9, a heartbeat's session read
// 70 instead of 12. A single table with parameters, correlated scalar subqueries, and a join whose parameters all sit
// in a MATERIALIZED CTE are not affected; hot statements that join are written that way (tokens, sessions).
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
    return isPostgres(db) ? { ...query, sql: `${query.sql} ${PREPARED}` } : query;
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
