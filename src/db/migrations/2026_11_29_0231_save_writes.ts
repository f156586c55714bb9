// The save writes a studio's numbers count (docs/api.md, "Studio console: numbers, moderation, audit log"):
// save_states keeps a slot's latest state only, so a trigger notes each slot written (with a state) per quarter hour,
// once however often it is written in that quarter. Day windows of any time zone start on a quarter hour, so a day's
// distinct slots written are exact. The trigger is in the database, so every way a slot is written (the API, /dev,
// a guest's merge) is counted without a statement of its own.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

const QUARTER_MS = 900_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('save_writes')
    .addColumn('game_id', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('quarter', 'bigint', (c) => c.notNull())
    .addColumn('player_id', 'integer', (c) => c.notNull().references('players.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('save_writes_pk', ['game_id', 'quarter', 'player_id', 'slot'])
    .execute();
  // A purged player's rows (the cascade).
  await db.schema.createIndex('save_writes_player_idx').on('save_writes').column('player_id').execute();
  const values = `(game_id, quarter, player_id, slot) values (new.game_id, new.updated_at / ${QUARTER_MS}, new.player_id, new.slot)`;
  if (isPostgres(db)) {
    await sql
      .raw(`create function save_states_written() returns trigger language plpgsql as $$
begin
  if new.state is not null then
    insert into save_writes ${values} on conflict do nothing;
  end if;
  return null;
end $$`)
      .execute(db);
    await sql`create trigger save_states_written after insert or update of updated_at on save_states
      for each row execute function save_states_written()`.execute(db);
  } else {
    // Not `insert or ignore`: the conflict policy of the statement that fires a trigger overrides the trigger's own
    // (an upsert into save_states would then fail on a quarter noted already).
    for (const [name, event] of [
      ['insert', 'insert'],
      ['update', 'update of updated_at'],
    ])
      await sql
        .raw(`create trigger save_states_written_${name} after ${event} on save_states
          when new.state is not null and not exists (select 1 from save_writes where game_id = new.game_id
            and quarter = new.updated_at / ${QUARTER_MS} and player_id = new.player_id and slot = new.slot)
          begin insert into save_writes ${values}; end`)
        .execute(db);
  }
  // The slots as they are now: their latest write.
  await sql`insert into save_writes (game_id, quarter, player_id, slot)
    select game_id, updated_at / ${sql.lit(QUARTER_MS)}, player_id, slot from save_states where state is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger save_states_written on save_states`.execute(db);
    await sql`drop function save_states_written()`.execute(db);
  } else {
    await sql`drop trigger save_states_written_insert`.execute(db);
    await sql`drop trigger save_states_written_update`.execute(db);
  }
  await db.schema.dropTable('save_writes').execute();
}
