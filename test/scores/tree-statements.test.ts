// The compiled count-tree and bests statements that take their rows as one JSON parameter: one row and
// many rows, both ends of the safe integers (the JSON must carry them exactly), and the merged entry/best update.
import { expect, it } from 'vitest';
import { countEntryAndSetBest, insertBests, lockBests } from '../../src/modules/scores/bests.repository.js';
import { insertBoard, findGameBoard } from '../../src/modules/scores/boards.repository.js';
import { addToNodes, nodesInRanges } from '../../src/modules/scores/count-tree.repository.js';
import { rankWithTotal } from '../../src/modules/scores/count-tree.js';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { asPlayer, createGame, createPlayer } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const BIG = Number.MAX_SAFE_INTEGER;

eachDialect('scores: count-tree statements with JSON rows', (h) => {
  it('adds to, creates and reads one node or many, with heads at both ends of the safe integers', async () => {
    const game = await createGame(h.ctx);
    const ref = { gameId: game.id, board: 'json', period: 'all', periodKey: 'all', order: 'desc' };
    const a = (await insertBoard(h.ctx.db, ref, h.clock.now()))!;
    const b = (await insertBoard(h.ctx.db, { ...ref, board: 'json2' }, h.clock.now()))!;
    const nodes = [a, b].flatMap((boardId) =>
      Array.from({ length: 30 }, (_, i) => ({
        boardId,
        level: 101 + (i % 11),
        head: i % 2 ? BIG - i : -BIG + i,
        parent: i,
        prefix: i * 16 + 3,
        delta: 1,
      })),
    );
    const one = await addToNodes(h.ctx.db, [nodes[0]!]);
    expect(one).toEqual([{ boardId: a, level: 101, head: -BIG, parent: 0, prefix: 3, cnt: 1, expanded: false }]);
    const all = await addToNodes(
      h.ctx.db,
      nodes.map((n) => ({ ...n, delta: 2 })),
    );
    expect(all).toHaveLength(60);
    const byName = new Map(all.map((r) => [`${r.boardId}/${r.level}/${r.head}/${r.parent}/${r.prefix}`, r.cnt]));
    for (const [i, n] of nodes.entries())
      expect(byName.get(`${n.boardId}/${n.level}/${n.head}/${n.parent}/${n.prefix}`)).toBe(i === 0 ? 3 : 2);
    // a delta of 0 only returns the node (it locks it); a negative delta takes off
    expect((await addToNodes(h.ctx.db, [{ ...nodes[1]!, delta: 0 }]))[0]!.cnt).toBe(2);
    expect((await addToNodes(h.ctx.db, [{ ...nodes[1]!, delta: -1 }]))[0]!.cnt).toBe(1);

    const ranges = nodes.map((n) => ({
      boardId: n.boardId,
      level: n.level,
      head: n.head,
      parent: n.parent,
      lo: n.prefix,
      hi: n.prefix,
    }));
    expect(await nodesInRanges(h.ctx.db, ranges.slice(0, 1))).toHaveLength(1);
    expect(await nodesInRanges(h.ctx.db, ranges)).toHaveLength(60);
    expect(await nodesInRanges(h.ctx.db, [{ ...ranges[0]!, lo: 0, hi: 2 }])).toEqual([]);
  });

  it('ranks keys at both ends of the safe integers exactly', async () => {
    const game = await createGame(h.ctx);
    const scores = [BIG, BIG - 1, -BIG, -BIG + 1, 0, 1, -1, 2 ** 52, -(2 ** 52)];
    const players = [];
    for (const [i, score] of scores.entries()) {
      const p = await createPlayer(h.ctx, { username: `json_rank_${i}` });
      players.push(p);
      h.clock.advance(1);
      await submitScore(h.ctx, { slug: game.slug, credential: asPlayer(p.id), body: { score, board: 'main' } });
    }
    const sorted = [...scores].sort((x, y) => y - x);
    for (const [i, score] of scores.entries()) {
      const found = (await findGameBoard(h.ctx.db, game.slug, 'main', 'all', 'all', players[i]!.id))!;
      expect(found.best_score).not.toBeNull();
      expect(Number(found.best_score)).toBe(score);
      const key = {
        norm: Number(found.best_norm),
        reachedAt: Number(found.best_reached_at),
        scoreId: Number(found.best_score_id),
      };
      expect(await rankWithTotal(h.ctx.db, found.board_id!, key)).toEqual({
        rank: sorted.indexOf(score) + 1,
        total: scores.length,
      });
    }
  });

  it('locks one board or four, and counts entries on all while moving the best only where it improved', async () => {
    const game = await createGame(h.ctx);
    const player = await createPlayer(h.ctx);
    const boards: number[] = [];
    for (const period of ['all', 'month', 'week', 'day']) {
      boards.push(
        (await insertBoard(h.ctx.db, { gameId: game.id, board: 'main', period, periodKey: period, order: 'desc' }, 0))!,
      );
    }
    const row = (id: number) => ({
      leaderboard_id: id,
      player_id: player.id,
      score: 5,
      norm: -5,
      reached_at: 100,
      score_id: 1,
      entries: 1,
      last_played: 100,
    });
    expect(await insertBests(h.ctx.db, boards.map(row))).toEqual(boards);
    await h.ctx.db.transaction().execute(async (trx) => {
      expect((await lockBests(trx, [boards[2]!], player.id)).map((r) => r.leaderboard_id)).toEqual([boards[2]]);
      expect((await lockBests(trx, [...boards].reverse(), player.id)).map((r) => r.leaderboard_id)).toEqual(boards);
      await countEntryAndSetBest(trx, boards, [], player.id, 50, { score: 9, norm: -9, reached_at: 200, score_id: 2 });
      await countEntryAndSetBest(trx, boards, [boards[1]!, boards[3]!], player.id, 300, {
        score: BIG,
        norm: -BIG,
        reached_at: 300,
        score_id: 3,
      });
    });
    const after = await lockBests(h.ctx.db, boards, player.id);
    expect(
      after.map((r) => [
        Number(r.entries),
        Number(r.last_played),
        Number(r.score),
        Number(r.norm),
        Number(r.reached_at),
        Number(r.score_id),
      ]),
    ).toEqual([
      [3, 300, 5, -5, 100, 1],
      [3, 300, BIG, -BIG, 300, 3],
      [3, 300, 5, -5, 100, 1],
      [3, 300, BIG, -BIG, 300, 3],
    ]);
  });
});
