// Hot statements, built and compiled once per dialect and run with named arguments.
// docs/development.md, "A hot statement". Building a query with Kysely (operation nodes, freezing, cloning, the
// compiler's visitors) costs more than SQLite takes to run a primary-key lookup, and every heartbeat runs several
// (bench/RESULTS.md).
//
// `statement(name, build, options)` calls `build` once per dialect with a Param in place of each argument, compiles
// it, and from then on only puts the call's arguments where the compiled parameters hold a Param. A Param is an SQL
// expression (a Kysely Expression), not a number or a string: TypeScript refuses arithmetic on it, and turning it into
// a primitive (a template string, `+ ''`) throws. A variant of the SQL (a clause present or not) is another statement.
//
// The SQL text is the same on every call: on SQLite the connection's statement cache (sqlite-connection.ts) reuses
// its compiled statement; on PostgreSQL the client runs it as a named prepared statement, planned once per
// connection (postgres-client.ts), under the statement's name.
import {
  type Compilable,
  type CompiledQuery,
  type DialectAdapter,
  type Expression,
  type QueryResult,
  PostgresAdapter,
  ValueNode,
  createQueryId,
} from 'kysely';
import type { Db, Executor } from './connect.js';
import { registerStatement, setPostgresText } from './statement-names.js';

declare const paramType: unique symbol;

/** An argument of a statement while it is built: usable wherever Kysely takes an expression, never as a value. */
export interface Param<T> extends Expression<T> {
  readonly [paramType]: T;
}

/** The Params a statement's build receives, one per argument, e.g. `Params<{ session: number; now: number }>`. */
export type Params<A> = { readonly [K in keyof A]-?: Param<A[K]> };

/** The arguments a statement runs with, from its Params. */
export type ArgsOf<P> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

/** A number or a string where it is a value, and a Param where it is an argument: helpers shared by both take this. */
export type ValueOrParam<T> = T | Param<T>;

/** Stands for the argument `name` in a compiled statement's parameters. */
class Slot {
  constructor(readonly name: string) {}
}

class ParamExpression<T> implements Expression<T> {
  readonly #node: ValueNode;
  constructor(readonly name: string) {
    this.#node = ValueNode.create(new Slot(name));
  }
  get expressionType(): T | undefined {
    return undefined;
  }
  toOperationNode(): ValueNode {
    return this.#node;
  }
  [Symbol.toPrimitive](): never {
    throw new Error(`statement argument "${this.name}" is an SQL parameter: compute with it in SQL, not in JavaScript`);
  }
}

export interface StatementOptions {
  /**
   * SQLite: read the parameters from a one-row MATERIALIZED CTE (paramsFromOneRow). For a read that joins (tables,
   * or a table and jsonb_each) and takes bound parameters: SQLite 3.54 compiles such a statement again on every run
   * (binding a value the planner looked at expires it); reading them from the CTE keeps it compiled.
   */
  sqliteParamsFromOneRow?: boolean;
}

export interface Statement<A, R> {
  readonly name: string;
  /** Runs the statement on `db` (a database or a transaction) with these arguments. */
  run(db: Executor, ...args: RunArgs<A>): Promise<QueryResult<R>>;
  /** The first row, or undefined. */
  first(db: Executor, ...args: RunArgs<A>): Promise<R | undefined>;
}

type RunArgs<A> = keyof A extends never ? [args?: A] : [args: A];

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** per compiled parameter: the argument it takes, or undefined for a constant */
  slots: ReadonlyArray<string | undefined>;
  names: ReadonlySet<string>;
}

/**
 * A hot statement named `name` (unique: a second statement of that name throws). `build` gets the statement's
 * arguments as Params, and the database to build with: annotate its first parameter, e.g.
 * `(p: Params<{ session: number }>, db) => db.selectFrom(...).where('id', '=', p.session)`.
 */
export function statement<P extends Params<any> = Params<Record<never, never>>, R = unknown>(
  name: string,
  build: (p: P, db: Db) => Compilable<R>,
  options: StatementOptions = {},
): Statement<ArgsOf<P>, R> {
  registerStatement(name);
  const compiled = new WeakMap<DialectAdapter, Compiled<R>>();

  const compile = (db: Executor): Compiled<R> => {
    const params = new Map<string, ParamExpression<unknown>>();
    const p = new Proxy({} as P, {
      get: (_target, key) => {
        if (typeof key !== 'string') return undefined;
        let param = params.get(key);
        if (!param) params.set(key, (param = new ParamExpression(key)));
        return param;
      },
    });
    let query = build(p, db as Db).compile();
    const slots = query.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
    const names = new Set(slots.filter((s) => s !== undefined));
    for (const key of params.keys()) {
      if (!names.has(key))
        throw new Error(
          `statement "${name}": argument "${key}" is read but not in the SQL (never branch on an argument)`,
        );
    }
    const adapter = db.getExecutor().adapter;
    if (adapter instanceof PostgresAdapter) setPostgresText(name, query.sql);
    else if (options.sqliteParamsFromOneRow) query = { ...query, sql: paramsFromOneRow(query.sql, slots.length) };
    return { query, slots, names };
  };

  const run = (db: Executor, args: Record<string, unknown> = {}): Promise<QueryResult<R>> => {
    const adapter = db.getExecutor().adapter;
    let c = compiled.get(adapter);
    if (!c) compiled.set(adapter, (c = compile(db)));
    for (const key in args) {
      if (!c.names.has(key)) throw new Error(`statement "${name}" has no argument "${key}"`);
    }
    const { query, slots } = c;
    const parameters = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (slot === undefined) parameters[i] = query.parameters[i];
      else if ((parameters[i] = args[slot]) === undefined)
        throw new Error(`statement "${name}" is missing its argument "${slot}"`);
    }
    return db.executeQuery<R>({ query: query.query, sql: query.sql, parameters, queryId: createQueryId() });
  };

  return {
    name,
    run: (db, ...args) => run(db, args[0] as Record<string, unknown> | undefined),
    first: async (db, ...args) => (await run(db, args[0] as Record<string, unknown> | undefined)).rows[0],
  };
}

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
