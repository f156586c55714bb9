// The purge of idle guests: a guest none of whose tokens was used for guests.idle_days goes with everything attached
// (leaving every leaderboard exact), by the server's hourly sweep and by `gameplatform players purge-guests`; a guest
// in use, and every account, stays. Old per-address counts are forgotten.
import { expect, it } from 'vitest';
import { startDeletionPurge } from '../../src/modules/accounts/purge.sweeper.js';
import { purgeIdleGuests } from '../../src/modules/accounts/guests.service.js';
import { runCli } from '../helpers/cli.js';
import { checkTree } from '../helpers/count-tree.js';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { playApi } from '../play/play-helpers.js';
import { newGuest, playerExists } from './guest-helpers.js';

/** in seconds, as the manual clock moves */
const DAY = 86_400;

eachDialect(
  'accounts: purge of idle guests',
  (h) => {
    const api = playApi(h);
    const count = async (
      table: 'scores' | 'save_states' | 'daily_usage' | 'play_sessions' | 'favorites' | 'game_ratings',
      id: number,
    ) => (await h.ctx.db.selectFrom(table).select('player_id').where('player_id', '=', id).execute()).length;

    it('purges a guest idle for guests.idle_days with its saves, scores, sessions, usage, favourites and votes; keeps the others', async () => {
      h.clock.set('2026-08-01T10:00:00Z');
      const game = await createGame(h.ctx);
      const account = await createPlayerWithToken(h.ctx);
      await h.http.post(`/v1/games/${game.slug}/scores`, { token: account.token, body: { score: 10 } });
      const idle = await newGuest(h);
      const busy = await newGuest(h);
      for (const g of [idle, busy]) {
        const session = (await api.start(g.token, game.slug)).body.data.session;
        h.clock.advance(30);
        await api.heartbeat(g.token, session);
        await h.http.put(`/v1/games/${game.slug}/states/0`, { token: g.token, body: { state: [1] } });
        await h.http.post(`/v1/games/${game.slug}/scores`, { token: g.token, body: { score: 20 + g.id } });
        await h.http.post(`/v1/games/${game.slug}/favorite`, { token: g.token });
        await h.http.put(`/v1/games/${game.slug}/rating`, { token: g.token, body: { value: 'up' } });
      }
      // Six days short of the limit, the busy guest plays again; the idle one never comes back.
      h.clock.advance(24 * DAY);
      expect((await h.http.get('/v1/me', { token: busy.token })).status).toBe(200);
      h.clock.advance(5 * DAY);
      expect(await purgeIdleGuests(h.ctx)).toBe(0); // 29 days: not yet
      h.clock.advance(DAY + 1000);
      expect(await purgeIdleGuests(h.ctx)).toBe(1);
      expect(await playerExists(h, idle.id)).toBe(false);
      for (const table of [
        'scores',
        'save_states',
        'daily_usage',
        'play_sessions',
        'favorites',
        'game_ratings',
      ] as const)
        expect({ table, rows: await count(table, idle.id) }).toEqual({ table, rows: 0 });
      expect(await playerExists(h, busy.id)).toBe(true);
      expect(await count('scores', busy.id)).toBe(1);
      expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.rating).toMatchObject({ up: 1, down: 0 });
      expect(await playerExists(h, account.player.id)).toBe(true);
      const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
      expect(board.body.meta.total).toBe(2);
      expect(board.body.data.leaderboard.map((r: { rank: number }) => r.rank)).toEqual([1, 2]);
      const boards = await h.ctx.db.selectFrom('leaderboards').select('id').where('game_id', '=', game.id).execute();
      for (const b of boards) await checkTree(h, b.id);
    });

    it('purges on the server timer, counts it in guests_purged_total, and forgets the counts of past days', async () => {
      h.clock.set('2026-09-01T10:00:00Z');
      const metric = async () =>
        Number(
          (await h.http.get('/metrics')).text
            .split('\n')
            .find((l) => l.startsWith('gameplatform_guests_purged_total '))
            ?.split(' ')[1] ?? 0,
        );
      const before = await metric();
      const guest = await newGuest(h);
      const guests = async () =>
        (await h.ctx.db.selectFrom('players').select('id').where('guest', '=', 1).execute()).length;
      const waiting = await guests();
      expect(
        await h.ctx.db.selectFrom('guest_quotas').select('day').where('day', '=', '2026-09-01').execute(),
      ).not.toEqual([]);
      h.clock.advance(31 * DAY);
      const purger = startDeletionPurge(h.ctx, 50);
      try {
        await expect.poll(() => playerExists(h, guest.id), { timeout: 15_000, interval: 50 }).toBe(false);
      } finally {
        await purger.stop();
      }
      expect(await metric()).toBe(before + waiting - (await guests()));
      expect(await h.ctx.db.selectFrom('guest_quotas').select('day').where('day', '<', '2026-10-02').execute()).toEqual(
        [],
      );
    });

    it('purges every guest with `gameplatform players purge-guests --idle-days 0`, and refuses a bad number', async () => {
      h.clock.set('2025-01-01T10:00:00Z'); // the command runs on the system clock: this guest is from before it
      const guest = await newGuest(h);
      const env = { GP_DATABASE_URL: h.config.database_url, GP_DATA_DIR: h.dataDir };
      const bad = await runCli(['players', 'purge-guests', '--idle-days', 'soon'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/--idle-days takes a whole number/);
      expect(await playerExists(h, guest.id)).toBe(true);
      const res = await runCli(['players', 'purge-guests', '--idle-days', '0'], env);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/^\d+ idle guests? purged/);
      expect(await playerExists(h, guest.id)).toBe(false);
    }, 120_000);
  },
  { settings: { 'guests.idle_days': 30 } },
);
