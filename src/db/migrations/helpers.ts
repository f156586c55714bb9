// Small helpers that keep migrations identical on SQLite and PostgreSQL.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/** An integer primary key that the database numbers: identity on PostgreSQL, AUTOINCREMENT (never reused) on SQLite. */
export function withId<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  const pg = isPostgres(db);
  return table.addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
    pg ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
  );
}
