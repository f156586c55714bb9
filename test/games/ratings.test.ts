// Ratings: one thumbs up or down per player and game (guests too), replaced by a new vote, removed by DELETE; the
// game's rating shows a percentage from rating_min_votes votes on; an account's purge and a guest's merge take them.
import { expect, it } from 'vitest';
import { purgeDeletedPlayers } from '../../src/modules/accounts/self-service.service.js';
import { PASSWORD, as, newGuest } from '../accounts/guest-helpers.js';
import { createGame, createPlayerWithPassword, createPlayerWithToken, createToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect(
  'games: ratings',
  (h) => {
    const rate = (slug: string, token: string, value: string) =>
      h.http.put(`/v1/games/${slug}/rating`, { token, body: { value } });
    const votesOf = (playerId: number) =>
      h.ctx.db
        .selectFrom('game_ratings')
        .select(['game_id', 'value'])
        .where('player_id', '=', playerId)
        .orderBy('game_id')
        .execute();

    it('records one vote per player, replaced by a new one and removed by DELETE; GET shows the rating and my_rating', async () => {
      const game = await createGame(h.ctx);
      const { token } = await createPlayerWithToken(h.ctx);
      const other = await createPlayerWithToken(h.ctx);

      const up = await rate(game.slug, token, 'up');
      expect(up.status, up.text).toBe(200);
      expect(up.body.data).toEqual({ rating: { up: 1, down: 0, percent: null }, my_rating: 'up' });
      const down = await rate(game.slug, token, 'down');
      expect(down.body.data).toEqual({ rating: { up: 0, down: 1, percent: null }, my_rating: 'down' });
      await rate(game.slug, other.token, 'up');

      const seen = await h.http.get(`/v1/games/${game.slug}`, { token });
      expect(seen.body.data.rating).toEqual({ up: 1, down: 1, percent: null });
      expect(seen.body.data.my_rating).toBe('down');
      const anonymous = await h.http.get(`/v1/games/${game.slug}`);
      expect(anonymous.body.data.rating).toEqual({ up: 1, down: 1, percent: null });
      expect(anonymous.body.data).not.toHaveProperty('my_rating');

      const removed = await h.http.delete(`/v1/games/${game.slug}/rating`, { token });
      expect(removed.status).toBe(200);
      expect(removed.body.data).toEqual({ rating: { up: 1, down: 0, percent: null }, my_rating: null });
      expect((await h.http.delete(`/v1/games/${game.slug}/rating`, { token })).status).toBe(200);
      expect((await h.http.get(`/v1/games/${game.slug}`, { token })).body.data.my_rating).toBeNull();
      // The list stays as it was: no rating there.
      const list = await h.http.get('/v1/games');
      expect(list.body.data.games[0]).not.toHaveProperty('rating');
    });

    it('shows the percentage only from rating_min_votes votes on (3 here), rounded', async () => {
      const game = await createGame(h.ctx);
      const voters = await Promise.all([0, 1, 2].map(() => createPlayerWithToken(h.ctx)));
      await rate(game.slug, voters[0]!.token, 'up');
      const two = await rate(game.slug, voters[1]!.token, 'down');
      expect(two.body.data.rating).toEqual({ up: 1, down: 1, percent: null });
      const three = await rate(game.slug, voters[2]!.token, 'up');
      expect(three.body.data.rating).toEqual({ up: 2, down: 1, percent: 67 });
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.rating.percent).toBe(67);
    });

    it('takes a guest vote; answers 401 without a player, 404 for an unknown or draft game, 422 for another value', async () => {
      const game = await createGame(h.ctx);
      const guest = await newGuest(h, { web: true });
      const res = await h.http.put(`/v1/games/${game.slug}/rating`, { ...as(guest), body: { value: 'up' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.my_rating).toBe('up');

      const none = await h.http.put(`/v1/games/${game.slug}/rating`, { body: { value: 'up' } });
      expect(none.status).toBe(401);
      expect((await h.http.delete(`/v1/games/${game.slug}/rating`)).status).toBe(401);

      const { token } = await createPlayerWithToken(h.ctx);
      const unknown = await rate('no-such-game', token, 'up');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
      expect((await h.http.delete('/v1/games/no-such-game/rating', { token })).status).toBe(404);
      const draft = await createGame(h.ctx, { status: 'draft' });
      expect((await rate(draft.slug, token, 'up')).status).toBe(404);
      const bad = await rate(game.slug, token, 'meh');
      expect(bad.status).toBe(422);
      expect(bad.body.error.code).toBe('validation_failed');
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.rating).toEqual({ up: 1, down: 0, percent: null });
    });

    it("removes a purged account's votes", async () => {
      const game = await createGame(h.ctx);
      const { player, token } = await createPlayerWithToken(h.ctx);
      const kept = await createPlayerWithToken(h.ctx);
      await rate(game.slug, token, 'down');
      await rate(game.slug, kept.token, 'up');
      await h.ctx.db
        .updateTable('players')
        .set({ status: 'deleting', deletion_due_at: h.clock.now() - 1000 })
        .where('id', '=', player.id)
        .execute();
      expect(await purgeDeletedPlayers(h.ctx)).toBe(1);
      expect(await votesOf(player.id)).toEqual([]);
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.rating).toEqual({ up: 1, down: 0, percent: null });
    });

    it("moves a merged guest's votes to the games the account has not rated, keeping the account's own", async () => {
      const rated = await createGame(h.ctx);
      const fresh = await createGame(h.ctx);
      const account = await createPlayerWithPassword(h.ctx, PASSWORD);
      const accountToken = (await createToken(h.ctx, account.id)).token;
      await rate(rated.slug, accountToken, 'up');
      const guest = await newGuest(h);
      await rate(rated.slug, guest.token, 'down');
      await rate(fresh.slug, guest.token, 'down');

      const res = await h.http.post('/v1/auth/login', {
        token: guest.token,
        body: { login: account.username, password: PASSWORD },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.claimed_guest).toMatchObject({ guest_id: guest.id, via: 'merge' });
      expect(await votesOf(guest.id)).toEqual([]);
      expect((await votesOf(account.id)).map((v) => [v.game_id, Number(v.value)])).toEqual([
        [rated.id, 1],
        [fresh.id, -1],
      ]);
      expect((await h.http.get(`/v1/games/${rated.slug}`)).body.data.rating).toEqual({ up: 1, down: 0, percent: null });
      expect((await h.http.get(`/v1/games/${fresh.slug}`, { token: accountToken })).body.data.my_rating).toBe('down');
    });
  },
  { settings: { rating_min_votes: 3 } },
);
