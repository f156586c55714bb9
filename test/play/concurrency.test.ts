// Races: heartbeats, ends and starts fired at once credit each interval once and leave one active session per game.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { heartbeat } from '../../src/modules/play/play.service.js';
import { asPlayer, createGame, createPlayerWithToken } from '../helpers/factories.js';
import { gameStats, playApi, playing, sessionRow, usage } from './play-helpers.js';

eachDialect('play: concurrent calls', (h) => {
  const api = playApi(h);

  it('credits an interval once when 20 heartbeats of one session arrive at once', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.heartbeat(p.token, p.session)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.every((r) => r.body.data.credited_seconds === 30)).toBe(true);
    expect((await sessionRow(h, p.session)).credited_seconds).toBe(30);
    expect((await usage(h, p.player.id, '2026-06-01')).seconds).toBe(30);
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(30);
    expect((await api.entitlement(p.token)).body.data.used_seconds).toBe(30);
  });

  it('credits an interval once when 20 heartbeats of one session reach the database at once (no HTTP, no credential read between)', async () => {
    h.clock.set('2026-06-01T11:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => heartbeat(h.ctx, asPlayer(p.player.id), p.session)),
    );
    expect(results.every((r) => r.credited_seconds === 30)).toBe(true);
    expect((await sessionRow(h, p.session)).credited_seconds).toBe(30);
    expect((await usage(h, p.player.id, '2026-06-01')).seconds).toBe(30);
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(30);
  });

  it('credits an interval once when heartbeats and ends of one session race', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(45);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? api.end(p.token, p.session) : api.heartbeat(p.token, p.session))),
    );
    const ends = results.filter((_, i) => i % 2);
    expect(
      ends.every((r) => r.status === 200 && r.body.data.credited_seconds === 45 && r.body.data.reason === 'quit'),
    ).toBe(true);
    // a heartbeat that ran after an end finds the session closed
    expect(results.filter((_, i) => i % 2 === 0).every((r) => r.status === 200 || r.status === 410)).toBe(true);
    expect(await sessionRow(h, p.session)).toMatchObject({ status: 'closed', credited_seconds: 45 });
    expect((await usage(h, p.player.id, '2026-06-02')).seconds).toBe(45);
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(45);
  });

  it('leaves one active session when the same game is started several times at once', async () => {
    h.clock.set('2026-06-03T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx);
    const results = await Promise.all(Array.from({ length: 6 }, () => api.start(token, game.slug)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const rows = await h.ctx.db
      .selectFrom('play_sessions')
      .select(['status', 'end_reason'])
      .where('player_id', '=', player.id)
      .execute();
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.status === 'active')).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'closed').every((r) => r.end_reason === 'replaced')).toBe(true);
    // Each start after the first took over a still-active session: one play, six sessions.
    expect((await gameStats(h, game.id)).plays).toBe(1);
    expect((await usage(h, player.id, '2026-06-03')).sessions).toBe(6);
  });

  it('keeps the day counter and the sessions equal when many sessions of one player credit at once', async () => {
    h.clock.set('2026-06-04T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    const sessions: string[] = [];
    for (let i = 0; i < 12; i++)
      sessions.push((await api.start(token, (await createGame(h.ctx)).slug)).body.data.session);
    for (let round = 0; round < 3; round++) {
      h.clock.advance(29);
      await Promise.all(sessions.flatMap((s) => [api.heartbeat(token, s), api.heartbeat(token, s)]));
    }
    // 12 sessions x 87 s = 1044 s played, 900 allowed
    const rows = await Promise.all(sessions.map((s) => sessionRow(h, s)));
    expect((await usage(h, player.id, '2026-06-04')).seconds).toBe(900);
    expect(rows.reduce((n, r) => n + r.credited_seconds, 0)).toBe(900);
  });
});
