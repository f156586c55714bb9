// A purged account leaves every leaderboard: its keys come off the count trees (split ones too), ranks stay exact.
import { expect, it } from 'vitest';
import { purgeDeletedPlayers } from '../../src/modules/accounts/self-service.service.js';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { asPlayer, createGame, createPlayer } from '../helpers/factories.js';
import { checkTree } from '../helpers/count-tree.js';
import { eachDialect } from '../helpers/harness.js';

const SLOW = 180_000;

eachDialect('scores: a purged account leaves the leaderboards', (h) => {
  it(
    'takes the purged players off split boards of every period, keeping every rank exact',
    async () => {
      h.clock.set('2026-05-04T08:00:00Z');
      const game = await createGame(h.ctx);
      const players = [];
      for (let i = 0; i < 200; i++) players.push(await createPlayer(h.ctx, { username: `purge_rank_${i}` }));
      // many ties on one score (the tree splits by time there), the rest spread out
      for (const [i, p] of players.entries()) {
        h.clock.advance(1);
        await submitScore(h.ctx, {
          slug: game.slug,
          credential: asPlayer(p.id),
          body: { score: i % 3 === 0 ? 500 : (i * 37) % 1000, board: 'main' },
        });
      }
      const boards = await h.ctx.db
        .selectFrom('leaderboards')
        .select(['id', 'period'])
        .where('game_id', '=', game.id)
        .execute();
      expect(boards.map((b) => b.period).sort()).toEqual(['all', 'day', 'month', 'week']);
      const before = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { limit: '100' } });
      const leaving = players.filter((_, i) => i % 5 === 0);
      const due = h.clock.now() - 1;
      await h.ctx.db
        .updateTable('players')
        .set({ status: 'deleting', deletion_due_at: due })
        .where(
          'id',
          'in',
          leaving.map((p) => p.id),
        )
        .execute();
      expect(await purgeDeletedPlayers(h.ctx)).toBe(leaving.length);

      for (const board of boards) expect(await checkTree(h, board.id)).toBeGreaterThan(0);
      const gone = new Set(leaving.map((p) => p.username));
      const expected = (before.body.data.leaderboard as Array<{ player: { username: string } }>)
        .map((r) => r.player.username)
        .filter((u) => !gone.has(u));
      const after = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { limit: '100' } });
      expect(after.body.meta.total).toBe(160);
      const rows = after.body.data.leaderboard as Array<{ rank: number; player: { username: string } }>;
      for (const [i, r] of rows.entries()) expect(r.rank).toBe(i + 1);
      expect(rows.map((r) => r.player.username).slice(0, expected.length)).toEqual(expected);
      // a deep page is found through the tree
      const deep = await h.http.get(`/v1/games/${game.slug}/leaderboard`, {
        query: { limit: '5', offset: '150', period: 'day' },
      });
      expect(deep.body.data.leaderboard.map((r: { rank: number }) => r.rank)).toEqual([151, 152, 153, 154, 155]);
    },
    SLOW,
  );
});
