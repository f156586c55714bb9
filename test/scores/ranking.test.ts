// The ranking rule against a naive sort of every player's best, the count tree's invariants, concurrent writers,
// deep pages (found through the tree), a change of the game's order, and a node split under a waiting writer.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { childrenRange, compareKeys, nodeBounds, type NodeRow } from '../../src/modules/scores/count-tree.model.js';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { asPlayer, createGame, createPlayer, createToken } from '../helpers/factories.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createHarness, eachDialect, type Harness } from '../helpers/harness.js';

type Game = Awaited<ReturnType<typeof createGame>>;

/** Hundreds of real submissions: allow for a busy machine running the whole suite. */
const SLOW = 180_000;

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function submit(ctx: AppContext, game: Game, playerId: number, score: number) {
  return submitScore(ctx, { slug: game.slug, credential: asPlayer(playerId), body: { score, board: 'main' } });
}

interface Submission {
  player: string;
  score: number;
  at: number;
  seq: number;
}

/** The rule (docs/api.md, "Scores and leaderboards"), computed the slow way: best per player, the game's order, earliest to reach it first. */
function naiveRanking(subs: Submission[], order: 'asc' | 'desc'): string[] {
  const best = new Map<string, Submission>();
  const better = (a: Submission, b: Submission) => (order === 'desc' ? a.score > b.score : a.score < b.score);
  for (const s of subs) {
    const b = best.get(s.player);
    if (!b || better(s, b)) best.set(s.player, s);
  }
  return [...best.values()]
    .sort((a, b) => (order === 'desc' ? b.score - a.score : a.score - b.score) || a.at - b.at || a.seq - b.seq)
    .map((s) => s.player);
}

/** Every expanded node's children add up to it; every other node counts exactly the bests within its bounds. */
async function checkTree(h: Harness, boardId: number) {
  const raw = await h.ctx.db
    .selectFrom('leaderboard_nodes')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .execute();
  const nodes: NodeRow[] = raw.map((r) => ({
    level: Number(r.level),
    head: Number(r.head),
    parent: Number(r.parent),
    prefix: Number(r.prefix),
    cnt: Number(r.cnt),
    expanded: Number(r.expanded) === 1,
  }));
  const bests = (
    await h.ctx.db.selectFrom('leaderboard_bests').selectAll().where('leaderboard_id', '=', boardId).execute()
  ).map((b) => ({
    norm: Number(b.norm),
    reachedAt: Number(b.reached_at),
    scoreId: Number(b.score_id),
  }));
  const root = nodes.find((n) => n.level === 0)!;
  expect(root.cnt).toBe(bests.length);
  let split = 0;
  let splitByTime = 0;
  for (const node of nodes) {
    const range = childrenRange(node);
    const children = nodes.filter(
      (c) =>
        range &&
        c.level === range.level &&
        c.head === range.head &&
        c.parent === range.parent &&
        c.prefix >= range.lo &&
        c.prefix <= range.hi,
    );
    if (node.expanded) {
      split++;
      if (node.level > 100) splitByTime++;
      expect(children.reduce((n, c) => n + c.cnt, 0)).toBe(node.cnt);
    } else {
      expect(children).toHaveLength(0);
      const { lo, hi } = nodeBounds(node);
      const inside = bests.filter(
        (k) =>
          compareKeys(k, { norm: lo[0], reachedAt: lo[1], scoreId: 0 }) >= 0 &&
          compareKeys(k, { norm: hi[0], reachedAt: hi[1], scoreId: 2 ** 31 }) <= 0,
      );
      expect(inside.length).toBe(node.cnt);
    }
  }
  return { nodes: nodes.length, split, splitByTime };
}

async function boardId(h: Harness, game: Game, period = 'all') {
  const row = await h.ctx.db
    .selectFrom('leaderboards')
    .select('id')
    .where('game_id', '=', game.id)
    .where('period', '=', period)
    .where('sort_order', '=', game.leaderboard_order)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function wholeBoard(h: Harness, game: Game, query: Record<string, string> = {}) {
  const names: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await h.http.get(`/v1/games/${game.slug}/leaderboard`, {
      query: { limit: '100', offset: String(offset), ...query },
    });
    expect(res.status).toBe(200);
    const rows = res.body.data.leaderboard as Array<{ rank: number; player: { username: string } }>;
    for (const [i, r] of rows.entries()) expect(r.rank).toBe(offset + i + 1);
    names.push(...rows.map((r) => r.player.username));
    if (rows.length < 100) return { names, total: res.body.meta.total as number };
  }
}

