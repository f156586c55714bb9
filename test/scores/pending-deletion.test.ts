// A player who asked for their account's deletion leaves the public leaderboards at once, with exact ranks and totals
// for everyone else, and comes back exactly as before when their login cancels the deletion.
import { expect, it } from 'vitest';
import { checkTree } from '../helpers/count-tree.js';
import { createGame, createPlayerWithPassword, createToken } from '../helpers/factories.js';
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
});
