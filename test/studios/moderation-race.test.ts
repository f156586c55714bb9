// A removal from the studio console while players keep submitting to the same board: the rebuild waits for the
// submissions in flight and they wait for it, so every best, entry count and rank afterwards is what the raw
// submissions give. The race is PostgreSQL's (SQLite runs one write transaction at a time); the test runs on both.
import { expect, it } from 'vitest';
import { removeScores } from '../../src/modules/scores/moderation.service.js';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { checkTree } from '../helpers/count-tree.js';
import { asPlayer, createPlayer } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { createStudio, createStudioGame, memberOf } from '../helpers/studios.js';

const SLOW = 180_000;

/** Each player's best (the highest, the earliest on a tie) and number of submissions, from the scores table alone. */
async function recomputed(h: Harness, gameId: number) {
  const scores = await h.ctx.db
    .selectFrom('scores')
    .select(['id', 'player_id', 'score', 'created_at'])
    .where('game_id', '=', gameId)
    .where('board', '=', 'main')
    .orderBy('id')
    .execute();
  const bests = new Map<number, { score: number; scoreId: number; entries: number }>();
  for (const s of scores) {
    const best = bests.get(s.player_id);
    if (!best) bests.set(s.player_id, { score: Number(s.score), scoreId: s.id, entries: 1 });
    else {
      best.entries++;
      if (Number(s.score) > best.score) Object.assign(best, { score: Number(s.score), scoreId: s.id });
    }
  }
  return bests;
}

eachDialect('studios: a removal while players submit to the board', (h) => {
  it(
    'leaves every period of the board equal to a recomputation from the submissions, ranks and totals exact',
    async () => {
      h.clock.set('2026-11-20T10:00:00Z');
      const studio = await createStudio(h.ctx);
      const member = await memberOf(h.ctx, studio.id, 'developer');
      const game = await createStudioGame(h.ctx, studio.id, { status: 'published', files_dir: 'x', cover: 'c.png' });
      const submit = (playerId: number, score: number) =>
        submitScore(h.ctx, { slug: game.slug, credential: asPlayer(playerId), body: { score, board: 'main' } });

      // A board of 300 players (its tree split), the cheater among them.
      const settled: Array<{ id: number }> = [];
      for (let i = 0; i < 300; i++) settled.push(await createPlayer(h.ctx, { username: `settled_${i}` }));
      for (const [i, p] of settled.entries()) await submit(p.id, (i * 37) % 1000);
      const cheater = settled[150]!;
      await submit(cheater.id, 5000);
      h.clock.advance(1);

      for (let round = 0; round < 3; round++) {
        const newcomers: Array<{ id: number }> = [];
        for (let i = 0; i < 40; i++) newcomers.push(await createPlayer(h.ctx, { username: `new_${round}_${i}` }));
        // First bests of new players, improvements and plain entries of settled ones, and the removal, all at once.
        const submissions = [
          ...newcomers.map((p, i) => () => submit(p.id, 100 + ((i * 53) % 900))),
          ...settled.slice(round * 40, round * 40 + 40).map((p, i) => () => submit(p.id, 200 + ((i * 71) % 900))),
        ];
        const removal = () =>
          round === 0
            ? removeScores(h.ctx, game, { playerId: cheater.id, board: 'main' }, member.player.id, 'cheating')
            : removeScores(
                h.ctx,
                game,
                { playerId: settled[round * 7]!.id, board: 'main' },
                member.player.id,
                'another look',
              );
        const half = Math.floor(submissions.length / 2);
        await Promise.all([
          ...submissions.slice(0, half).map((run) => run()),
          removal(),
          ...submissions.slice(half).map((run) => run()),
        ]);
        h.clock.advance(1);
      }

      const expected = await recomputed(h, game.id);
      const boards = await h.ctx.db
        .selectFrom('leaderboards')
        .select(['id', 'period'])
        .where('game_id', '=', game.id)
        .execute();
      expect(boards).toHaveLength(4);
      for (const board of boards) {
        const rows = await h.ctx.db
          .selectFrom('leaderboard_bests')
          .select(['player_id', 'score', 'score_id', 'entries'])
          .where('leaderboard_id', '=', board.id)
          .execute();
        const actual = new Map(
          rows.map((r) => [r.player_id, { score: Number(r.score), scoreId: r.score_id, entries: r.entries }]),
        );
        expect(actual, board.period).toEqual(expected);
        await checkTree(h, board.id);
      }

      // The API's ranks and total: the players by best, highest first, earliest on a tie.
      const names = new Map(
        (await h.ctx.db.selectFrom('players').select(['id', 'username']).execute()).map((p) => [p.id, p.username]),
      );
      const order = [...expected.entries()]
        .sort(([, a], [, b]) => b.score - a.score || a.scoreId - b.scoreId)
        .map(([id]) => names.get(id));
      for (const period of ['all', 'day']) {
        const seen: Array<string | undefined> = [];
        for (let offset = 0; offset < order.length; offset += 100) {
          const res = await h.http.get(`/v1/games/${game.slug}/leaderboard`, {
            query: { limit: '100', offset: String(offset), period },
          });
          expect(res.body.meta.total, period).toBe(order.length);
          const page = res.body.data.leaderboard as Array<{ rank: number; player: { username: string } }>;
          for (const [i, r] of page.entries()) expect(r.rank).toBe(offset + i + 1);
          seen.push(...page.map((r) => r.player.username));
        }
        expect(seen, period).toEqual(order);
      }
    },
    SLOW,
  );
});
