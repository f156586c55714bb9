// Scores and leaderboards cost the same on a board of a million players as on one of a thousand: every
// statement a submission, a page, a deep page, a page around a player or a rank runs on SQLite must reach a board's
// rows through an index range below the board, never scan the board. SQLite plans without statistics here (no
// ANALYZE), so its plan does not depend on how many rows the test makes: a small board shows the plan a big one gets.
// A rank once walked every node of its board (a CROSS JOIN now keeps the path first): 1 s a rank at a million players.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { enabledDialects } from '../helpers/dialects.js';

/** Every SQL text the service prepares (better-sqlite3 prepares each text once: connect.ts caches the statements). */
const prepared = new Set<string>();
const prepare = Database.prototype.prepare;
vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
  prepared.add(source);
  return prepare.call(this, source);
} as typeof prepare);

/** The plan of `source`: EXPLAIN QUERY PLAN with every parameter null (the plan does not depend on the values). */
function planOf(db: Database.Database, source: string): string[] {
  const statement = db.prepare(`explain query plan ${source}`);
  for (let n = 0; n <= 64; n++) {
    try {
      return (statement.all(...Array<null>(n).fill(null)) as Array<{ detail: string }>).map((r) => r.detail);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  throw new Error(`no parameter count fits: ${source}`);
}

/**
 * Statements that read by the board alone and stay bounded or run once per board: a shallow page by OFFSET walks the
 * rank index in order and stops after offset + limit (≤ 200 + limit) entries; the tree of a new board is rebuilt from
 * its history (deleted, then written) once, when the board is created.
 */
function boundedByDesign(source: string, plan: string[]): boolean {
  const param = String.raw`(\?|\(select p\d+ from prepared_args\))`; // db/statement.ts may read it from a one-row CTE
  if (new RegExp(`limit ${param} offset ${param}$`).test(source) && !plan.some((line) => line.includes('TEMP B-TREE')))
    return true;
  return source === 'delete from "leaderboard_nodes" where "leaderboard_id" = ?';
}

/** Lines of a plan that read a whole board (or a whole board table): a scan, or a search keyed by the board alone. */
function wholeBoardReads(source: string, plan: string[]): string[] {
  if (boundedByDesign(source, plan)) return [];
  const names = new Set(['leaderboard_nodes', 'leaderboard_bests']);
  for (const m of source.matchAll(/"?leaderboard_(?:nodes|bests)"?\s+(?:as\s+)?"?(\w+)"?/gi)) {
    if (!/^(where|on|set|select|join|order|group|values|inner|left|cross)$/i.test(m[1]!)) names.add(m[1]!);
  }
  return plan.filter((line) => {
    const scan = /^SCAN (\w+)/.exec(line);
    if (scan && names.has(scan[1]!)) return true;
    return /^SEARCH (\w+) USING .*\(leaderboard_id=\?\)$/.test(line) && names.has(/^SEARCH (\w+)/.exec(line)![1]!);
  });
}

describe.runIf(enabledDialects().includes('sqlite'))(
  'scores: SQLite plans reach a board through an index range below it',
  () => {
    let h: Harness & { close(): Promise<void> };
    beforeAll(async () => {
      h = await createHarness('sqlite');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('no statement of a submission, a page, a deep page, a page around me or a rank scans a board', async () => {
      const game = await createGame(h.ctx);
      // 250 players close together: the root splits, and so do nodes below it (SPLIT_AT is 64)
      const players = [];
      for (let i = 0; i < 250; i++) players.push(await createPlayerWithToken(h.ctx));
      const scores = `/v1/games/${game.slug}/scores`;
      for (const [i, p] of players.entries()) {
        h.clock.advance(1000);
        expect((await h.http.post(scores, { token: p.token, body: { score: 1000 + (i % 7) } })).status).toBe(201);
      }
      for (const p of players.slice(0, 20)) {
        h.clock.advance(1000);
        expect((await h.http.post(scores, { token: p.token, body: { score: 5000 } })).status).toBe(201); // moves a best
        expect((await h.http.post(scores, { token: p.token, body: { score: 1 } })).status).toBe(201); // not a best
      }
      const board = `/v1/games/${game.slug}/leaderboard`;
      const me = players[100]!.token;
      const queries: Array<Record<string, string>> = [
        { limit: '10' },
        { limit: '10', offset: '230' },
        { limit: '10', around: 'me' },
      ];
      for (const query of queries) {
        const res = await h.http.get(board, { token: me, query });
        expect(res.status).toBe(200);
        expect(res.body.data.leaderboard.length).toBeGreaterThan(0);
      }
      const standing = await h.http.get(`${board}/me`, { token: me });
      expect(standing.status).toBe(200);
      expect(standing.body.data.rank).toBeGreaterThan(0);

      const onBoards = [...prepared].filter(
        (s) => /leaderboard_(nodes|bests)/.test(s) && !/^\s*(create|drop|alter)\b/i.test(s),
      );
      expect(onBoards.length).toBeGreaterThan(5);
      const db = new Database(h.config.database_url, { readonly: true });
      try {
        const bad = onBoards.flatMap((source) =>
          wholeBoardReads(source, planOf(db, source)).map((line) => `${line}\n    in: ${source}`),
        );
        expect(bad).toEqual([]);
      } finally {
        db.close();
      }
    });
  },
);
