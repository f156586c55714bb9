// The pg client of the request pool: runs the SQL text of a hot statement (db/statement.ts) as a named prepared
// statement, so PostgreSQL parses and plans it once per connection instead of on every call (for the hot leaderboard
// reads planning costs as much as running). Any other query goes to pg as it came.
import pg from 'pg';
import { preparedStatementName } from './statement-names.js';

export class NamedStatementClient extends pg.Client {
  // Kysely's PostgreSQL connection calls query(text, values).
  override query(...args: any[]): any {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      const name = preparedStatementName(text);
      if (name !== undefined) return super.query({ name, text, values });
    }
    return (super.query as (...forwarded: unknown[]) => unknown)(...args);
  }
}
