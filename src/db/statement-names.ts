// The registry of hot statements' names (statement.ts), and the PostgreSQL SQL text each one compiled to: the
// request pool's client (postgres-client.ts) runs those texts as named prepared statements.

const names = new Set<string>();
const postgresNames = new Map<string, string>();

/** Takes `name` for a statement: names are unique, a second statement of the same name throws. */
export function registerStatement(name: string): void {
  if (names.has(name)) throw new Error(`statement "${name}" is defined twice`);
  names.add(name);
}

/** Records the PostgreSQL SQL text the statement `name` compiled to. */
export function setPostgresText(name: string, text: string): void {
  postgresNames.set(text, name);
}

/** The name under which PostgreSQL prepares this SQL text, when a statement compiled to it. */
export function preparedStatementName(text: string): string | undefined {
  return postgresNames.get(text);
}