eachDialect('scores: ranking', (h) => {
  for (const order of ['desc', 'asc'] as const) {
    it(
      `ranks ${order} like a naive sort of every best, for a few hundred players with ties`,
      async () => {
        h.clock.set('2026-05-04T08:00:00Z');
        const game = await createGame(h.ctx, { leaderboard_order: order });
        const next = random(order === 'desc' ? 7 : 11);
        const players = [];
        for (let i = 0; i < 320; i++) players.push(await createPlayer(h.ctx, { username: `r${order}_${i}` }));
        const subs: Submission[] = [];
        for (let n = 0; n < 480; n++) {
          const p = players[n < 320 ? n : Math.floor(next() * 320)]!;
          const roll = next();
          // A third tie on one score (the tree splits by time there), the rest spread over both signs and few values.
          const score =
            roll < 0.33
              ? 1000
              : roll < 0.66
                ? Math.floor(next() * 40) * 25 - 200
                : Math.floor((next() - 0.5) * 2 ** 40);
          if (next() < 0.7) h.clock.advance(Math.floor(next() * 3));
          const { result } = await submit(h.ctx, game, p.id, score);
          subs.push({ player: p.username, score, at: h.ctx.clock.now(), seq: n });
          // The rank the submission answers is the player's place on the board with this score counted.
          const standing = naiveRanking(subs, order);
          expect({ n, rank: result.rank.rank }).toEqual({ n, rank: standing.indexOf(p.username) + 1 });
        }
        const expected = naiveRanking(subs, order);
        const { names, total } = await wholeBoard(h, game);
        expect(total).toBe(expected.length);
        expect(names).toEqual(expected);
        const shape = await checkTree(h, await boardId(h, game));
        expect(shape.split).toBeGreaterThan(3);
        expect(shape.splitByTime).toBeGreaterThan(0);
        // Pages past the shallow-offset limit are found through the tree: they must match too.
        const deep = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { limit: '7', offset: '290' } });
        expect(deep.body.data.leaderboard.map((r: { player: { username: string } }) => r.player.username)).toEqual(
          expected.slice(290, 297),
        );
        expect(deep.body.data.leaderboard[0].rank).toBe(291);
        const past = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { offset: '400' } });
        expect(past.body.data.leaderboard).toEqual([]);
        expect(past.body.meta).toMatchObject({ offset: 400, total: expected.length });
        const { byUsername } = await standingsOf(
          h,
          game,
          players.filter((_, i) => i % 9 === 0),
        );
        for (const [username, rank] of byUsername) expect(rank).toBe(expected.indexOf(username) + 1);
      },
      SLOW,
    );
  }

  async function standingsOf(h: Harness, game: Game, players: Array<{ id: number; username: string }>) {
    const byUsername = new Map<string, number>();
    for (const p of players) {
      const { token } = await createToken(h.ctx, p.id);
      const res = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token });
      byUsername.set(p.username, res.body.data.rank);
    }
    return { byUsername };
  }

  it(
    'keeps counts exact when many players submit at once, on a new day',
    async () => {
      h.clock.set('2026-09-09T21:59:59.500Z'); // half a second before midnight in Berlin
      const game = await createGame(h.ctx);
      const players = [];
      for (let i = 0; i < 90; i++) players.push(await createPlayer(h.ctx, { username: `crowd_${i}` }));
      const next = random(3);
      const subs: Submission[] = [];
      let seq = 0;
      for (let round = 0; round < 3; round++) {
        // The first round ties everyone (the tie group splits by time while others wait), later rounds improve some.
        const batch = players.map((p) => ({ p, score: round === 0 ? 500 : 500 + Math.floor(next() * 6) * 10 }));
        const results = await Promise.all(batch.map(({ p, score }) => submit(h.ctx, game, p.id, score)));
        expect(results).toHaveLength(players.length);
        // Within one batch the arrival order decides ties: read it back from the stored ids.
        const ids = await h.ctx.db
          .selectFrom('scores')
          .select(['id', 'player_id', 'score'])
          .where('game_id', '=', game.id)
          .orderBy('id')
          .execute();
        for (const row of ids.slice(subs.length)) {
          const p = players.find((x) => x.id === row.player_id)!;
          subs.push({ player: p.username, score: Number(row.score), at: h.ctx.clock.now(), seq: seq++ });
        }
        h.clock.advance(1); // the second round crosses midnight: a new day board
      }
      expect((await wholeBoard(h, game)).names).toEqual(naiveRanking(subs, 'desc'));
      await checkTree(h, await boardId(h, game));
      const day = await wholeBoard(h, game, { period: 'day' });
      expect(day.total).toBe(90);
    },
    SLOW,
  );

  it('ranks by the new order, rebuilt from every submission, after the game changes its order', async () => {
    const game = await createGame(h.ctx, { leaderboard_order: 'desc' });
    const subs: Submission[] = [];
    let seq = 0;
    for (let i = 0; i < 6; i++) {
      const p = await createPlayer(h.ctx, { username: `flip_${i}` });
      for (const score of [10 * i + 5, 100 - 10 * i]) {
        h.clock.advance(1);
        await submit(h.ctx, game, p.id, score);
        subs.push({ player: p.username, score, at: h.ctx.clock.now(), seq: seq++ });
      }
    }
    expect((await wholeBoard(h, game)).names).toEqual(naiveRanking(subs, 'desc'));
    await h.ctx.db.updateTable('games').set({ leaderboard_order: 'asc' }).where('id', '=', game.id).execute();
    const flipped = { ...game, leaderboard_order: 'asc' };
    expect((await wholeBoard(h, flipped)).names).toEqual(naiveRanking(subs, 'asc'));
    const res = await h.http.get(`/v1/games/${game.slug}/leaderboard`, { query: { period: 'week' } });
    expect(res.body.meta).toMatchObject({ order: 'asc', total: 6 });
    expect(res.body.data.leaderboard[0]).toMatchObject({ score: 5, entries: 2 });
    await checkTree(h, await boardId(h, flipped));
  });
});

