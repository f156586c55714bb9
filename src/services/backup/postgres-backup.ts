// PostgreSQL's side of a backup: one REPEATABLE READ transaction exports its snapshot, the references are read in it
// and pg_dump dumps exactly that snapshot (--snapshot); a restore empties the schema and loads the dump through psql
// in one transaction, so it is all or nothing.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema.js';
import { checkToolVersion, finished, libpqConnection, runTool, startTool } from './pg-tools.js';
import type { Snapshot } from './snapshot.js';

export const POSTGRES_FILE = 'database.dump';

/** Kysely over one client (the snapshot's transaction): the "pool" hands out that client and never closes it. */
function overClient(client: pg.Client): Kysely<Database> {
  const pool = {
    connect: async () => Object.assign(client, { release: () => undefined }),
    end: async () => undefined,
  };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }) });
}

export async function postgresSnapshot(url: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url, application_name: 'gameplatform backup' });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    // The snapshot is taken by the transaction's first statement: this one.
    const startedAt = Date.now();
    const { rows } = await client.query<{ snapshot: string; schema: string; version: number }>(
      "select pg_export_snapshot() as snapshot, current_schema() as schema, current_setting('server_version_num')::int as version",
    );
    const { snapshot, schema, version } = rows[0]!;
    await checkToolVersion('pg_dump', version);
    const db = overClient(client);
    return {
      startedAt,
      db,
      schema,
      databaseFile: POSTGRES_FILE,
      async dump(dir) {
        const { dbname, env } = libpqConnection(url);
        await runTool(
          'pg_dump',
          [
            '--format=custom',
            `--snapshot=${snapshot}`,
            `--schema=${schema}`,
            `--file=${path.join(dir, POSTGRES_FILE)}`,
            `--dbname=${dbname}`,
          ],
          env,
        );
      },
      async close() {
        await client.query('commit').catch(() => undefined);
        await client.end();
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** Whether the schema the connection uses holds any table. */
export async function postgresHasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_tables where schemaname = current_schema()',
    );
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

/**
 * Drops every table, sequence and function of the schema (not those of extensions), then the dump recreates them. A
 * lock held by a running service makes it wait at most lock_timeout, then the restore fails and changes nothing.
 */
function emptySchemaSql(schema: string): string {
  const name = pg.escapeLiteral(schema);
  return `set lock_timeout = '10s';
create schema if not exists ${pg.escapeIdentifier(schema)};
do $$ declare r record; begin
  for r in select tablename from pg_tables where schemaname = ${name} loop
    execute format('drop table if exists %I.%I cascade', ${name}, r.tablename);
  end loop;
  for r in select sequence_name from information_schema.sequences where sequence_schema = ${name} loop
    execute format('drop sequence if exists %I.%I cascade', ${name}, r.sequence_name);
  end loop;
  for r in select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = ${name} and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') loop
    execute format('drop function if exists %s cascade', r.fn);
  end loop;
end $$;`;
}

/** The dump's table of contents without its schema entries (the schema exists; the dump's objects go into it). */
async function restoreList(dump: string, dir: string): Promise<string> {
  const toc = await runTool('pg_restore', ['--list', dump]);
  const kept = toc.split('\n').filter((line) => !/^\d+; \d+ \d+ (SCHEMA|COMMENT) - (SCHEMA )?/.test(line));
  const file = path.join(dir, 'restore.list');
  await writeFile(file, kept.join('\n'));
  return file;
}

/** Replaces the schema's contents with the dump, in one transaction (pg_restore's SQL piped into psql). */
export async function restorePostgres(url: string, dump: string, schema: string, dir: string): Promise<void> {
  const list = await restoreList(dump, dir);
  const { dbname, env } = libpqConnection(url);
  const restore = startTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', `--use-list=${list}`, '--file=-', dump],
    env,
  );
  const psql = startTool(
    'psql',
    [
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '--single-transaction',
      '-c',
      emptySchemaSql(schema),
      '-f',
      '-',
      `--dbname=${dbname}`,
    ],
    env,
  );
  // psql stopping at an error closes its input: pg_restore's rest is dropped, and both exits say what happened.
  psql.stdin!.on('error', () => undefined);
  restore.stdout!.pipe(psql.stdin!);
  restore.stdin?.end();
  // psql's own output (the -q run prints nothing but errors) and pg_restore's exit both count.
  await Promise.all([finished(restore, 'pg_restore', { collect: false }), finished(psql, 'psql')]);
}
