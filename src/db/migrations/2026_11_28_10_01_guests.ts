// Guest players: a player row marked `guest`, with no email and no password (both become nullable), an index for
// the purge of idle guests, and the count of guests each address made per day (the cap guests.per_ip_per_day).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('players')
    .addColumn('guest', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    await sql`alter table players alter column email drop not null, alter column password_hash drop not null`.execute(
      db,
    );
  } else {
    await rebuildSqlitePlayers(db, (create) =>
      create.replace(/("email" text) not null/, '$1').replace(/("password_hash" text) not null/, '$1'),
    );
  }
  // The purge of idle guests reads the guests oldest first; accounts are not in this index at all.
  await db.schema
    .createIndex('players_guest_idx')
    .on('players')
    .column('created_at')
    .where(sql.ref('guest'), '=', sql.lit(1))
    .execute();
  // New guests per address (a keyed hash, never the address) per day in reset_timezone; old days are swept.
  await db.schema
    .createTable('guest_quotas')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('guest_quotas_pk', ['address', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const guests = await sql<{ n: number | string }>`select count(*) as n from players where guest = 1`.execute(db);
  if (Number(guests.rows[0]?.n ?? 0) > 0)
    throw new Error(
      'Guest players exist: purge them first (gameplatform players purge-guests --idle-days 0), then revert this migration',
    );
  await db.schema.dropTable('guest_quotas').execute();
  await db.schema.dropIndex('players_guest_idx').execute();
  if (isPostgres(db)) {
    await sql`alter table players alter column email set not null, alter column password_hash set not null`.execute(db);
  } else {
    await rebuildSqlitePlayers(db, (create) =>
      create.replace(/("email" text)( unique)/, '$1 not null$2').replace(/("password_hash" text)(,)/, '$1 not null$2'),
    );
  }
  await db.schema.alterTable('players').dropColumn('guest').execute();
}

/**
 * SQLite changes a column's NOT NULL only by rebuilding the table (sqlite.org/lang_altertable.html, "other kinds of
 * table schema changes"): the new table is made from the CREATE statement as it stands (with whatever columns other
 * migrations added), edited by `edit`; the rows are copied; the old table is dropped and the new one renamed; its
 * indexes and triggers are made again. Foreign keys are off meanwhile (the tables referencing players keep referring
 * to it by name) and checked before the commit.
 */
async function rebuildSqlitePlayers(db: Kysely<any>, edit: (create: string) => string): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'players'`.execute(db);
  const table = schema.rows.find((r) => r.type === 'table')!;
  const create = edit(table.sql!);
  if (create === table.sql) throw new Error('players: the CREATE statement did not change');
  const others = schema.rows.filter((r) => r.type !== 'table' && r.sql !== null).map((r) => r.sql!);
  const rebuild = async (trx: Kysely<any>) => {
    await sql.raw(create.replace(/^CREATE TABLE "players"/, 'CREATE TABLE "players_rebuilt"')).execute(trx);
    await sql`insert into players_rebuilt select * from players`.execute(trx);
    await sql`drop table players`.execute(trx);
    await sql`alter table players_rebuilt rename to players`.execute(trx);
    for (const statement of others) await sql.raw(statement).execute(trx);
    const broken = await sql`pragma foreign_key_check`.execute(trx);
    if (broken.rows.length) throw new Error('players: the rebuild broke a foreign key');
  };
  // Inside a caller's transaction (`migrate --dry-run`, rolled back) foreign_keys cannot be switched: their checks
  // wait for the commit instead, which never comes.
  if (db.isTransaction) {
    await sql`pragma defer_foreign_keys = on`.execute(db);
    await rebuild(db);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(rebuild);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
