// GET /v1/players/{username}: the public view only, any letter case, 404 for unknown and suspended players.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createPlayer, createPlayerWithToken } from '../helpers/factories.js';

eachDialect('accounts: public profile', (h) => {
  it('shows the public view, Unlimited membership and best scores, without private fields', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const { token } = await createPlayerWithToken(h.ctx, {
      username: 'Public_One',
      display_name: 'Public One',
      email: 'secret@example.com',
    });
    await h.http.patch('/v1/me', { token, body: { bio: 'Hi', country: 'se', newsletter: true } });
    const res = await h.http.get('/v1/players/public_one');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      player: {
        id: expect.any(Number),
        username: 'Public_One',
        display_name: 'Public One',
        avatar_url: expect.stringMatching(/^http:\/\/localhost:8080\/avatars\/initials\/\d+\/PO\.svg$/),
        bio: 'Hi',
        country: 'SE',
        member_since: '2026-11-21 10:00:00',
      },
      unlimited: false,
      best_scores: [],
      recently_played: [],
    });
    expect(res.text).not.toContain('secret@example.com');
    expect(res.text).not.toContain('newsletter');
  });

  it('marks an Unlimited member, but not staff', async () => {
    await createPlayer(h.ctx, { username: 'member_x', membership_plan: 'unlimited', membership_status: 'active' });
    await createPlayer(h.ctx, { username: 'staff_x', role: 'staff' });
    expect((await h.http.get('/v1/players/member_x')).body.data.unlimited).toBe(true);
    expect((await h.http.get('/v1/players/staff_x')).body.data.unlimited).toBe(false);
  });

  it('answers unknown and suspended players with the same 404', async () => {
    await createPlayer(h.ctx, { username: 'gone_away', status: 'suspended' });
    const suspended = await h.http.get('/v1/players/gone_away');
    const unknown = await h.http.get('/v1/players/never_was');
    expect(suspended.status).toBe(404);
    expect(suspended.body.error.code).toBe('not_found');
    expect(unknown.body).toEqual(suspended.body);
    expect((await h.http.get(`/v1/players/${'x'.repeat(150)}`)).status).toBe(404);
    expect((await h.http.get('/v1/players/a%20b')).status).toBe(404);
  });

  it('needs no credential and ignores a bad one', async () => {
    await createPlayer(h.ctx, { username: 'open_page' });
    expect((await h.http.get('/v1/players/open_page', { token: 'agp_nonsense' })).status).toBe(200);
  });
});
