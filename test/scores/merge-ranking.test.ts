// Guests merged into accounts at login: every affected board (every period, split count trees, ties) ranks exactly as
// the submissions say, the account keeping the better of the two bests (the earlier one on a tie).
import { expect, it } from 'vitest';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { as, newGuest, PASSWORD } from '../accounts/guest-helpers.js';
import { checkTree } from '../helpers/count-tree.js';
import { asPlayer, createGame, createPlayer, createPlayerWithPassword } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';

const SLOW = 180_000;

/** Usernames in rank order as the submissions give it: each player's best, a tie to the one who reached it first. */
async function expectedOrder(h: Harness, gameId: number, board: string, order: 'asc' | 'desc'): Promise<string[]> {
  const rows = await h.ctx.db
    .selectFrom('scores as s')
    .innerJoin('players as p', 'p.id', 's.player_id')
    .select(['p.username', 's.score', 's.created_at', 's.id'])
    .where('s.game_id', '=', gameId)
    .where('s.board', '=', board)
    .execute();
  const best = new Map<string, { norm: number; at: number; id: number }>();
  for (const r of rows) {
    const key = { norm: order === 'desc' ? -Number(r.score) : Number(r.score), at: Number(r.created_at), id: r.id };
    const seen = best.get(r.username);
    const better =
      !seen ||
      key.norm < seen.norm ||
      (key.norm === seen.norm && (key.at < seen.at || (key.at === seen.at && key.id < seen.id)));
    if (better) best.set(r.username, key);
  }
  return [...best.entries()]
    .sort(([, a], [, b]) => a.norm - b.norm || a.at - b.at || a.id - b.id)
    .map(([username]) => username);
}

/** Every row of the board in one period, through the API, page by page. */
async function boardRows(h: Harness, slug: string, board: string, period: string) {
  const rows: Array<{ rank: number; username: string; entries: number }> = [];
  for (let offset = 0; ; offset += 100) {
    const res = await h.http.get(`/v1/games/${slug}/leaderboard`, { query: { board, period, limit: 100, offset } });
    expect(res.status).toBe(200);
    const page = res.body.data.leaderboard as Array<{ rank: number; entries: number; player: { username: string } }>;
    rows.push(...page.map((r) => ({ rank: r.rank, username: r.player.username, entries: r.entries })));
    if (page.length < 100) return { rows, total: res.body.meta.total as number };
  }
}

eachDialect('scores: guests merged into accounts keep every rank exact', (h) => {
  it(
    'merges ten guests into accounts on split boards of every period, with ties, better and worse bests',
    async () => {
      h.clock.set('2026-05-06T08:00:00Z');
      const game = await createGame(h.ctx);
      const submit = async (playerId: number, score: number, board = 'main') => {
        h.clock.advance(1);
        await submitScore(h.ctx, { slug: game.slug, credential: asPlayer(playerId), body: { score, board } });
      };
      // 150 players, many on one score so that the tree splits by time there.
      for (let i = 0; i < 150; i++) {
        const p = await createPlayer(h.ctx, { username: `merge_rank_${i}` });
        await submit(p.id, i % 3 === 0 ? 500 : (i * 37) % 1000);
      }
      const accounts = [];
      for (let i = 0; i < 10; i++) {
        const a = await createPlayerWithPassword(h.ctx, PASSWORD, { username: `merge_account_${i}` });
        accounts.push(a);
        if (i < 8) await submit(a.id, [500, 800, 100, 990, 500, 1, 650, 300][i]!);
      }
      const guests = [];
      for (let i = 0; i < 10; i++) {
        const g = await newGuest(h, { web: true });
        guests.push(g);
        // better, worse, tied (reached after or before the account), a board the account lacks, none at all…
        await submit(g.id, [600, 700, 100, 995, 500, 2, 640, 300, 420, 50][i]!);
        if (i % 2 === 0) await submit(g.id, 10 + i, 'hard');
      }
      // Account 7 scores 300 again after its guest did: its own first 300, reached before the guest's, stays its best.
      await submit(accounts[7]!.id, 300);
      const before = new Map<string, number>();
      for (const period of ['all', 'day']) before.set(period, (await boardRows(h, game.slug, 'main', period)).total);

      for (const [i, guest] of guests.entries()) {
        const res = await h.http.post('/v1/auth/login', {
          ...as(guest),
          body: { login: accounts[i]!.username, password: PASSWORD },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.claimed_guest.via).toBe('merge');
      }

      const boards = await h.ctx.db
        .selectFrom('leaderboards')
        .select(['id', 'board', 'period'])
        .where('game_id', '=', game.id)
        .execute();
      expect(boards.length).toBe(8);
      let split = 0;
      for (const b of boards) split += await checkTree(h, b.id);
      expect(split).toBeGreaterThan(0);
      for (const board of ['main', 'hard']) {
        const expected = await expectedOrder(h, game.id, board, 'desc');
        for (const period of ['all', 'month', 'week', 'day']) {
          const { rows, total } = await boardRows(h, game.slug, board, period);
          expect(total).toBe(expected.length);
          expect(rows.map((r) => r.rank)).toEqual(expected.map((_, i) => i + 1));
          expect(rows.map((r) => r.username)).toEqual(expected);
        }
      }
      // The eight accounts with a best had a guest with one too: eight keys fewer on main; the other two moved over.
      expect((await boardRows(h, game.slug, 'main', 'all')).total).toBe(before.get('all')! - 8);
      const main = (await boardRows(h, game.slug, 'main', 'all')).rows;
      const entriesOf = (username: string) => main.find((r) => r.username === username)?.entries;
      expect(entriesOf(accounts[0]!.username)).toBe(2);
      expect(entriesOf(accounts[7]!.username)).toBe(3);
      expect(entriesOf(accounts[8]!.username)).toBe(1);
      for (const g of guests) expect(main.some((r) => r.username === g.username)).toBe(false);
    },
    SLOW,
  );
});
