// Board seasons: a studio member ends a board's season; its standings read back with the ranks as they stood, every
// period of the live board starts empty and takes new scores (a rebuild never brings an ended season's scores back),
// with an audit entry; nobody outside the studio starts one.
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { createStudio, createStudioGame, memberOf } from '../helpers/studios.js';

type Row = { rank: number; score: number; entries: number; player: { username: string } };

async function read(h: Harness, slug: string, query: Record<string, string | number> = {}, token?: string) {
  const res = await h.http.get(`/v1/games/${slug}/leaderboard`, { query: { limit: 100, ...query }, token });
  expect(res.status, res.text).toBe(200);
  return {
    total: res.body.meta.total as number,
    season: res.body.meta.season as number | undefined,
    offset: res.body.meta.offset as number,
    me: res.body.data.me as { rank: number | null; best: number | null } | undefined,
    rows: (res.body.data.leaderboard as Row[]).map((r) => [r.rank, r.player.username, r.score, r.entries]),
  };
}

eachDialect('studios: board seasons', (h) => {
  const s = {} as {
    slug: string;
    studio: string;
    member: string;
    outsider: string;
    players: Array<{ token: string; id: number; name: string }>;
  };
  const submit = async (p: { token: string }, score: number) => {
    const res = await h.http.post(`/v1/games/${s.slug}/scores`, { token: p.token, body: { score } });
    expect(res.status, res.text).toBe(201);
    h.clock.advance(60);
    return res.body.data;
  };
  const newSeason = (token: string | undefined, board = 'main', slug = s.slug) =>
    h.http.post(`/v1/studio/games/${slug}/leaderboards/${board}/seasons`, { token });

  beforeAll(async () => {
    h.clock.set('2026-11-20T10:00:00Z');
    const studio = await createStudio(h.ctx);
    const other = await createStudio(h.ctx);
    s.studio = studio.slug;
    s.member = (await memberOf(h.ctx, studio.id, 'developer')).token;
    s.outsider = (await memberOf(h.ctx, other.id, 'owner')).token;
    s.slug = (await createStudioGame(h.ctx, studio.id, { status: 'published', files_dir: 'x', cover: 'c.png' })).slug;
    s.players = [];
    for (let i = 0; i < 5; i++) {
      const p = await createPlayerWithToken(h.ctx);
      s.players.push({ token: p.token, id: p.player.id, name: p.player.username });
    }
    const [a, b, c, d, e] = s.players;
    await submit(a!, 50);
    await submit(b!, 70);
    await submit(c!, 70); // a tie: b reached 70 first
    await submit(d!, 80);
    await submit(a!, 90);
    await submit(e!, 10);
    await submit(d!, 60);
  });

  it('refuses anyone outside the studio as the other studio routes do, and a board without a score', async () => {
    const player = await createPlayerWithToken(h.ctx);
    expect((await newSeason(undefined)).status).toBe(401);
    expect((await newSeason(s.outsider)).status).toBe(404);
    expect((await newSeason(player.token)).status).toBe(404);
    expect((await newSeason(s.member, 'main', 'no-such-game')).status).toBe(404);
    const none = await newSeason(s.member, 'never-scored');
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('not_found');
    expect(await h.ctx.db.selectFrom('leaderboard_seasons').selectAll().execute()).toEqual([]);
    expect((await read(h, s.slug)).total).toBe(5);
  });

  describe('a new season', () => {
    let before: Awaited<ReturnType<typeof read>>;
    let mine: Awaited<ReturnType<typeof read>>;

    it('keeps the ended season with every rank as it stood, and empties every period of the live board', async () => {
      const [a, b, c, d, e] = s.players;
      before = await read(h, s.slug);
      expect(before.rows).toEqual([
        [1, a!.name, 90, 2],
        [2, d!.name, 80, 2],
        [3, b!.name, 70, 1],
        [4, c!.name, 70, 1],
        [5, e!.name, 10, 1],
      ]);
      mine = await read(h, s.slug, {}, c!.token);
      const res = await newSeason(s.member);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data).toEqual({
        board: 'main',
        ended: { season: 1, started_at: null, ended_at: '2026-11-20 10:07:00', players: 5 },
        live_season: 2,
      });

      const ended = await read(h, s.slug, { season: 1 });
      expect(ended).toMatchObject({ rows: before.rows, total: 5, season: 1 });
      expect((await read(h, s.slug, { season: 1 }, c!.token)).me).toEqual(mine.me);
      expect((await read(h, s.slug, { season: 1, offset: 2, limit: 2 })).rows).toEqual(before.rows.slice(2, 4));
      const around = await read(h, s.slug, { season: 1, around: 'me', limit: 3 }, e!.token);
      expect(around).toMatchObject({ offset: 2, me: { rank: 5, best: 10 } });
      expect(around.rows).toEqual(before.rows.slice(2));

      for (const period of ['all', 'month', 'week', 'day'])
        expect(await read(h, s.slug, { period }), period).toMatchObject({ rows: [], total: 0 });
      expect(await read(h, s.slug, { season: 2 })).toMatchObject({ rows: [], total: 0, season: 2 });
      const me = await h.http.get(`/v1/games/${s.slug}/leaderboard/me`, { token: a!.token });
      expect(me.body.data).toMatchObject({ rank: null, best: null, entries: 0 });
    });

    it('answers 404 for a season not begun, and 422 for a season with another period', async () => {
      const later = await h.http.get(`/v1/games/${s.slug}/leaderboard`, { query: { season: 3 } });
      expect(later.status).toBe(404);
      expect(later.body.error.code).toBe('not_found');
      const day = await h.http.get(`/v1/games/${s.slug}/leaderboard`, { query: { season: 1, period: 'day' } });
      expect(day.status).toBe(422);
      expect(day.body.error.fields).toHaveProperty('season');
    });

    it('takes new scores on the live board; a rebuild counts the live season only', async () => {
      const [a, b, c] = s.players;
      const first = await submit(c!, 20);
      expect(first).toMatchObject({ rank: { rank: 1, best: 20 }, personal_best: true });
      await submit(a!, 30);
      await submit(a!, 40);
      expect((await read(h, s.slug)).rows).toEqual([
        [1, a!.name, 40, 2],
        [2, c!.name, 20, 1],
      ]);
      expect((await read(h, s.slug, { period: 'day' })).total).toBe(2);
      // A new day's board is filled from the submissions of its window in the live season.
      h.clock.advance(86_400);
      await submit(b!, 5);
      expect((await read(h, s.slug, { period: 'day' })).rows).toEqual([[1, b!.name, 5, 1]]);
      // Removing a's 40 rebuilds the boards from the live season: a's 90 of season 1 stays out.
      const id = (
        await h.ctx.db
          .selectFrom('scores')
          .select('id')
          .where('player_id', '=', a!.id)
          .where('score', '=', 40)
          .executeTakeFirstOrThrow()
      ).id;
      const removed = await h.http.post(`/v1/studio/games/${s.slug}/scores/removals`, {
        token: s.member,
        body: { score_id: id, reason: 'testing seasons' },
      });
      expect(removed.status, removed.text).toBe(200);
      expect((await read(h, s.slug)).rows).toEqual([
        [1, a!.name, 30, 1],
        [2, c!.name, 20, 1],
        [3, b!.name, 5, 1],
      ]);
      // The ended season is a snapshot: nothing changes it.
      expect((await read(h, s.slug, { season: 1 })).rows).toEqual(before.rows);
    });

    it('ends the next season too, lists the seasons, and records each in the audit log', async () => {
      const live = await read(h, s.slug);
      const res = await newSeason(s.member);
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.ended).toMatchObject({ season: 2, started_at: '2026-11-20 10:07:00', players: 3 });
      expect((await read(h, s.slug, { season: 2 })).rows).toEqual(live.rows);
      expect((await read(h, s.slug, { season: 1 })).rows).toEqual(before.rows);
      const list = await h.http.get(`/v1/games/${s.slug}/leaderboard/seasons`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.data).toMatchObject({
        board: 'main',
        live_season: 3,
        live_since: res.body.data.ended.ended_at,
        seasons: [
          { season: 2, players: 3 },
          { season: 1, players: 5, started_at: null },
        ],
      });
      const audit = await h.http.get(`/v1/studio/studios/${s.studio}/audit`, {
        token: s.member,
        query: { action: 'leaderboard.new_season' },
      });
      expect(audit.body.data.entries).toEqual([
        expect.objectContaining({
          target: { type: 'board', id: `${s.slug}/main` },
          before: { season: 2, players: 3 },
          after: { season: 3 },
        }),
        expect.objectContaining({ before: { season: 1, players: 5 }, after: { season: 2 } }),
      ]);
    });
  });
});
