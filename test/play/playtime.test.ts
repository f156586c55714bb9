// GET /v1/me/entitlement and GET /v1/me/playtime.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { playApi, playing, setUsage } from './play-helpers.js';

eachDialect('play: GET /me/entitlement and /me/playtime', (h) => {
  const api = playApi(h);

  it("returns a free player's entitlement", async () => {
    h.clock.set('2026-11-21T09:30:00Z'); // 10:30 in Berlin
    const { player, token } = await createPlayerWithToken(h.ctx);
    await setUsage(h, player.id, '2026-11-21', 300);
    await setUsage(h, player.id, '2026-11-20', 900);
    const res = await api.entitlement(token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      unlimited: false,
      allowance_seconds: 900,
      used_seconds: 300,
      remaining_seconds: 600,
      limit_reached: false,
      resets_in_seconds: 13.5 * 3600,
      day: '2026-11-21',
    });
  });

  it('gives GET /me the same entitlement, counted by play', async () => {
    h.clock.set('2026-11-21T09:30:00Z');
    const p = await playing(h);
    h.clock.advance(45);
    await api.heartbeat(p.token, p.session);
    const own = await api.entitlement(p.token);
    expect(own.body.data).toMatchObject({ used_seconds: 45, remaining_seconds: 855 });
    const me = await h.http.get('/v1/me', { token: p.token });
    expect(me.status).toBe(200);
    expect(me.body.data.entitlement).toEqual(own.body.data);
  });

  it('returns remaining_seconds null for Unlimited members and staff, with their use counted', async () => {
    h.clock.set('2026-11-21T09:30:00Z');
    for (const options of [{ membership_plan: 'unlimited', membership_status: 'active' }, { role: 'staff' }]) {
      const { player, token } = await createPlayerWithToken(h.ctx, options);
      await setUsage(h, player.id, '2026-11-21', 1200);
      expect((await api.entitlement(token)).body.data).toMatchObject({
        unlimited: true,
        used_seconds: 1200,
        remaining_seconds: null,
        limit_reached: false,
      });
    }
  });

  it('refuses a developer key with 403 and a missing credential with 401', async () => {
    const { key } = await createKey(h.ctx, (await createGame(h.ctx)).id, ['players:read']);
    expect((await api.entitlement(key)).status).toBe(403);
    expect((await h.http.get('/v1/me/entitlement')).status).toBe(401);
    expect((await api.playtime(key)).status).toBe(403);
  });

  it('lists 14 days by default, newest first, days without play as zeros', async () => {
    h.clock.set('2026-11-21T09:30:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    await setUsage(h, player.id, '2026-11-21', 120);
    await setUsage(h, player.id, '2026-11-19', 900);
    await setUsage(h, player.id, '2026-11-08', 60); // the 14th day back
    await setUsage(h, player.id, '2026-11-07', 500); // outside the window
    const { player: other } = await createPlayerWithToken(h.ctx);
    await setUsage(h, other.id, '2026-11-20', 77);
    const res = await api.playtime(token);
    expect(res.status).toBe(200);
    const { today, total_seconds, history } = res.body.data;
    expect(today).toMatchObject({ day: '2026-11-21', used_seconds: 120, remaining_seconds: 780 });
    expect(total_seconds).toBe(1080);
    expect(history).toHaveLength(14);
    expect(history[0]).toEqual({ day: '2026-11-21', seconds: 120, sessions: 1 });
    expect(history[1]).toEqual({ day: '2026-11-20', seconds: 0, sessions: 0 });
    expect(history[2]).toEqual({ day: '2026-11-19', seconds: 900, sessions: 1 });
    expect(history[13]).toEqual({ day: '2026-11-08', seconds: 60, sessions: 1 });
  });

  it('takes days from 1 to 365 and spans the clock changes day by day', async () => {
    h.clock.set('2026-11-21T09:30:00Z');
    const { token } = await createPlayerWithToken(h.ctx);
    const one = (await api.playtime(token, 1)).body.data;
    expect(one.history).toEqual([{ day: '2026-11-21', seconds: 0, sessions: 0 }]);
    const year = (await api.playtime(token, 365)).body.data.history as Array<{ day: string }>;
    expect(year).toHaveLength(365);
    expect(year[364]!.day).toBe('2025-11-22');
    expect(new Set(year.map((d) => d.day)).size).toBe(365);
    expect(year.map((d) => d.day)).toContain('2026-03-29');
    expect(year.map((d) => d.day)).toContain('2026-10-25');
  });

  it.each(['0', '366', '-1', 'abc', '1.5', ''])('refuses days=%s with 422 validation_failed', async (days) => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await h.http.get(`/v1/me/playtime?days=${days}`, { token });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toEqual(['days']);
  });
});
