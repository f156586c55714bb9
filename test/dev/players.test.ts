// GET /dev/players/{id} and /entitlement: the public profile and the entitlement of a player of the key's game,
// never an email address or an account setting.
import { describe, expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { playApi } from '../play/play-helpers.js';
import { devUrl, gameWithPlayer } from './fixtures.js';

const PRIVATE = [
  'email',
  'email_verified',
  'newsletter',
  'role',
  'membership',
  'plan',
  'renews_at',
  'ends_at',
  'password',
  'status',
];

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

eachDialect('dev: players', (h) => {
  describe('dev: GET /dev/players/{id}', () => {
    it('answers with the public profile, the same object as GET /players/{username}', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const w = await gameWithPlayer(
        h,
        {},
        { username: 'Dev_Profile', display_name: 'Dev Profile', email: 'private.dev@example.com' },
      );
      await h.http.patch('/v1/me', { token: w.token, body: { bio: 'Plays a lot', country: 'fr', newsletter: true } });
      const res = await h.http.get(devUrl.player(w.player.id), { token: w.key });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        player: {
          id: w.player.id,
          username: 'Dev_Profile',
          display_name: 'Dev Profile',
          avatar_url: expect.stringMatching(/^http:\/\/localhost:8080\/avatars\//),
          bio: 'Plays a lot',
          country: 'FR',
          member_since: '2026-11-21 10:00:00',
        },
        unlimited: false,
        best_scores: expect.any(Array),
        recently_played: [expect.objectContaining({ game: w.game.slug, last_played_at: '2026-11-21 10:00:00' })],
      });
      expect(res.body.data).toEqual((await h.http.get('/v1/players/dev_profile')).body.data);
    });

    it("carries the player's best scores as the public profile does", async () => {
      const w = await gameWithPlayer(h, { name: 'Best Game', leaderboard_unit: 'points' });
      await h.http.post(`/v1/games/${w.game.slug}/scores`, { token: w.token, body: { score: 70 } });
      await h.http.post(devUrl.scores(w.game.slug, w.player.id), { token: w.key, body: { score: 90 } });
      const res = await h.http.get(devUrl.player(w.player.id), { token: w.key });
      expect(res.body.data.best_scores).toEqual([
        {
          game: w.game.slug,
          game_name: 'Best Game',
          best: 90,
          unit: 'points',
          rank: 1,
          cover_url: expect.stringContaining(w.game.slug),
        },
      ]);
      expect(res.body.data).toEqual((await h.http.get(`/v1/players/${w.player.username}`)).body.data);
    });

    it('never carries the email address or an account setting', async () => {
      const w = await gameWithPlayer(
        h,
        {},
        { email: 'never.shown@example.com', role: 'admin', membership_plan: 'unlimited', membership_status: 'active' },
      );
      await h.http.patch('/v1/me', { token: w.token, body: { newsletter: true } });
      const res = await h.http.get(devUrl.player(w.player.id), { token: w.key });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('never.shown');
      expect(keysOf(res.body.data).filter((k) => PRIVATE.includes(k))).toEqual([]);
      expect(res.body.data.unlimited).toBe(true);
    });

    it('tells Unlimited membership but not the staff role', async () => {
      const member = await gameWithPlayer(h, {}, { membership_plan: 'unlimited', membership_status: 'active' });
      const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
      await createPlaySession(h.ctx, staff.player.id, member.game.id);
      const lapsed = await createPlayerWithToken(h.ctx, {
        membership_plan: 'unlimited',
        membership_status: 'canceled',
        membership_ends_at: h.clock.now() - 1000,
      });
      await createPlaySession(h.ctx, lapsed.player.id, member.game.id);
      const unlimited = async (id: number) =>
        (await h.http.get(devUrl.player(id), { token: member.key })).body.data.unlimited;
      expect([
        await unlimited(member.player.id),
        await unlimited(staff.player.id),
        await unlimited(lapsed.player.id),
      ]).toEqual([true, false, false]);
    });

    it('counts a player with a session still running as a player of the game', async () => {
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['players:read']);
      const { player, token } = await createPlayerWithToken(h.ctx);
      expect((await h.http.get(devUrl.player(player.id), { token: key })).status).toBe(404);
      expect((await playApi(h).start(token, game.slug)).status).toBe(200);
      expect((await h.http.get(devUrl.player(player.id), { token: key })).status).toBe(200);
    });

    it('stops answering for a player once suspended (404, as for a stranger)', async () => {
      const w = await gameWithPlayer(h);
      expect((await h.http.get(devUrl.player(w.player.id), { token: w.key })).status).toBe(200);
      await h.ctx.db.updateTable('players').set({ status: 'suspended' }).where('id', '=', w.player.id).execute();
      const res = await h.http.get(devUrl.player(w.player.id), { token: w.key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    });
  });

  describe('dev: GET /dev/players/{id}/entitlement', () => {
    it('answers with the Entitlement the player sees in GET /me/entitlement, after play', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const game = await createGame(h.ctx);
      const { key } = await createKey(h.ctx, game.id, ['players:read']);
      const { player, token } = await createPlayerWithToken(h.ctx);
      const api = playApi(h);
      const session = (await api.start(token, game.slug)).body.data.session;
      h.clock.advance(30);
      await api.heartbeat(token, session);
      h.clock.advance(5);
      const res = await h.http.get(devUrl.entitlement(player.id), { token: key });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        unlimited: false,
        allowance_seconds: 900,
        used_seconds: 30,
        remaining_seconds: 870,
        limit_reached: false,
        resets_in_seconds: 13 * 3600 - 35, // midnight in Berlin is 23:00 UTC
        day: '2026-11-21',
      });
      expect(res.body.data).toEqual((await api.entitlement(token)).body.data);
    });

    it('reads only: it does not keep a play session alive or credit time', async () => {
      h.clock.set('2026-11-21T10:00:00Z');
      const w = await gameWithPlayer(h);
      const api = playApi(h);
      const session = (await api.start(w.token, w.game.slug)).body.data.session;
      for (let i = 0; i < 12; i++) {
        h.clock.advance(30);
        expect((await h.http.get(devUrl.entitlement(w.player.id), { token: w.key })).body.data.used_seconds).toBe(0);
      }
      expect((await api.heartbeat(w.token, session)).status).toBe(410); // idle for 360 s: the reads did not count
    });

    it('shows an Unlimited member and staff as unlimited, with remaining_seconds null', async () => {
      const member = await gameWithPlayer(h, {}, { membership_plan: 'unlimited', membership_status: 'active' });
      const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
      await createPlaySession(h.ctx, staff.player.id, member.game.id);
      for (const id of [member.player.id, staff.player.id]) {
        const data = (await h.http.get(devUrl.entitlement(id), { token: member.key })).body.data;
        expect(data).toMatchObject({ unlimited: true, remaining_seconds: null, limit_reached: false });
      }
    });
  });
});
