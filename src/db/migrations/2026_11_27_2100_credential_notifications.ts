// PostgreSQL: every change that can make a player token's credential stale sends NOTIFY gp_credentials with the
// player's id, whoever makes it (a route, the command line, an operator's own UPDATE), so that each process can drop
// the tokens it keeps in memory (modules/accounts/credential-cache.ts): a token revoked, its expiry or hash changed,
// a token or player deleted, a player's status, role or membership changed. A TRUNCATE of either table sends '*'.
// Writes of last_used_at (every minute a token is used) and of other player columns send nothing.
// A NOTIFY is delivered when its transaction commits, and only then; notifications of one player in one transaction
// are sent once. SQLite has no cache: nothing to do there.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function gp_notify_token_credentials() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform pg_notify('gp_credentials', old.player_id::text); end if;
  if tg_op = 'UPDATE' and new.player_id <> old.player_id then perform pg_notify('gp_credentials', new.player_id::text); end if;
  return null;
end $$`.execute(db);
  await sql`create function gp_notify_player_credentials() returns trigger language plpgsql as $$
begin
  perform pg_notify('gp_credentials', old.id::text);
  return null;
end $$`.execute(db);
  await sql`create function gp_notify_all_credentials() returns trigger language plpgsql as $$
begin
  perform pg_notify('gp_credentials', '*');
  return null;
end $$`.execute(db);
  await sql`create trigger player_tokens_credentials after update of token_hash, player_id, revoked_at, expires_at or delete
on player_tokens for each row execute function gp_notify_token_credentials()`.execute(db);
  await sql`create trigger players_credentials after update of status, role, membership_plan, membership_status, membership_renews_at, membership_ends_at or delete
on players for each row execute function gp_notify_player_credentials()`.execute(db);
  await sql`create trigger player_tokens_credentials_truncate after truncate on player_tokens for each statement execute function gp_notify_all_credentials()`.execute(
    db,
  );
  await sql`create trigger players_credentials_truncate after truncate on players for each statement execute function gp_notify_all_credentials()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger players_credentials_truncate on players`.execute(db);
  await sql`drop trigger player_tokens_credentials_truncate on player_tokens`.execute(db);
  await sql`drop trigger players_credentials on players`.execute(db);
  await sql`drop trigger player_tokens_credentials on player_tokens`.execute(db);
  await sql`drop function gp_notify_all_credentials()`.execute(db);
  await sql`drop function gp_notify_player_credentials()`.execute(db);
  await sql`drop function gp_notify_token_credentials()`.execute(db);
}
