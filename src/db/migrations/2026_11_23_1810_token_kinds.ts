// A player token has a kind: 'web' for the portal session a cookie login or register makes (X-Requested-With:
// ServiceSDK), 'api' for every other token. Each kind has its own ten-token allowance, so signing in on the web
// never revokes an app's or a script's token (and an app's login never signs a browser out).
// Tokens made before: the portal named its sessions "Web portal (<browser>)", and the SDK login's default name was
// "portal"; those become web sessions, every other token stays an API token.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('player_tokens')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('api'))
    .execute();
  await db
    .updateTable('player_tokens')
    .set({ kind: 'web' })
    .where((eb) => eb.or([eb('name', '=', 'portal'), eb(sql`substr(name, 1, 11)`, '=', 'Web portal ')]))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('player_tokens').dropColumn('kind').execute();
}
