// POST /v1/play/end: credits like a heartbeat, closes, and returns the same summary when called again.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayerWithToken } from '../helpers/factories.js';
import { gameStats, playApi, playing, sessionRow, usage } from './play-helpers.js';

eachDialect('play: POST /play/end', (h) => {
  const api = playApi(h);

  it('credits the time since the last heartbeat, closes the session and returns its summary', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    h.clock.advance(20);
    const res = await api.end(p.token, p.session);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      session: p.session,
      game: p.game.slug,
      started_at: '2026-06-01 10:00:00',
      ended_at: '2026-06-01 10:00:50',
      session_seconds: 50,
      credited_seconds: 50,
      reason: 'quit',
      entitlement: expect.objectContaining({ used_seconds: 50, remaining_seconds: 850 }),
    });
    expect(await sessionRow(h, p.session)).toMatchObject({
      status: 'closed',
      end_reason: 'quit',
      credited_seconds: 50,
      ended_at: h.clock.now(),
    });
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(50);
    expect((await api.heartbeat(p.token, p.session)).status).toBe(410);
  });

  it('returns the same summary when called again, and credits nothing', async () => {
    const p = await playing(h);
    h.clock.advance(40);
    const first = await api.end(p.token, p.session, 'navigate');
    h.clock.advance(60);
    const second = await api.end(p.token, p.session, 'error');
    expect(second.status).toBe(200);
    const { entitlement: e1, ...summary1 } = first.body.data;
    const { entitlement: e2, ...summary2 } = second.body.data;
    expect(summary2).toEqual(summary1);
    expect(summary2).toMatchObject({ reason: 'navigate', credited_seconds: 40, session_seconds: 40 });
    expect(e2.used_seconds).toBe(e1.used_seconds);
    expect((await gameStats(h, p.game.id)).playtime_seconds).toBe(40);
  });

  it('accepts the reasons quit, navigate, hidden and error, and refuses others with 422', async () => {
    for (const reason of ['quit', 'navigate', 'hidden', 'error']) {
      const p = await playing(h);
      expect((await api.end(p.token, p.session, reason)).body.data.reason).toBe(reason);
    }
    const p = await playing(h);
    for (const reason of ['limit', 'timeout', 'replaced', 'bored']) {
      const res = await api.end(p.token, p.session, reason);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields)).toEqual(['reason']);
    }
    expect((await sessionRow(h, p.session)).status).toBe('active');
  });

  it('credits at most max_heartbeat_gap', async () => {
    const p = await playing(h);
    h.clock.advance(250);
    expect((await api.end(p.token, p.session)).body.data).toMatchObject({ credited_seconds: 90, session_seconds: 250 });
  });

  it('summarises a session the limit closed, with reason limit', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const p = await playing(h);
    await h.ctx.db
      .insertInto('daily_usage')
      .values({ player_id: p.player.id, day: '2026-06-02', seconds: 880 })
      .onConflict((oc) => oc.columns(['player_id', 'day']).doUpdateSet({ seconds: 880 }))
      .execute();
    h.clock.advance(30);
    expect((await api.heartbeat(p.token, p.session)).body.data.limit_reached).toBe(true);
    h.clock.advance(5);
    const res = await api.end(p.token, p.session);
    expect(res.body.data).toMatchObject({
      reason: 'limit',
      credited_seconds: 20,
      session_seconds: 30,
      entitlement: { limit_reached: true },
    });
  });

  it('closes an idle session with reason timeout, crediting nothing for the silence', async () => {
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    h.clock.advance(400);
    const res = await api.end(p.token, p.session);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ reason: 'timeout', credited_seconds: 30, session_seconds: 30 });
    expect(await sessionRow(h, p.session)).toMatchObject({ status: 'closed', end_reason: 'timeout' });
  });

  it('summarises a replaced session with reason replaced', async () => {
    const p = await playing(h);
    h.clock.advance(10);
    await api.start(p.token, p.game.slug);
    expect((await api.end(p.token, p.session)).body.data).toMatchObject({ reason: 'replaced', credited_seconds: 10 });
  });

  it("answers 404 for an unknown session and for another player's, leaving it open", async () => {
    const p = await playing(h);
    const intruder = await createPlayerWithToken(h.ctx);
    expect((await api.end(intruder.token, 'ps_unknown')).status).toBe(404);
    const res = await api.end(intruder.token, p.session);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await sessionRow(h, p.session)).status).toBe('active');
    expect((await usage(h, intruder.player.id, '2026-06-01')).seconds).toBe(0);
  });
});
