// The entry file on the game's origin through the real play flow: before start, during play, after the limit, end, timeout and replacement.
import { beforeAll, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { playApi } from './play-helpers.js';

eachDialect(
  'play: the entry file',
  (h) => {
    const api = playApi(h);
    let game: Awaited<ReturnType<typeof publishFixture>>;
    let other: Awaited<ReturnType<typeof publishFixture>>;
    beforeAll(async () => {
      game = await publishFixture(h.ctx, 'orbit-dash');
      other = await publishFixture(h.ctx, 'orbit-dash');
    });

    /** Loads the entry URL that start returned (on the game's own host: app.inject sends the URL's Host). */
    const load = (entryUrl: string) => h.http.get(entryUrl);
    const plainEntry = (slug: string) => `http://${slug}.games.localhost:8080/index.html`;
    const expectRefused = (res: { status: number; body: { error: { code: string } } }) => {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('play_not_allowed');
    };
    const start = async (token: string, slug = game.slug) => {
      const res = await api.start(token, slug);
      expect(res.status).toBe(200);
      return res.body.data as { session: string; entry_url: string };
    };

    it('is refused before start: without a session, or with a session token the player does not have', async () => {
      expectRefused(await h.http.get(plainEntry(game.slug)));
      expectRefused(await h.http.get(plainEntry(game.slug), { query: { session: 'ps_not-started-yet' } }));
    });

    it('is served during play at the entry_url of start, and keeps being served while the heartbeats come', async () => {
      h.clock.set('2026-06-01T10:00:00Z');
      const { token } = await createPlayerWithToken(h.ctx);
      const s = await start(token);
      expect(s.entry_url).toBe(
        `http://${game.slug}.games.localhost:8080/~${game.files_dir}/index.html?session=${s.session}`,
      );
      const page = await load(s.entry_url);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      h.clock.advance(30);
      expect((await api.heartbeat(token, s.session)).status).toBe(200);
      expect((await load(s.entry_url)).status).toBe(200);
      // the session is for its own game only
      expectRefused(await h.http.get(plainEntry(other.slug), { query: { session: s.session } }));
    });

    it('is refused after the limit closed the session, and for every game of that player until the reset', async () => {
      h.clock.set('2026-06-02T10:00:00Z');
      const { token } = await createPlayerWithToken(h.ctx);
      const a = await start(token);
      const b = await start(token, other.slug);
      h.clock.advance(30);
      await api.heartbeat(token, a.session);
      h.clock.advance(30);
      expect((await api.heartbeat(token, a.session)).body.data.limit_reached).toBe(true);
      expectRefused(await load(a.entry_url));
      // b's session is still active (its next heartbeat closes it), but the player has no time left today
      expectRefused(await load(b.entry_url));
      expect((await api.heartbeat(token, b.session)).body.data.limit_reached).toBe(true);
      h.clock.set('2026-06-02T22:00:00Z'); // midnight in Berlin
      const c = await start(token);
      expect((await load(c.entry_url)).status).toBe(200);
    });

    it('is served to an Unlimited member past the free allowance', async () => {
      h.clock.set('2026-06-03T10:00:00Z');
      const { token } = await createPlayerWithToken(h.ctx, {
        membership_plan: 'unlimited',
        membership_status: 'active',
      });
      const s = await start(token);
      for (let i = 0; i < 4; i++) {
        h.clock.advance(30);
        expect((await api.heartbeat(token, s.session)).body.data).toMatchObject({ limit_reached: false });
      }
      expect((await api.entitlement(token)).body.data.used_seconds).toBe(120);
      expect((await load(s.entry_url)).status).toBe(200);
    });

    it('is refused after end, after the session went idle, and for a replaced session', async () => {
      h.clock.set('2026-06-04T10:00:00Z');
      const { token } = await createPlayerWithToken(h.ctx, { role: 'staff' });
      const ended = await start(token);
      await api.end(token, ended.session);
      expectRefused(await load(ended.entry_url));

      const idle = await start(token);
      h.clock.advance(h.config.session_idle_timeout);
      expectRefused(await load(idle.entry_url));

      const replaced = await start(token);
      const current = await start(token);
      expectRefused(await load(replaced.entry_url));
      expect((await load(current.entry_url)).status).toBe(200);
    });
  },
  { settings: { free_seconds_per_day: 60 } },
);
