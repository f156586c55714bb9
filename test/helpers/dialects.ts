// Which databases the suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set; TEST_DIALECTS narrows the list.
import type { DialectName } from '../../src/db/connect.js';

export function enabledDialects(): DialectName[] {
  const all: DialectName[] = ['sqlite'];
  if (process.env.TEST_DATABASE_URL) all.push('postgres');
  const filter = process.env.TEST_DIALECTS?.split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (!filter) return all;
  const unknown = filter.filter((d) => d !== 'sqlite' && d !== 'postgres');
  if (unknown.length) throw new Error(`TEST_DIALECTS names unknown dialects: ${unknown.join(', ')}`);
  if (filter.includes('postgres') && !process.env.TEST_DATABASE_URL) {
    throw new Error('TEST_DIALECTS asks for postgres but TEST_DATABASE_URL is not set');
  }
  return all.filter((d) => filter.includes(d));
}
