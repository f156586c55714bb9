// assets_url: covers and uploaded avatars are linked at a public base (a CDN or the bucket itself, addressed by the
// store's key) instead of through the service. Checked against a real bucket (s3rver), fetched over HTTP at the URLs
// the API hands out; and the settings check, and the portal's CSP that must let those images load.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { startS3, TEST_BUCKET, type S3Server } from '../helpers/s3.js';

let s3: S3Server;
const serviceSettings: Record<string, unknown> = {};
let assetsBase = '';
beforeAll(async () => {
  s3 = await startS3();
  const settings = s3.settings();
  const prefix = String(settings.storage_url).replace(`s3://${TEST_BUCKET}/`, '');
  // s3rver answers anonymous path-style GETs: the bucket's public address, as a CDN in front of it would be.
  assetsBase = `${s3.endpoint}/${TEST_BUCKET}/${prefix}/`;
  Object.assign(serviceSettings, settings, { assets_url: assetsBase });
});
afterAll(async () => {
  await s3?.close();
});

describe('settings: assets_url', () => {
  const load = (assets_url: string, NODE_ENV = 'test') =>
    loadConfig({
      cwd: '/nonexistent',
      env: {
        NODE_ENV,
        GP_SECRET: 'a-production-secret-of-at-least-32-chars!',
        GP_GAMES_URL: 'https://{slug}.games.example.com',
        GP_PUBLIC_URL: 'https://play.example.com',
        GP_TRUST_PROXY: 'loopback',
      },
      overrides: { assets_url },
    });

  it('is unset by default and loses a trailing slash', () => {
    expect(load('').assets_url).toBe('');
    expect(load('https://cdn.example.com/gp/').assets_url).toBe('https://cdn.example.com/gp');
  });

  it('refuses what is not a plain http(s) base, naming the setting', () => {
    for (const bad of [
      'cdn.example.com',
      'ftp://cdn.example.com',
      'https://cdn.example.com/?v=1',
      'https://cdn.example.com/#x',
      'https://u:p@cdn.example.com',
    ]) {
      expect(() => load(bad)).toThrow(ConfigError);
      expect(() => load(bad)).toThrow(/assets_url \(GP_ASSETS_URL\)/);
    }
  });

  it('must be https in production', () => {
    expect(() => load('http://cdn.example.com', 'production')).toThrow(/https:\/\/ URL in production/);
    expect(load('https://cdn.example.com', 'production').assets_url).toBe('https://cdn.example.com');
  });
});

eachDialect(
  'assets_url: covers and avatars linked at the public base',
  (h: Harness) => {
    it('links the cover at assets_url, and those bytes are the published cover', async () => {
      const game = await publishFixture(h.ctx, 'orbit-dash');
      const listed = await h.http.get(`/v1/games/${game.slug}`);
      const cover = String(listed.body.data.cover_url ?? listed.body.data.game?.cover_url);
      expect(cover).toBe(`${assetsBase.replace(/\/$/, '')}/games/${game.slug}/${game.files_dir}/cover.png`);
      const fetched = await fetch(cover);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer())).toEqual(await readFile(path.join(game.dir, 'cover.png')));
      // The entry file is never linked there: play/start still hands out the game's own origin.
      expect(cover.startsWith(s3.endpoint)).toBe(true);
    });

    it('links an uploaded avatar at assets_url; the initials avatar stays on the service', async () => {
      const { token, player } = await createPlayerWithToken(h.ctx);
      const initials = (await h.http.get('/v1/me', { token })).body.data.player.avatar_url as string;
      expect(initials.startsWith(`${h.ctx.config.public_url}/avatars/initials/`)).toBe(true);
      const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#cc6633' } })
        .png()
        .toBuffer();
      const { body, contentType } = multipartBody([
        { field: 'avatar', filename: 'me.png', contentType: 'image/png', data: picture },
      ]);
      const uploaded = await h.http.post('/v1/me/avatar', { token, body, contentType });
      expect(uploaded.status).toBe(200);
      const url = uploaded.body.data.avatar_url as string;
      expect(url).toMatch(
        new RegExp(`^${assetsBase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}avatars/${player.id}-[^/]+\\.webp$`),
      );
      const fetched = await fetch(url);
      expect(fetched.status).toBe(200);
      expect((await sharp(Buffer.from(await fetched.arrayBuffer())).metadata()).width).toBe(256);
      const profile = await h.http.get(`/v1/players/${player.username}`);
      expect(profile.body.data.player.avatar_url).toBe(url);
    });

    it("lets the portal's pages load images from the assets origin", async () => {
      const page = await h.http.get('/');
      expect(String(page.headers['content-security-policy'])).toMatch(
        new RegExp(`img-src [^;]*${s3.endpoint.replace(/[.]/g, '\\.')}(;| )`),
      );
    });
  },
  { settings: serviceSettings },
);
