// The game's public stats (GET /v1/games/{slug}) follow play sessions: starts and credited time.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { playApi } from './play-helpers.js';

eachDialect('play: game stats', (h) => {
  const api = playApi(h);

  it('counts started sessions in stats.plays and credited seconds in stats.playtime_hours', async () => {
    h.clock.set('2026-06-01T10:00:00Z');
    const { slug } = await publishFixture(h.ctx, 'orbit-dash');
    const stats = async () => (await h.http.get(`/v1/games/${slug}`)).body.data.stats;
    expect(await stats()).toEqual({ plays: 0, playtime_hours: 0 });
    const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
    const free = await createPlayerWithToken(h.ctx);
    const a = (await api.start(staff.token, slug)).body.data.session;
    const b = (await api.start(free.token, slug)).body.data.session;
    for (let i = 0; i < 6; i++) {
      h.clock.advance(30);
      await api.heartbeat(staff.token, a);
      await api.heartbeat(free.token, b);
    }
    // 2 x 180 s = 360 s = 0.1 h
    expect(await stats()).toEqual({ plays: 2, playtime_hours: 0.1 });
    await api.start(free.token, slug); // takes over b, still active (a second tab): the same play, nothing more credited
    expect(await stats()).toEqual({ plays: 2, playtime_hours: 0.1 });
  });

  it("counts a start that takes over the player's still-active session once, and a start after the session ended or went idle again", async () => {
    h.clock.set('2026-06-02T10:00:00Z');
    const { slug } = await publishFixture(h.ctx, 'orbit-dash');
    const plays = async () => (await h.http.get(`/v1/games/${slug}`)).body.data.stats.plays;
    const { token } = await createPlayerWithToken(h.ctx);
    const start = async () => (await api.start(token, slug)).body.data.session as string;
    // Two tabs taking turns, each one's heartbeat finding its session replaced and starting again: one play.
    let session = await start();
    for (let i = 0; i < 4; i++) {
      h.clock.advance(30);
      session = await start();
    }
    expect(await plays()).toBe(1);
    // Ended (quit): the next start is a new play.
    await api.end(token, session, 'quit');
    session = await start();
    expect(await plays()).toBe(2);
    // Silent for session_idle_timeout (the player left without the page saying so): a new play too.
    h.clock.advance(h.ctx.config.session_idle_timeout);
    await start();
    expect(await plays()).toBe(3);
  });
});
