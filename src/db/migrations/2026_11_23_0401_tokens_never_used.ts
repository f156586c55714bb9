// A player token's last_used_at is null until its first call (it used to start at created_at, so a token used seconds
// after it was issued looked unused and a never-used one looked used). Tokens never touched since they were issued
// are marked never used, so that they make room first when a login finds ten active.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('player_tokens')
    .set({ last_used_at: null })
    .where('last_used_at', '=', sql.ref('created_at'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('player_tokens')
    .set({ last_used_at: sql.ref('created_at') })
    .where('last_used_at', 'is', null)
    .execute();
}
