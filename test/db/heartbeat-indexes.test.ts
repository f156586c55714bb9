// A heartbeat writes three columns of its session; no index may hold them, or every heartbeat moves index entries
// (and on PostgreSQL is never a HOT update: it writes a new entry into every index of play_sessions, twice the WAL).
// Migration 2026_11_27_1900 took last_heartbeat_at out of the two indexes that held it.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

/** Columns a crediting heartbeat writes (play.repository.ts: claimCredit, and heartbeatInOneStatement on PostgreSQL). */
const HEARTBEAT_COLUMNS = ['last_heartbeat_at', 'credited_until', 'credited_seconds'];

eachDialect('db: indexes of play_sessions', (h) => {
  async function indexedColumns(): Promise<Map<string, string[]>> {
    const byIndex = new Map<string, string[]>();
    if (h.dialect === 'postgres') {
      const { rows } = await sql<{ index: string; columns: string[]; predicate: string | null }>`
        select i.relname as index,
               array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, ord)
                     join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum order by k.ord) as columns,
               pg_get_expr(x.indpred, x.indrelid) as predicate
        from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
        where t.relname = 'play_sessions'`.execute(h.ctx.db);
      for (const r of rows) byIndex.set(r.index, [...r.columns, ...(r.predicate ? [r.predicate] : [])]);
    } else {
      const { rows } = await sql<{
        name: string;
        sql: string | null;
      }>`select name, sql from sqlite_master where type = 'index' and tbl_name = 'play_sessions'`.execute(h.ctx.db);
      for (const r of rows) {
        const info = await sql<{ name: string }>`select name from pragma_index_info(${r.name})`.execute(h.ctx.db);
        byIndex.set(r.name, [
          ...info.rows.map((c) => c.name),
          ...(r.sql && /\swhere\s/i.test(r.sql) ? [r.sql.slice(r.sql.search(/\swhere\s/i))] : []),
        ]);
      }
    }
    return byIndex;
  }

  it('holds none of the columns a heartbeat writes, and keeps partial indexes of the open sessions for their readers', async () => {
    const indexes = await indexedColumns();
    for (const [name, columns] of indexes) {
      for (const column of HEARTBEAT_COLUMNS)
        expect(
          columns.some((c) => c.includes(column)),
          `${name} holds ${column}`,
        ).toBe(false);
    }
    expect(indexes.get('play_sessions_game_live_idx')).toEqual(['game_id', expect.stringMatching(/status.*active/)]);
    expect(indexes.get('play_sessions_one_active_idx')).toEqual([
      'player_id',
      'game_id',
      expect.stringMatching(/status.*active/),
    ]);
  });

  it('still counts, finds and closes the idle sessions through them', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const start = await h.http.post('/v1/play/start', { token, body: { game: game.slug } });
    expect(start.status).toBe(200);
    h.clock.advance(20);
    expect(
      (await h.http.post('/v1/play/heartbeat', { token, body: { session: start.body.data.session } })).status,
    ).toBe(200);
    expect((await h.http.get('/v1/status')).body.data.players_online).toBeGreaterThanOrEqual(1);
    h.clock.advance(h.config.session_idle_timeout + 1);
    const beat = await h.http.post('/v1/play/heartbeat', { token, body: { session: start.body.data.session } });
    expect(beat.status).toBe(410);
    expect(beat.body.error.code).toBe('session_ended');
  });
});