/**
 * A submission moves the keys of its four boards in one statement (applyKeyChanges). Here the node it stops at (a
 * score class of 64 players, not split yet) is split by another submission while it waits for that node's lock: it
 * runs its transaction again, moving the boards one by one, and every count stays exact.
 */
describe.skipIf(!enabledDialects().includes('postgres'))(
  'scores: a count tree node split under a waiting writer [postgres]',
  () => {
    let h: Harness & { close(): Promise<void> };
    /** `locker` holds the node; `watcher` looks on (outside a transaction: pg_stat_activity is read once per transaction). */
    let locker: pg.Client;
    let watcher: pg.Client;
    beforeAll(async () => {
      h = await createHarness('postgres');
      locker = new pg.Client({ connectionString: h.config.database_url });
      watcher = new pg.Client({ connectionString: h.config.database_url });
      await locker.connect();
      await watcher.connect();
    });
    afterAll(async () => {
      await locker?.end();
      await watcher?.end();
      await h?.close();
    });

    /** Sessions of this database waiting for a lock. */
    const lockWaits = async () =>
      (
        await watcher.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0]!.n;
    const lastScoreId = async () =>
      (await watcher.query<{ id: number }>('select coalesce(max(id), 0)::int as id from scores')).rows[0]!.id;

    it('runs the submission again and keeps every count exact', async () => {
      h.clock.set('2026-03-03T12:00:00Z');
      const game = await createGame(h.ctx);
      const subs: Submission[] = [];
      let seq = 0;
      // 64 scores of one class (11 bits: 1024 to 2047): its node holds them all and is not split yet.
      for (let i = 0; i < 64; i++) {
        const p = await createPlayer(h.ctx, { username: `split_${i}` });
        await submit(h.ctx, game, p.id, 1100 + 10 * i);
        subs.push({ player: p.username, score: 1100 + 10 * i, at: h.clock.now(), seq: seq++ });
      }
      const board = await boardId(h, game);
      const full = await h.ctx.db
        .selectFrom('leaderboard_nodes')
        .selectAll()
        .where('leaderboard_id', '=', board)
        .where('cnt', '=', 64)
        .where('expanded', '=', 0)
        .execute();
      expect(full).toHaveLength(1);
      const node = full[0]!;

      const [a, b] = [
        await createPlayer(h.ctx, { username: 'split_a' }),
        await createPlayer(h.ctx, { username: 'split_b' }),
      ];
      const before = await lastScoreId();
      await locker.query('begin');
      await locker.query(
        'select cnt from leaderboard_nodes where leaderboard_id = $1 and level = $2 and head = $3 and parent = $4 and prefix = $5 for update',
        [board, node.level, node.head, node.parent, node.prefix],
      );
      // Both read the node as not split, then wait for it; the one that gets it first takes it to 65 and splits it.
      const first = submit(h.ctx, game, a.id, 1105);
      await vi.waitFor(async () => expect(await lockWaits()).toBe(1), { timeout: 10_000, interval: 20 });
      const second = submit(h.ctx, game, b.id, 1095);
      await vi.waitFor(async () => expect(await lockWaits()).toBe(2), { timeout: 10_000, interval: 20 });
      await locker.query('rollback');
      const [ra, rb] = await Promise.all([first, second]);
      subs.push(
        { player: 'split_a', score: 1105, at: h.clock.now(), seq: seq++ },
        { player: 'split_b', score: 1095, at: h.clock.now(), seq: seq++ },
      );

      expect(ra.result.rank.rank).toBe(64);
      expect([65, 66]).toContain(rb.result.rank.rank); // 66 once split_a has committed
      const split = await h.ctx.db
        .selectFrom('leaderboard_nodes')
        .select(['cnt', 'expanded'])
        .where('leaderboard_id', '=', board)
        .where('level', '=', node.level)
        .where('head', '=', node.head)
        .where('parent', '=', node.parent)
        .where('prefix', '=', node.prefix)
        .executeTakeFirstOrThrow();
      expect(split).toEqual({ cnt: 66, expanded: 1 });
      // The second to get the node ran its transaction again: three score ids taken, one of them rolled back.
      expect(await lastScoreId()).toBe(before + 3);
      expect((await wholeBoard(h, game)).names).toEqual(naiveRanking(subs, 'desc'));
      for (const period of ['all', 'month', 'week', 'day']) await checkTree(h, await boardId(h, game, period));
    });
  },
);
