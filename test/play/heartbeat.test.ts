// POST /v1/play/heartbeat: the credit rule, ownership, closed and idle sessions.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createKey, createPlayerWithToken } from '../helpers/factories.js';
import { at, gameStats, playApi, playing, sessionRow, setUsage, usage } from './play-helpers.js';

eachDialect('play: POST /play/heartbeat', (h) => {
  const api = playApi(h);

  it('credits the seconds since the last credit to the session, the day and the game', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    const first = await api.heartbeat(p.token, p.session);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      credited_seconds: 30,
      session_seconds: 30,
      limit_reached: false,
      entitlement: {
        unlimited: false,
        allowance_seconds: 900,
        used_seconds: 30,
        remaining_seconds: 870,
        limit_reached: false,
        resets_in_seconds: 12 * 3600 - 30,
        day: '2026-06-01',
      },
    });
    h.clock.advance(30);
    const second = (await api.heartbeat(p.token, p.session)).body.data;
    expect(second).toMatchObject({ credited_seconds: 60, session_seconds: 60, entitlement: { used_seconds: 60 } });
    expect(await sessionRow(h, p.session)).toMatchObject({
      credited_seconds: 60,
      last_heartbeat_at: h.clock.now(),
      credited_until: h.clock.now(),
    });
    expect(await usage(h, p.player.id, '2026-06-01')).toEqual({ seconds: 60, sessions: 1 });
    expect(await gameStats(h, p.game.id)).toEqual({ plays: 1, playtime_seconds: 60 });
  });

  it('credits at most max_heartbeat_gap after a long silence', async () => {
    const p = await playing(h);
    h.clock.advance(200);
    expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
      credited_seconds: 90,
      session_seconds: 200,
    });
    h.clock.advance(30);
    expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
      credited_seconds: 120,
      session_seconds: 230,
    });
  });

  it('credits whole seconds and keeps the fractions for later', async () => {
    const p = await playing(h);
    h.clock.advance(30.6);
    expect((await api.heartbeat(p.token, p.session)).body.data.credited_seconds).toBe(30);
    h.clock.advance(30.6);
    expect((await api.heartbeat(p.token, p.session)).body.data.credited_seconds).toBe(61);
  });

  it('credits nothing for a heartbeat right after another (under a second since the last credit), and keeps the session alive', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    h.clock.advance(0.7);
    const again = await api.heartbeat(p.token, p.session);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      credited_seconds: 30,
      session_seconds: 30,
      limit_reached: false,
      entitlement: { used_seconds: 30 },
    });
    const credited = at('2026-06-01T10:00:30Z');
    expect(await sessionRow(h, p.session)).toMatchObject({
      status: 'active',
      credited_seconds: 30,
      credited_until: credited,
      last_heartbeat_at: h.clock.now(),
    });
    expect(await usage(h, p.player.id, '2026-06-01')).toEqual({ seconds: 30, sessions: 1 });
    expect(await gameStats(h, p.game.id)).toEqual({ plays: 1, playtime_seconds: 30 });
    // The fraction is credited later, with the next whole second.
    h.clock.advance(0.5);
    expect((await api.heartbeat(p.token, p.session)).body.data.credited_seconds).toBe(31);
  });

  it('answers 404 not_found for an unknown session', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    for (const session of ['ps_unknown', 'anything']) {
      const res = await api.heartbeat(token, session);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it("answers 404 for another player's session, exactly like an unknown one, and neither credits nor keeps it alive", async () => {
    const p = await playing(h);
    const intruder = await createPlayerWithToken(h.ctx);
    h.clock.advance(30);
    const res = await api.heartbeat(intruder.token, p.session);
    const unknown = await api.heartbeat(intruder.token, 'ps_unknown');
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual(unknown.body.error);
    expect(await sessionRow(h, p.session)).toMatchObject({
      credited_seconds: 0,
      last_heartbeat_at: h.clock.now() - 30_000,
    });
    expect((await usage(h, intruder.player.id, new Date(h.clock.now()).toISOString().slice(0, 10))).seconds).toBe(0);
  });

  it('answers 410 session_ended for an ended session', async () => {
    const p = await playing(h);
    await api.end(p.token, p.session);
    h.clock.advance(30);
    const res = await api.heartbeat(p.token, p.session);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('session_ended');
  });

  it('says in the 410 why the session closed: replaced (started elsewhere), timeout, limit or the reason of its end', async () => {
    h.clock.set('2026-06-04T10:00:00Z');
    const reasonOf = async (token: string, session: string) => {
      const res = await api.heartbeat(token, session);
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('session_ended');
      return res.body.error.reason;
    };
    const p = await playing(h);
    const other = (await api.start(p.token, p.game.slug)).body.data.session;
    expect(await reasonOf(p.token, p.session)).toBe('replaced');
    await api.end(p.token, other, 'navigate');
    expect(await reasonOf(p.token, other)).toBe('navigate');
    const third = (await api.start(p.token, p.game.slug)).body.data.session;
    h.clock.advance(h.ctx.config.session_idle_timeout);
    expect(await reasonOf(p.token, third)).toBe('timeout');
    expect(await reasonOf(p.token, third)).toBe('timeout'); // and again, once closed
    await setUsage(h, p.player.id, '2026-06-04', 890);
    const last = (await api.start(p.token, p.game.slug)).body.data.session;
    h.clock.advance(20);
    expect((await api.heartbeat(p.token, last)).body.data.limit_reached).toBe(true);
    expect(await reasonOf(p.token, last)).toBe('limit');
  });

  it('closes a session idle for session_idle_timeout on its next heartbeat (410), crediting nothing for the silence', async () => {
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    const heardAt = h.clock.now();
    h.clock.advance(300);
    const res = await api.heartbeat(p.token, p.session);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('session_ended');
    expect(await sessionRow(h, p.session)).toMatchObject({
      status: 'closed',
      end_reason: 'timeout',
      ended_at: heardAt,
      credited_seconds: 30,
    });
    expect((await api.entitlement(p.token)).body.data.used_seconds).toBe(30);
    expect((await api.heartbeat(p.token, p.session)).status).toBe(410);
  });

  it('keeps a session alive just short of the idle timeout', async () => {
    const p = await playing(h);
    h.clock.advance(299);
    expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
      credited_seconds: 90,
      limit_reached: false,
    });
  });

  it('counts the time of Unlimited members and staff without a cap', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    for (const options of [
      { membership_plan: 'unlimited', membership_status: 'active' },
      { role: 'staff' },
      { role: 'admin' },
    ]) {
      const p = await playing(h, options);
      await setUsage(h, p.player.id, '2026-06-02', 899);
      h.clock.advance(30);
      const res = await api.heartbeat(p.token, p.session);
      expect(res.body.data).toMatchObject({
        credited_seconds: 30,
        limit_reached: false,
        entitlement: { unlimited: true, used_seconds: 929, remaining_seconds: null, limit_reached: false },
      });
      expect((await sessionRow(h, p.session)).status).toBe('active');
    }
  });

  it('limits a member whose canceled membership ran out during the session', async () => {
    h.clock.set('2026-06-03T10:00:00Z');
    const p = await playing(h, {
      membership_plan: 'unlimited',
      membership_status: 'canceled',
      membership_ends_at: Date.parse('2026-06-03T10:01:00Z'),
    });
    await setUsage(h, p.player.id, '2026-06-03', 2000);
    h.clock.advance(30);
    expect((await api.heartbeat(p.token, p.session)).body.data).toMatchObject({
      limit_reached: false,
      entitlement: { unlimited: true, used_seconds: 2030 },
    });
    h.clock.advance(40);
    const res = await api.heartbeat(p.token, p.session);
    expect(res.body.data).toMatchObject({
      credited_seconds: 30,
      limit_reached: true,
      entitlement: { unlimited: false, used_seconds: 2030, remaining_seconds: 0 },
    });
    expect(await sessionRow(h, p.session)).toMatchObject({ status: 'closed', end_reason: 'limit' });
  });

  it('refuses a developer key with 403 and validates the body with 422', async () => {
    const p = await playing(h);
    const { key } = await createKey(h.ctx, p.game.id, ['stats:read']);
    expect((await api.heartbeat(key, p.session)).body.error.code).toBe('forbidden');
    const res = await h.http.post('/v1/play/heartbeat', { token: p.token, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ session: 'is required' });
  });

  it('does not keep a session alive through GET /me/entitlement', async () => {
    const p = await playing(h);
    h.clock.advance(30);
    await api.heartbeat(p.token, p.session);
    for (let i = 0; i < 5; i++) {
      h.clock.advance(60);
      expect((await api.entitlement(p.token)).status).toBe(200);
    }
    expect((await sessionRow(h, p.session)).last_heartbeat_at).toBe(h.clock.now() - 300_000);
    expect((await api.heartbeat(p.token, p.session)).status).toBe(410);
  });
});
