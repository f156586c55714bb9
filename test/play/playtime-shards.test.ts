// A game's playtime is credited to shards (game_playtime, one row per session id modulo PLAYTIME_SHARDS) and read as
// the game's own column plus its shards, wherever a Game's stats are shown.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { PLAYTIME_SHARDS } from '../../src/modules/games/playtime.repository.js';
import { gameStats, playApi, playing, sessionRow } from './play-helpers.js';
import { createPlayerWithToken } from '../helpers/factories.js';

eachDialect("play: a game's playtime in shards", (h) => {
  const api = playApi(h);

  const shards = (gameId: number) =>
    h.ctx.db
      .selectFrom('game_playtime')
      .select(['shard', 'seconds'])
      .where('game_id', '=', gameId)
      .orderBy('shard')
      .execute()
      .then((rows) => rows.map((r) => ({ shard: Number(r.shard), seconds: Number(r.seconds) })));

  it("credits each session's seconds to its shard, and shows the column plus the shards as the game's playtime", async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    // 1.5 hours credited before the shards existed stay in the game's column
    const first = await playing(h, {}, { playtime_seconds: 5400 });
    const other = await createPlayerWithToken(h.ctx);
    const second = (await api.start(other.token, first.game.slug)).body.data.session as string;
    for (let beat = 0; beat < 4; beat++) {
      h.clock.advance(90);
      expect((await api.heartbeat(first.token, first.session)).status).toBe(200);
      expect((await api.heartbeat(other.token, second)).status).toBe(200);
    }
    const ids = [(await sessionRow(h, first.session)).id, (await sessionRow(h, second)).id];
    expect(ids[0]! % PLAYTIME_SHARDS).not.toBe(ids[1]! % PLAYTIME_SHARDS);
    expect(await shards(first.game.id)).toEqual(
      ids.map((id) => ({ shard: id % PLAYTIME_SHARDS, seconds: 360 })).sort((a, b) => a.shard - b.shard),
    );
    const row = await h.ctx.db
      .selectFrom('games')
      .select('playtime_seconds')
      .where('id', '=', first.game.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.playtime_seconds)).toBe(5400);
    expect(await gameStats(h, first.game.id)).toEqual({ plays: 2, playtime_seconds: 6120 });

    // 6,120 s is 1.7 hours: the catalogue, the game, and the player's recent games all count the shards
    const stats = { plays: 2, playtime_hours: 1.7 };
    const listed = (await h.http.get('/v1/games')).body.data.games.find(
      (g: { slug: string }) => g.slug === first.game.slug,
    );
    expect(listed.stats).toEqual(stats);
    expect((await h.http.get(`/v1/games/${first.game.slug}`)).body.data.stats).toEqual(stats);
    const recent = (await h.http.get('/v1/me/recent', { token: first.token })).body.data.recent;
    expect(recent[0].game).toMatchObject({ slug: first.game.slug, stats });
  });

  it("credits an end's last seconds to the session's shard", async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    h.clock.advance(15);
    expect((await api.end(p.token, p.session)).status).toBe(200);
    const { id } = await sessionRow(h, p.session);
    expect(await shards(p.game.id)).toEqual([{ shard: id % PLAYTIME_SHARDS, seconds: 45 }]);
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(45);
  });
});
