// A player who asked for their account's deletion leaves the public leaderboards at once, with exact ranks and totals
// for everyone else, and comes back exactly as before when their login cancels the deletion.
import { expect, it } from 'vitest';
import { checkTree } from '../helpers/count-tree.js';
import { as, newGuest } from '../accounts/guest-helpers.js';
import { submitScore } from '../../src/modules/scores/scores.service.js';
import { asPlayer, createGame, createPlayer, createPlayerWithPassword, createToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';

const PASSWORD = 'correct horse battery';

async function board(h: Harness, slug: string, period: string) {
  // the periods of the submissions, whatever the clock says now
  const res = await h.http.get(`/v1/games/${slug}/leaderboard`, { query: { period, at: '2026-05-04' } });
  expect(res.status, res.text).toBe(200);
  return {
    total: res.body.meta.total as number,
    rows: (
      res.body.data.leaderboard as Array<{ rank: number; score: number; entries: number; player: { username: string } }>
    ).map((r) => [r.rank, r.player.username, r.score, r.entries]),
  };
}

eachDialect('scores: a player waiting for deletion leaves the leaderboards', (h) => {
  it('hides the player from every period with exact ranks and totals, and restores them when the deletion is cancelled', async () => {
    h.clock.set('2026-05-04T08:00:00Z');
    const game = await createGame(h.ctx);
    const players = [];
    for (const name of ['pd_first', 'pd_middle', 'pd_last']) {
      const player = await createPlayerWithPassword(h.ctx, PASSWORD, { username: name });
      players.push({ ...player, token: (await createToken(h.ctx, player.id)).token });
    }
    const [first, middle, last] = players;
    const submit = async (p: { token: string }, score: number) => {
      const res = await h.http.post(`/v1/games/${game.slug}/scores`, { token: p.token, body: { score } });
      expect(res.status, res.text).toBe(201);
      h.clock.advance(60);
    };
    await submit(first!, 300);
    await submit(middle!, 150);
    await submit(middle!, 200);
    await submit(last!, 100);

    const periods = ['all', 'month', 'week', 'day'];
    const before = {
      total: 3,
      rows: [
        [1, 'pd_first', 300, 1],
        [2, 'pd_middle', 200, 2],
        [3, 'pd_last', 100, 1],
      ],
    };
    for (const period of periods) expect(await board(h, game.slug, period), period).toEqual(before);
    const lastRank = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token: last!.token });
    expect(lastRank.body.data).toMatchObject({ rank: 3, best: 100 });

    const deletion = await h.http.delete('/v1/me', { token: middle!.token, body: { password: PASSWORD } });
    expect(deletion.status, deletion.text).toBe(202);
    const hidden = {
      total: 2,
      rows: [
        [1, 'pd_first', 300, 1],
        [2, 'pd_last', 100, 1],
      ],
    };
    for (const period of periods) expect(await board(h, game.slug, period), period).toEqual(hidden);
    const moved = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token: last!.token });
    expect(moved.body.data).toMatchObject({ rank: 2, best: 100 });
    const boards = await h.ctx.db.selectFrom('leaderboards').select('id').where('game_id', '=', game.id).execute();
    for (const b of boards) await checkTree(h, b.id);
    // A submission of theirs still under way when the deletion was asked for (its token read before): refused,
    // nothing stored, the board as it is.
    await expect(
      submitScore(h.ctx, { slug: game.slug, credential: asPlayer(middle!.id), body: { score: 250 } }),
    ).rejects.toMatchObject({ code: 'unauthenticated' });
    for (const period of periods) expect(await board(h, game.slug, period), period).toEqual(hidden);
    // Their submissions are kept for the grace period.
    expect(await h.ctx.db.selectFrom('scores').select('id').where('player_id', '=', middle!.id).execute()).toHaveLength(
      2,
    );

    // A day later (a new day board, the others from before): the login cancels the deletion.
    h.clock.advance(86_400);
    const login = await h.http.post('/v1/auth/login', { body: { login: 'pd_middle', password: PASSWORD } });
    expect(login.status, login.text).toBe(200);
    expect(login.body.data.deletion_canceled).toBe(true);
    for (const period of periods) expect(await board(h, game.slug, period), period).toEqual(before);
    for (const b of boards) await checkTree(h, b.id);
    const back = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token: last!.token });
    expect(back.body.data).toMatchObject({ rank: 3, best: 100 });
  });

  /** Every row of a board, a page of 100 at a time, each rank checked: [username, score, entries]. */
  async function wholeBoard(slug: string, query: Record<string, string>) {
    const rows: Array<[string, number, number]> = [];
    for (let offset = 0; ; offset += 100) {
      const res = await h.http.get(`/v1/games/${slug}/leaderboard`, {
        query: { limit: '100', offset: String(offset), ...query },
      });
      expect(res.status, res.text).toBe(200);
      const page = res.body.data.leaderboard as Array<{
        rank: number;
        score: number;
        entries: number;
        player: { username: string };
      }>;
      for (const [i, r] of page.entries()) expect(r.rank).toBe(offset + i + 1);
      rows.push(...page.map((r): [string, number, number] => [r.player.username, r.score, r.entries]));
      if (page.length < 100) return { rows, total: res.body.meta.total as number };
    }
  }

  it('keeps split boards of past periods exact, leaves them off a board filled while they wait, and adds a guest merged by the cancelling login', async () => {
    h.clock.set('2026-06-01T08:00:00Z');
    const game = await createGame(h.ctx, { leaderboard_order: 'desc' });
    const submit = (playerId: number, score: number) =>
      submitScore(h.ctx, { slug: game.slug, credential: asPlayer(playerId), body: { score, board: 'main' } });
    for (let i = 0; i < 150; i++) {
      const p = await createPlayer(h.ctx, { username: `pd_crowd_${i}` });
      await submit(p.id, i % 3 === 0 ? 500 : (i * 37) % 1000);
      h.clock.advance(1);
    }
    const leaving = await createPlayerWithPassword(h.ctx, PASSWORD, { username: 'pd_leaving' });
    const { token } = await createToken(h.ctx, leaving.id);
    for (const score of [500, 640, 20]) {
      await submit(leaving.id, score);
      h.clock.advance(1);
    }
    const day = { period: 'day', at: '2026-06-01' };
    const before = { all: await wholeBoard(game.slug, {}), day: await wholeBoard(game.slug, day) };
    expect(before.all.total).toBe(151);
    expect(before.all.rows.find(([name]) => name === 'pd_leaving')).toEqual(['pd_leaving', 640, 3]);

    expect((await h.http.delete('/v1/me', { token, body: { password: PASSWORD } })).status).toBe(202);
    const without = (board: { rows: Array<[string, number, number]> }) =>
      board.rows.filter(([name]) => name !== 'pd_leaving');
    for (const [label, query] of [
      ['all', {}],
      ['day', day],
    ] as const) {
      const board = await wholeBoard(game.slug, query);
      expect(board.total, label).toBe(150);
      expect(board.rows, label).toEqual(without(before[label]));
    }

    // While they wait, the game's order changes: its boards of the other order are filled from the submissions,
    // theirs left out.
    await h.ctx.db.updateTable('games').set({ leaderboard_order: 'asc' }).where('id', '=', game.id).execute();
    const ascending = await wholeBoard(game.slug, {});
    expect(ascending.total).toBe(150);
    expect(ascending.rows.some(([name]) => name === 'pd_leaving')).toBe(false);

    // Days later, a guest's login into the account cancels the deletion and merges the guest's better score.
    h.clock.advance(3 * 86_400);
    const guest = await newGuest(h);
    const guestScore = await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 7 } });
    expect(guestScore.status, guestScore.text).toBe(201);
    const login = await h.http.post('/v1/auth/login', {
      ...as(guest),
      body: { login: 'pd_leaving', password: PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    expect(login.body.data).toMatchObject({ deletion_canceled: true, claimed_guest: { via: 'merge' } });

    // Ascending now: their best is the guest's 7, with four entries; back in every board of the period past too.
    const back = await wholeBoard(game.slug, {});
    expect(back.total).toBe(151);
    const expected = [...ascending.rows, ['pd_leaving', 7, 4] as [string, number, number]].sort((a, b) => a[1] - b[1]);
    expect(back.rows.map(([, score]) => score)).toEqual(expected.map(([, score]) => score));
    expect(back.rows.find(([name]) => name === 'pd_leaving')).toEqual(['pd_leaving', 7, 4]);
    const pastDay = await wholeBoard(game.slug, day);
    expect(pastDay.total).toBe(151);
    expect(pastDay.rows.find(([name]) => name === 'pd_leaving')).toEqual(['pd_leaving', 20, 3]);
    // The first order's boards, read again: as before the deletion, with the guest's submission counted in.
    await h.ctx.db.updateTable('games').set({ leaderboard_order: 'desc' }).where('id', '=', game.id).execute();
    expect(await wholeBoard(game.slug, {})).toEqual({
      total: 151,
      rows: before.all.rows.map((row) => (row[0] === 'pd_leaving' ? ['pd_leaving', 640, 4] : row)),
    });
    const boards = await h.ctx.db.selectFrom('leaderboards').select('id').where('game_id', '=', game.id).execute();
    let split = 0;
    for (const b of boards) split += await checkTree(h, b.id);
    expect(split).toBeGreaterThan(0);
  }, 180_000);
});
