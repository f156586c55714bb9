// Featured games (docs/api.md, "Catalogue decisions"): an operator features a game on the home page; null: not featured.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').addColumn('featured_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('games').dropColumn('featured_at').execute();
}
