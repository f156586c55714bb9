// The service's SQLite driver for Kysely: one better-sqlite3 connection, every transaction BEGIN IMMEDIATE, and a
// cache of compiled statements keyed by their SQL text.
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  IdentifierNode,
  RawNode,
  SelectQueryNode,
  createQueryId,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

const STATEMENT_CACHE_SIZE = 256;

/**
 * better-sqlite3 compiles SQL on every prepare(), and Kysely runs every query through a prepare: for a statement with
 * CTEs the compiling costs several times the running. The connection keeps the compiled statements of the most
 * recently used SQL texts (queries are parameterised, and hot statements are compiled once: db/statement.ts, so their
 * texts repeat exactly). Safe because Kysely holds the one connection for one query or stream at a time, so a cached
 * statement never runs twice at once; SQLite recompiles a cached statement itself when the schema changes.
 */
export class SqliteConnection implements DatabaseConnection {
  readonly #cache = new Map<string, SqliteDatabase.Statement>();
  constructor(
    readonly sqlite: SqliteDatabase.Database,
    private readonly cacheSize = STATEMENT_CACHE_SIZE,
  ) {}

  /** The compiled statement of this SQL text, from the cache when it is there (then the most recently used). */
  prepare(text: string): SqliteDatabase.Statement {
    let statement = this.#cache.get(text);
    if (statement) this.#cache.delete(text);
    else statement = this.sqlite.prepare(text);
    this.#cache.set(text, statement);
    if (this.#cache.size > this.cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    return statement;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(query.sql);
    if (statement.reader) return Promise.resolve({ rows: statement.all(query.parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only SELECT queries');
    for (const row of this.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }
}

const savepointCommand = (command: string, name: string) =>
  RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);

/** Hands out the one connection to one caller at a time (queued in order). */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
  }
  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/**
 * Kysely's SQLite driver with the connection above. Every transaction takes the write lock at BEGIN, so two
 * processes never deadlock upgrading a read lock.
 */
export class SqliteStatementDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #connection: SqliteConnection;
  constructor(sqlite: SqliteDatabase.Database, cacheSize?: number) {
    this.#connection = new SqliteConnection(sqlite, cacheSize);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('savepoint', name), createQueryId()));
  }
  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('rollback to', name), createQueryId()));
  }
  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await connection.executeQuery(compile(savepointCommand('release', name), createQueryId()));
  }
  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }
  async destroy(): Promise<void> {
    this.#connection.sqlite.close();
  }
}
