// A studio's developer keys: made by its members for their game (shown once), listed with their last use, revoked at
// once; a key with builds:write and builds:release deploys and releases from CI.
import { describe, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { buildZip, createStudio, createStudioGame, deploy, memberOf } from '../helpers/studios.js';

eachDialect('studios: developer keys', (h) => {
  const setup = async () => {
    const studio = await createStudio(h.ctx);
    const member = await memberOf(h.ctx, studio.id);
    const game = await createStudioGame(h.ctx, studio.id);
    return { token: member.token, slug: game.slug, id: game.id };
  };

  describe('keys', () => {
    it('shows a new key once, lists it by prefix with its last use, and revokes it at once', async () => {
      const { token, slug } = await setup();
      const made = await h.http.post(`/v1/studio/games/${slug}/keys`, {
        token,
        body: { scopes: ['builds:write', 'stats:read'], name: 'CI' },
      });
      expect(made.status, made.text).toBe(201);
      const key = made.body.data.key as string;
      expect(key).toMatch(/^agk_/);
      expect(made.body.data).toMatchObject({ game: slug, name: 'CI', scopes: ['builds:write', 'stats:read'] });
      let listed = (await h.http.get(`/v1/studio/games/${slug}/keys`, { token })).body.data.keys;
      expect(listed).toEqual([
        expect.objectContaining({ prefix: key.slice(0, 12), last_used_at: null, revoked_at: null }),
      ]);
      expect(JSON.stringify(listed)).not.toContain(key);
      expect((await h.http.get(`/v1/studio/games/${slug}/builds`, { token: key })).status).toBe(200);
      listed = (await h.http.get(`/v1/studio/games/${slug}/keys`, { token })).body.data.keys;
      expect(listed[0].last_used_at).toMatch(/^\d{4}-/);
      const revoked = await h.http.delete(`/v1/studio/games/${slug}/keys/${made.body.data.id}`, { token });
      expect(revoked.body.data).toEqual({ revoked: true });
      expect((await h.http.get(`/v1/studio/games/${slug}/builds`, { token: key })).status).toBe(401);
      expect((await h.http.delete(`/v1/studio/games/${slug}/keys/${made.body.data.id}`, { token })).body.data).toEqual({
        revoked: false,
      });
    });

    it('refuses unknown scopes', async () => {
      const { token, slug } = await setup();
      const res = await h.http.post(`/v1/studio/games/${slug}/keys`, { token, body: { scopes: ['everything'] } });
      expect(res.status).toBe(422);
    });
  });

  describe('deploying with a key', () => {
    it('uploads, releases and rolls back with a builds key, recorded as uploaded with a key', async () => {
      const { token, slug } = await setup();
      const key = (
        await h.http.post(`/v1/studio/games/${slug}/keys`, {
          token,
          body: { scopes: ['builds:write', 'builds:release'] },
        })
      ).body.data.key;
      for (const version of ['1.0.0', '1.1.0']) {
        const res = await deploy(h.http, key, slug, await buildZip(slug, { manifest: { version } }));
        expect(res.status, res.text).toBe(201);
        expect(res.body.data).toMatchObject({ uploaded_by: null, uploaded_with: 'key' });
        expect(
          (await h.http.post(`/v1/studio/games/${slug}/builds/${res.body.data.number}/release`, { token: key })).status,
        ).toBe(200);
      }
      expect((await h.http.post(`/v1/studio/games/${slug}/rollback`, { token: key })).body.data.build.version).toBe(
        '1.0.0',
      );
      // a key with builds:write alone cannot release
      const upload = (await h.http.post(`/v1/studio/games/${slug}/keys`, { token, body: { scopes: ['builds:write'] } }))
        .body.data.key;
      const refused = await h.http.post(`/v1/studio/games/${slug}/builds/2/release`, { token: upload });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', required_scope: 'builds:release' });
    });
  });
});
