// Studios and their members: operators create studios and hand them games; owners add and remove members by username or
// email; a studio that signs up by itself (studios.self_signup) waits for an operator's approval.
import { describe, expect, it } from 'vitest';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { createStudio, createStudioGame, memberOf } from '../helpers/studios.js';

let n = 0;
const unique = (base: string) => `${base}${Date.now().toString(36)}${++n}`;

eachDialect(
  'studios: studios and members',
  (h) => {
    describe('operators', () => {
      it('creates a studio with its first owner, named by email, and lists it', async () => {
        const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
        const owner = await createPlayerWithToken(h.ctx);
        const name = unique('Nebula Works ');
        const res = await h.http.post('/v1/admin/studios', {
          token: staff.token,
          body: { name, owner: owner.player.email.toUpperCase() },
        });
        expect(res.status, res.text).toBe(201);
        expect(res.body.data).toMatchObject({ name, status: 'active' });
        expect(res.body.data.slug).toMatch(/^nebula-works-/);
        const mine = await h.http.get('/v1/studio/studios', { token: owner.token });
        expect(mine.body.data.studios).toEqual([expect.objectContaining({ slug: res.body.data.slug, role: 'owner' })]);
        const taken = await h.http.post('/v1/admin/studios', {
          token: staff.token,
          body: { name: 'Again', slug: res.body.data.slug },
        });
        expect(taken.status).toBe(409);
        expect(taken.body.error.code).toBe('slug_taken');
        const nobody = await h.http.post('/v1/admin/studios', {
          token: staff.token,
          body: { name: 'X', owner: 'nobody_here' },
        });
        expect(nobody.status).toBe(404);
      });

      it('hands a game to a studio and back; a member of the former studio loses it', async () => {
        const admin = await createPlayerWithToken(h.ctx, { role: 'admin' });
        const first = await createStudio(h.ctx);
        const second = await createStudio(h.ctx);
        const member = await memberOf(h.ctx, first.id);
        const game = await createGame(h.ctx);
        const give = (studio: string | null) =>
          h.http.put(`/v1/admin/games/${game.slug}/studio`, { token: admin.token, body: { studio } });
        expect((await give(first.slug)).body.data.studio).toBe(first.slug);
        expect((await h.http.get(`/v1/studio/games/${game.slug}`, { token: member.token })).status).toBe(200);
        expect((await give(second.slug)).body.data.studio).toBe(second.slug);
        expect((await h.http.get(`/v1/studio/games/${game.slug}`, { token: member.token })).status).toBe(404);
        expect((await give(null)).body.data.studio).toBeNull();
        expect((await give('no-such-studio')).status).toBe(404);
      });
    });

    describe('members', () => {
      it('lets an owner add members by username or email, change their role and remove them; a developer cannot', async () => {
        const studio = await createStudio(h.ctx);
        const owner = await memberOf(h.ctx, studio.id, 'owner');
        const dev = await memberOf(h.ctx, studio.id, 'developer');
        const newcomer = await createPlayerWithToken(h.ctx);
        const path = `/v1/studio/studios/${studio.slug}/members`;
        const refused = await h.http.post(path, { token: dev.token, body: { login: newcomer.player.username } });
        expect(refused.status).toBe(403);
        const added = await h.http.post(path, {
          token: owner.token,
          body: { login: newcomer.player.username.toUpperCase() },
        });
        expect(added.status, added.text).toBe(201);
        expect(
          added.body.data.members.find((m: { player_id: number }) => m.player_id === newcomer.player.id),
        ).toMatchObject({
          role: 'developer',
          username: newcomer.player.username,
        });
        const again = await h.http.post(path, { token: owner.token, body: { login: newcomer.player.email } });
        expect(again.body.error.code).toBe('already_member');
        const promoted = await h.http.patch(`${path}/${newcomer.player.id}`, {
          token: owner.token,
          body: { role: 'owner' },
        });
        expect(promoted.status).toBe(200);
        const removed = await h.http.delete(`${path}/${dev.player.id}`, { token: owner.token });
        expect(removed.body.data.members.map((m: { player_id: number }) => m.player_id)).not.toContain(dev.player.id);
        expect((await h.http.get(`/v1/studio/studios/${studio.slug}`, { token: dev.token })).status).toBe(404);
      });

      it('keeps the last owner: neither removed, demoted nor leaving', async () => {
        const studio = await createStudio(h.ctx);
        const owner = await memberOf(h.ctx, studio.id, 'owner');
        const path = `/v1/studio/studios/${studio.slug}/members/${owner.player.id}`;
        expect((await h.http.delete(path, { token: owner.token })).body.error.code).toBe('last_owner');
        expect((await h.http.patch(path, { token: owner.token, body: { role: 'developer' } })).body.error.code).toBe(
          'last_owner',
        );
      });

      it("lets a developer leave, and ends their previews of the studio's games", async () => {
        const studio = await createStudio(h.ctx);
        await memberOf(h.ctx, studio.id, 'owner');
        const dev = await memberOf(h.ctx, studio.id, 'developer');
        const left = await h.http.delete(`/v1/studio/studios/${studio.slug}/members/${dev.player.id}`, {
          token: dev.token,
        });
        expect(left.status).toBe(200);
        expect((await h.http.get('/v1/studio/studios', { token: dev.token })).body.data.studios).toEqual([]);
      });

      it('creates a draft game of the studio, refusing a slug in use and a bad one', async () => {
        const studio = await createStudio(h.ctx, { name: 'Quiet Owls' });
        const dev = await memberOf(h.ctx, studio.id);
        const slug = unique('owl-game-');
        const path = `/v1/studio/studios/${studio.slug}/games`;
        const made = await h.http.post(path, {
          token: dev.token,
          body: { slug, name: 'Owl Game', category: 'puzzle' },
        });
        expect(made.status, made.text).toBe(201);
        expect(made.body.data).toMatchObject({
          slug,
          studio: studio.slug,
          status: 'draft',
          author: 'Quiet Owls',
          version: null,
          live_build: null,
          cover_url: null,
        });
        expect((await h.http.get(`/v1/games/${slug}`)).status).toBe(404);
        expect(
          (await h.http.post(path, { token: dev.token, body: { slug, name: 'X', category: 'puzzle' } })).body.error
            .code,
        ).toBe('slug_taken');
        const bad = await h.http.post(path, {
          token: dev.token,
          body: { slug: 'Bad Slug', name: 'X', category: 'Puzzle' },
        });
        expect(bad.status).toBe(422);
        expect(Object.keys(bad.body.error.fields).sort()).toEqual(['category', 'slug']);
      });
    });

    describe('audit log', () => {
      it('records creating a studio, signing one up and approving it; GET of the audit logs lists them', async () => {
        const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
        const owner = await createPlayerWithToken(h.ctx);
        const player = await createPlayerWithToken(h.ctx);
        const made = await h.http.post('/v1/admin/studios', {
          token: staff.token,
          body: { name: unique('Audited '), owner: owner.player.username },
        });
        expect(made.status, made.text).toBe(201);
        const signed = await h.http.post('/v1/studio/studios', {
          token: player.token,
          body: { name: unique('Self ') },
        });
        const slug = signed.body.data.slug;
        expect((await h.http.post(`/v1/admin/studios/${slug}/approve`, { token: staff.token })).status).toBe(200);
        // Approving again changes nothing and records nothing.
        expect((await h.http.post(`/v1/admin/studios/${slug}/approve`, { token: staff.token })).status).toBe(200);

        const log = await h.http.get('/v1/admin/audit', { token: staff.token, query: { target_type: 'studio' } });
        expect(log.status, log.text).toBe(200);
        const mine = log.body.data.entries.filter((e: { target: { id: string } }) =>
          [made.body.data.slug, slug].includes(e.target.id),
        );
        expect(mine).toEqual([
          expect.objectContaining({
            actor: { id: staff.player.id, name: staff.player.username },
            action: 'studio.approve',
            target: { type: 'studio', id: slug },
            before: { status: 'pending' },
            after: { status: 'active' },
          }),
          expect.objectContaining({
            actor: { id: player.player.id, name: player.player.username },
            action: 'studio.create',
            target: { type: 'studio', id: slug },
            after: expect.objectContaining({ slug, status: 'pending', owner: player.player.username }),
          }),
          expect.objectContaining({
            actor: { id: staff.player.id, name: staff.player.username },
            action: 'studio.create',
            target: { type: 'studio', id: made.body.data.slug },
            after: expect.objectContaining({ status: 'active', owner: owner.player.username }),
          }),
        ]);
        // The studio's own log shows its members the same entries.
        const own = await h.http.get(`/v1/studio/studios/${slug}/audit`, { token: player.token });
        expect(own.body.data.entries.map((e: { action: string }) => e.action)).toEqual([
          'studio.approve',
          'studio.create',
        ]);
      });
    });

    describe('signing up', () => {
      it('lets a player sign a studio up; it waits for approval, then makes games', async () => {
        const player = await createPlayerWithToken(h.ctx);
        const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
        const signed = await h.http.post('/v1/studio/studios', {
          token: player.token,
          body: { name: unique('Indie ') },
        });
        expect(signed.status, signed.text).toBe(201);
        expect(signed.body.data.status).toBe('pending');
        const slug = signed.body.data.slug;
        const early = await h.http.post(`/v1/studio/studios/${slug}/games`, {
          token: player.token,
          body: { slug: unique('early-'), name: 'Early', category: 'arcade' },
        });
        expect(early.status).toBe(403);
        expect(early.body.error.code).toBe('studio_pending');
        const pending = await h.http.get('/v1/admin/studios?status=pending', { token: staff.token });
        expect(pending.body.data.studios.map((s: { slug: string }) => s.slug)).toContain(slug);
        expect((await h.http.post(`/v1/admin/studios/${slug}/approve`, { token: staff.token })).body.data.status).toBe(
          'active',
        );
        const made = await h.http.post(`/v1/studio/studios/${slug}/games`, {
          token: player.token,
          body: { slug: unique('later-'), name: 'Later', category: 'arcade' },
        });
        expect(made.status).toBe(201);
      });

      it('lets an operator turn a signed-up studio down, never an active one', async () => {
        const player = await createPlayerWithToken(h.ctx);
        const staff = await createPlayerWithToken(h.ctx, { role: 'staff' });
        const slug = (await h.http.post('/v1/studio/studios', { token: player.token, body: { name: unique('Gone ') } }))
          .body.data.slug;
        expect((await h.http.delete(`/v1/admin/studios/${slug}`, { token: staff.token })).status).toBe(200);
        expect((await h.http.get('/v1/studio/studios', { token: player.token })).body.data.studios).toEqual([]);
        const active = await createStudio(h.ctx);
        await createStudioGame(h.ctx, active.id);
        expect((await h.http.delete(`/v1/admin/studios/${active.slug}`, { token: staff.token })).status).toBe(422);
      });
    });
  },
  { settings: { 'studios.self_signup': true } },
);

eachDialect('studios: without self sign-up', (h) => {
  it('refuses a studio signed up by a player when the setting is off (the default)', async () => {
    const player = await createPlayerWithToken(h.ctx);
    const res = await h.http.post('/v1/studio/studios', { token: player.token, body: { name: 'Nope' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});
