// Leaderboard moderation from the studio console: removing one submission or all of a player's submissions on a board
// rebuilds every period of the board exactly (ranks, totals, the player's next best), with the reason in the studio's
// audit log; and nobody outside the studio moderates or reads the log.
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { createStudio, createStudioGame, memberOf } from '../helpers/studios.js';

async function board(h: Harness, slug: string, period = 'all') {
  const res = await h.http.get(`/v1/games/${slug}/leaderboard?period=${period}`);
  expect(res.status, res.text).toBe(200);
  return {
    total: res.body.meta.total as number,
    rows: (
      res.body.data.leaderboard as Array<{ rank: number; score: number; entries: number; player: { username: string } }>
    ).map((r) => [r.rank, r.player.username, r.score, r.entries]),
  };
}

eachDialect('studios: leaderboard moderation', (h) => {
  const s = {} as {
    slug: string;
    studio: string;
    member: string;
    memberName: string;
    outsider: string;
    players: Array<{ token: string; id: number; name: string }>;
  };

  beforeAll(async () => {
    h.clock.set('2026-11-20T10:00:00Z');
    const studio = await createStudio(h.ctx);
    const other = await createStudio(h.ctx);
    s.studio = studio.slug;
    const member = await memberOf(h.ctx, studio.id, 'developer');
    s.member = member.token;
    s.memberName = member.player.username;
    s.outsider = (await memberOf(h.ctx, other.id, 'owner')).token;
    s.slug = (await createStudioGame(h.ctx, studio.id, { status: 'published', files_dir: 'x', cover: 'c.png' })).slug;
    s.players = [];
    for (let i = 0; i < 4; i++) {
      const p = await createPlayerWithToken(h.ctx);
      s.players.push({ token: p.token, id: p.player.id, name: p.player.username });
    }
    const [a, b, c, d] = s.players;
    const submit = async (p: { token: string }, score: number) => {
      const res = await h.http.post(`/v1/games/${s.slug}/scores`, { token: p.token, body: { score } });
      expect(res.status, res.text).toBe(201);
      h.clock.advance(60);
    };
    await submit(a!, 50);
    await submit(b!, 70);
    await submit(c!, 60);
    await submit(d!, 80);
    await submit(a!, 90);
    await submit(d!, 85);
  });

  const scoreId = async (playerId: number, score: number) =>
    (
      await h.ctx.db
        .selectFrom('scores')
        .select('id')
        .where('player_id', '=', playerId)
        .where('score', '=', score)
        .executeTakeFirstOrThrow()
    ).id;

  describe('the studio reading of a board', () => {
    it("answers the public page with each row's best submission and player, to members only", async () => {
      const [a, b, c, d] = s.players;
      const res = await h.http.get(`/v1/studio/games/${s.slug}/leaderboard?period=week&limit=2`, { token: s.member });
      expect(res.status, res.text).toBe(200);
      const pub = await h.http.get(`/v1/games/${s.slug}/leaderboard?period=week&limit=2`);
      expect(res.body.meta).toEqual(pub.body.meta);
      expect(
        res.body.data.leaderboard.map((r: { rank: number; score: number; score_id: number; player_id: number }) => [
          r.rank,
          r.score,
          r.score_id,
          r.player_id,
        ]),
      ).toEqual([
        [1, 90, await scoreId(a!.id, 90), a!.id],
        [2, 85, await scoreId(d!.id, 85), d!.id],
      ]);
      expect(res.body.data.leaderboard.map((r: { player: unknown }) => r.player)).toEqual(
        pub.body.data.leaderboard.map((r: { player: unknown }) => r.player),
      );
      // the public page names no ids
      expect(pub.body.data.leaderboard[0]).not.toHaveProperty('score_id');
      expect(pub.body.data.leaderboard[0]).not.toHaveProperty('player_id');
      const deep = await h.http.get(`/v1/studio/games/${s.slug}/leaderboard?offset=2`, { token: s.member });
      expect(deep.body.data.leaderboard.map((r: { player_id: number }) => r.player_id)).toEqual([b!.id, c!.id]);
      for (const token of [s.outsider, a!.token]) {
        const refused = await h.http.get(`/v1/studio/games/${s.slug}/leaderboard`, { token });
        expect(refused.status).toBe(404);
      }
      expect((await h.http.get(`/v1/studio/games/${s.slug}/leaderboard?around=me`, { token: s.member })).status).toBe(
        422,
      );
    });
  });

  describe('removals', () => {
    it('removes one submission: the player falls back to their next best, every period exact', async () => {
      const [a, b, c, d] = s.players;
      expect((await board(h, s.slug)).rows[0]).toEqual([1, a!.name, 90, 2]);
      const id = await scoreId(a!.id, 90);
      const res = await h.http.post(`/v1/studio/games/${s.slug}/scores/removals`, {
        token: s.member,
        body: { score_id: id, reason: 'impossible score' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ board: 'main', player_id: a!.id, removed: [{ id, score: 90 }] });
      expect(res.body.data.boards_rebuilt).toBe(4); // all, month, week, day
      const expected = {
        total: 4,
        rows: [
          [1, d!.name, 85, 2],
          [2, b!.name, 70, 1],
          [3, c!.name, 60, 1],
          [4, a!.name, 50, 1],
        ],
      };
      for (const period of ['all', 'month', 'week', 'day'])
        expect(await board(h, s.slug, period), period).toEqual(expected);
      const mine = await h.http.get(`/v1/games/${s.slug}/leaderboard/me`, { token: a!.token });
      expect(mine.body.data).toMatchObject({ rank: 4, best: 50 });
    });

    it("removes all of a player's submissions on the board: they leave it, the others move up", async () => {
      const [a, b, c, d] = s.players;
      const res = await h.http.post(`/v1/studio/games/${s.slug}/scores/removals`, {
        token: s.member,
        body: { player_id: d!.id, board: 'main', reason: 'cheating client' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.removed.map((r: { score: number }) => r.score)).toEqual([80, 85]);
      const expected = {
        total: 3,
        rows: [
          [1, b!.name, 70, 1],
          [2, c!.name, 60, 1],
          [3, a!.name, 50, 1],
        ],
      };
      for (const period of ['all', 'week', 'day']) expect(await board(h, s.slug, period), period).toEqual(expected);
      const mine = await h.http.get(`/v1/games/${s.slug}/leaderboard/me`, { token: d!.token });
      expect(mine.body.data).toMatchObject({ rank: null });
      expect(await h.ctx.db.selectFrom('scores').select('id').where('player_id', '=', d!.id).execute()).toEqual([]);
    });

    it('refuses a removal without a reason, with both or neither target, and of nothing', async () => {
      const url = `/v1/studio/games/${s.slug}/scores/removals`;
      const [a] = s.players;
      const id = await scoreId(a!.id, 50);
      for (const body of [
        { score_id: id },
        { score_id: id, reason: '' },
        { reason: 'why not' },
        { score_id: id, player_id: a!.id, board: 'main', reason: 'both' },
        { player_id: a!.id, reason: 'no board' },
      ]) {
        const res = await h.http.post(url, { token: s.member, body });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.error.code).toBe('validation_failed');
      }
      const none = await h.http.post(url, { token: s.member, body: { score_id: 999999, reason: 'nothing' } });
      expect(none.status).toBe(404);
      const nobody = await h.http.post(url, {
        token: s.member,
        body: { player_id: a!.id, board: 'other', reason: 'no scores' },
      });
      expect(nobody.status).toBe(404);
    });
  });

  describe('the audit log and who reaches it', () => {
    it('keeps each removal with who, why and the removed scores, newest first, searchable', async () => {
      const res = await h.http.get(`/v1/studio/studios/${s.studio}/audit`, { token: s.member });
      expect(res.status, res.text).toBe(200);
      const entries = res.body.data.entries;
      expect(entries.map((e: { action: string; reason: string }) => [e.action, e.reason])).toEqual([
        ['score.remove_player', 'cheating client'],
        ['score.remove', 'impossible score'],
      ]);
      expect(entries[0].actor.name).toBe(s.memberName);
      expect(entries[1].before.scores[0].score).toBe(90);
      const found = await h.http.get(`/v1/studio/studios/${s.studio}/audit?q=impossible`, { token: s.member });
      expect(found.body.data.entries).toHaveLength(1);
    });

    it('refuses everyone outside the studio with 404, and changes nothing', async () => {
      const [a] = s.players;
      const id = await scoreId(a!.id, 50);
      const removal = await h.http.post(`/v1/studio/games/${s.slug}/scores/removals`, {
        token: s.outsider,
        body: { score_id: id, reason: 'not mine' },
      });
      expect(removal.status).toBe(404);
      expect((await h.http.get(`/v1/studio/studios/${s.studio}/audit`, { token: s.outsider })).status).toBe(404);
      expect((await h.http.get(`/v1/studio/studios/${s.studio}/audit`, { token: a!.token })).status).toBe(404);
      expect((await board(h, s.slug)).total).toBe(3);
    });
  });
});
