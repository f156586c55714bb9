// POST /v1/play/start: the session it creates, the order of its checks, premium gating, the allowance, replacing a session.
import { expect, it } from 'vitest';
import { sha256 } from '../../src/lib/secrets.js';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { at, gameStats, playApi, playing, sessionRow, setUsage, usage } from './play-helpers.js';

eachDialect('play: POST /play/start', (h) => {
  const api = playApi(h);

  it('starts a session and returns its token, the game, the start, the heartbeat interval, the entry URL and the entitlement', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx, { entry: 'build/index.html' });
    const res = await api.start(token, game.slug);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toEqual({
      session: expect.stringMatching(/^ps_[0-9A-Za-z]{40,}$/),
      game: game.slug,
      started_at: '2026-06-01 10:00:00',
      heartbeat_interval: 30,
      // On the game's own origin, in its current file set: no redirect before the game loads.
      entry_url: `http://${game.slug}.games.localhost:8080/~${game.files_dir}/build/index.html?session=${data.session}`,
      entitlement: {
        unlimited: false,
        allowance_seconds: 900,
        used_seconds: 0,
        remaining_seconds: 900,
        limit_reached: false,
        resets_in_seconds: 12 * 3600,
        day: '2026-06-01',
      },
    });
    const row = await sessionRow(h, data.session);
    expect(row).toMatchObject({
      player_id: player.id,
      game_id: game.id,
      status: 'active',
      credited_seconds: 0,
      end_reason: null,
    });
    expect(row.token_hash).toBe(sha256(data.session));
    expect(await gameStats(h, game.id)).toEqual({ plays: 1, playtime_seconds: 0 });
    expect(await usage(h, player.id, '2026-06-01')).toEqual({ seconds: 0, sessions: 1 });
  });

  it('counts every start in the game stats and the day, also for several games', async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    const [a, b] = [await createGame(h.ctx), await createGame(h.ctx)];
    const first = await api.start(token, a.slug);
    expect((await api.start(token, b.slug)).status).toBe(200);
    await api.end(token, first.body.data.session); // so that the next start of a is a new play, not a takeover
    expect((await api.start(token, a.slug)).status).toBe(200);
    expect((await gameStats(h, a.id)).plays).toBe(2);
    expect((await gameStats(h, b.id)).plays).toBe(1);
    expect((await usage(h, player.id, '2026-06-02')).sessions).toBe(3);
  });

  it('answers 404 not_found for an unknown game and for games that are not listed', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    expect((await api.start(token, 'no-such-game')).body.error.code).toBe('not_found');
    for (const status of ['draft', 'retired']) {
      const game = await createGame(h.ctx, { status });
      const res = await api.start(token, game.slug);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const beta = await createGame(h.ctx, { status: 'beta' });
    expect((await api.start(token, beta.slug)).status).toBe(200);
  });

  it('answers 402 premium_required for a free player on a premium game, and creates nothing', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx, { requires_premium: 1 });
    const res = await api.start(token, game.slug);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('premium_required');
    expect(
      await h.ctx.db.selectFrom('play_sessions').select('id').where('player_id', '=', player.id).execute(),
    ).toEqual([]);
    expect((await gameStats(h, game.id)).plays).toBe(0);
  });

  it('lets Unlimited members, staff and admins start a premium game', async () => {
    const game = await createGame(h.ctx, { requires_premium: 1 });
    const ahead = h.clock.now() + 86_400_000;
    for (const options of [
      { membership_plan: 'unlimited', membership_status: 'active' },
      { membership_plan: 'unlimited', membership_status: 'active', membership_ends_at: ahead },
      { membership_plan: 'unlimited', membership_status: 'canceled', membership_ends_at: ahead },
      { role: 'staff' },
      { role: 'admin' },
    ]) {
      const { token } = await createPlayerWithToken(h.ctx, options);
      const res = await api.start(token, game.slug);
      expect(res.status, JSON.stringify(options)).toBe(200);
      expect(res.body.data.entitlement).toMatchObject({
        unlimited: true,
        remaining_seconds: null,
        limit_reached: false,
      });
    }
  });

  it('runs a canceled membership until ends_at, then refuses premium games with 402', async () => {
    h.clock.set('2026-06-03T10:00:00Z');
    const endsAt = at('2026-06-03T12:00:00Z');
    const { token } = await createPlayerWithToken(h.ctx, {
      membership_plan: 'unlimited',
      membership_status: 'canceled',
      membership_ends_at: endsAt,
    });
    const game = await createGame(h.ctx, { requires_premium: 1 });
    expect((await api.start(token, game.slug)).status).toBe(200);
    h.clock.set(endsAt - 1000);
    expect((await api.start(token, game.slug)).status).toBe(200);
    h.clock.set(endsAt);
    const res = await api.start(token, game.slug);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('premium_required');
    expect((await api.entitlement(token)).body.data).toMatchObject({ unlimited: false, remaining_seconds: 900 });
  });

  it('refuses an expired Unlimited membership like a free one', async () => {
    const { token } = await createPlayerWithToken(h.ctx, {
      membership_plan: 'unlimited',
      membership_status: 'expired',
      membership_ends_at: h.clock.now() - 1000,
    });
    const game = await createGame(h.ctx, { requires_premium: 1 });
    expect((await api.start(token, game.slug)).body.error.code).toBe('premium_required');
  });

  it('answers 402 limit_reached when the free allowance is used up, with the entitlement, and creates nothing', async () => {
    h.clock.set('2026-06-04T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    const game = await createGame(h.ctx);
    await setUsage(h, player.id, '2026-06-04', 900);
    const res = await api.start(token, game.slug);
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'limit_reached',
      entitlement: { used_seconds: 900, remaining_seconds: 0, limit_reached: true },
    });
    expect(
      await h.ctx.db.selectFrom('play_sessions').select('id').where('player_id', '=', player.id).execute(),
    ).toEqual([]);
    expect((await gameStats(h, game.id)).plays).toBe(0);
    expect((await usage(h, player.id, '2026-06-04')).sessions).toBe(1);
  });

  it('lets a free player with a second left start, and checks premium before the allowance', async () => {
    h.clock.set('2026-06-05T10:00:00Z');
    const { player, token } = await createPlayerWithToken(h.ctx);
    await setUsage(h, player.id, '2026-06-05', 899);
    expect((await api.start(token, (await createGame(h.ctx)).slug)).status).toBe(200);
    await setUsage(h, player.id, '2026-06-05', 900);
    const premium = await createGame(h.ctx, { requires_premium: 1 });
    expect((await api.start(token, premium.slug)).body.error.code).toBe('premium_required');
  });

  it('never limits Unlimited members and staff, whose time is still counted', async () => {
    h.clock.set('2026-06-06T10:00:00Z');
    for (const options of [{ membership_plan: 'unlimited', membership_status: 'active' }, { role: 'staff' }]) {
      const { player, token } = await createPlayerWithToken(h.ctx, options);
      await setUsage(h, player.id, '2026-06-06', 5000);
      const res = await api.start(token, (await createGame(h.ctx)).slug);
      expect(res.status).toBe(200);
      expect(res.body.data.entitlement).toMatchObject({
        unlimited: true,
        used_seconds: 5000,
        remaining_seconds: null,
        limit_reached: false,
      });
    }
  });

  it("closes the player's earlier session of the same game (reason replaced), crediting it up to now", async () => {
    h.clock.set('2026-06-07T10:00:00Z');
    const first = await playing(h);
    const other = await createGame(h.ctx);
    const otherSession = (await api.start(first.token, other.slug)).body.data.session;
    h.clock.advance(20);
    const second = await api.start(first.token, first.game.slug);
    expect(second.status).toBe(200);
    expect(second.body.data.entitlement.used_seconds).toBe(20);
    expect(await sessionRow(h, first.session)).toMatchObject({
      status: 'closed',
      end_reason: 'replaced',
      credited_seconds: 20,
      ended_at: h.clock.now(),
    });
    expect((await sessionRow(h, second.body.data.session)).status).toBe('active');
    expect((await sessionRow(h, otherSession)).status).toBe('active');
    const hb = await api.heartbeat(first.token, first.session);
    expect(hb.status).toBe(410);
    expect(hb.body.error.code).toBe('session_ended');
  });

  it("does not touch another player's session of the same game", async () => {
    const a = await playing(h);
    const b = await createPlayerWithToken(h.ctx);
    expect((await api.start(b.token, a.game.slug)).status).toBe(200);
    expect((await sessionRow(h, a.session)).status).toBe('active');
  });

  it('refuses a developer key with 403 and a missing credential with 401', async () => {
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['stats:read']);
    expect((await h.http.post('/v1/play/start', { token: key, body: { game: game.slug } })).body.error.code).toBe(
      'forbidden',
    );
    expect((await h.http.post('/v1/play/start', { body: { game: game.slug } })).status).toBe(401);
  });

  it('validates the body with 422', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const missing = await h.http.post('/v1/play/start', { token, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toEqual({ game: 'is required' });
    const extra = await h.http.post('/v1/play/start', { token, body: { game: 'x', slot: 1 } });
    expect(extra.body.error.fields).toEqual({ slot: 'is not a known field' });
    expect((await h.http.post('/v1/play/start', { token, body: { game: 7 } })).status).toBe(422);
  });
});
