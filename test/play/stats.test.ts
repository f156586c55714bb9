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
    await api.start(free.token, slug); // replaces b: one more play, nothing more credited
    expect(await stats()).toEqual({ plays: 3, playtime_hours: 0.1 });
  });
});
