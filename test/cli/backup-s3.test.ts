// Backups with an object store (s3rver): the manifest lists the bucket's objects and a restore reports those the bucket
// no longer has (status 2); with --objects the archive holds them and a restore into an empty bucket puts them back;
// a backup of files under data_dir restores into a bucket too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { BackupManifest } from '../../src/services/backup/manifest.js';
import { openStore } from '../../src/services/storage/storage.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { storedKeys } from '../helpers/studios.js';
import { tempDir } from '../helpers/temp.js';

async function manifestOf(file: string): Promise<BackupManifest> {
  const dir = tempDir('gp-manifest-');
  await extract({ file, cwd: dir, filter: (entry) => entry === 'manifest.json' });
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
}

/** The settings as environment variables, for the command line. */
const asEnv = (settings: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(settings).map(([k, v]) => [`GP_${k.toUpperCase()}`, String(v)]));

for (const dialect of enabledDialects()) {
  describe(`backup and restore with an object store [${dialect}]`, { timeout: 300_000 }, () => {
    let s3: S3Server;
    let h: Harness & { close(): Promise<void> };
    let settings: Record<string, unknown>;
    let avatarKey: string;
    let slug: string;
    let objects = 0;
    const targets: TestDatabase[] = [];
    const newTarget = async () => {
      const target = await createTestDatabase(dialect);
      targets.push(target);
      return target;
    };
    const storeFor = (values: Record<string, unknown>) =>
      openStore(loadConfig({ env: { NODE_ENV: 'test' }, cwd: tempDir('gp-cfg-'), overrides: values }));

    beforeAll(async () => {
      s3 = await startS3();
      settings = s3.settings();
      h = await createHarness(dialect, { settings });
      slug = (await publishFixture(h.ctx, 'orbit-dash')).slug;
      const { token } = await createPlayerWithToken(h.ctx);
      const picture = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#a36' } })
        .png()
        .toBuffer();
      const { body, contentType } = multipartBody([
        { field: 'avatar', filename: 'me.png', contentType: 'image/png', data: picture },
      ]);
      const res = await h.http.post('/v1/me/avatar', { token, body, contentType });
      avatarKey = `avatars/${new URL(res.body.data.avatar_url).pathname.replace('/avatars/', '')}`;
      // the game's files, their compressed copies made at publish, and the avatar: all referenced by the database
      objects = (await storedKeys(h.ctx, '')).length;
    });
    afterAll(async () => {
      await h?.close();
      for (const target of targets) await target.drop();
      await s3?.close();
    });

    const source = () => ({ GP_DATABASE_URL: h.config.database_url, GP_DATA_DIR: h.dataDir, ...asEnv(settings) });

    it('lists the objects, and a restore names those the bucket lost with status 2', async () => {
      const file = path.join(tempDir('gp-backup-'), 'listed.tar.gz');
      const backup = await runCli(['backup', file], source());
      expect(backup.code).toBe(0);
      expect(objects).toBeGreaterThan(5);
      expect(backup.stdout).toContain(`${objects} stored objects referenced: 0 in the archive, ${objects} listed only`);
      const manifest = await manifestOf(file);
      expect(manifest.store.kind).toBe('s3');
      expect(manifest.objects.map((o) => o.key)).toContain(avatarKey);
      expect(manifest.objects.every((o) => !o.included)).toBe(true);

      // The avatar is replaced after the backup: its object leaves the bucket.
      const store = await storeFor(settings);
      await store.delete(avatarKey);
      store.close();
      const target = await newTarget();
      const restore = await runCli(['restore', file], {
        GP_DATABASE_URL: target.url,
        GP_DATA_DIR: target.dataDir,
        ...asEnv(settings),
      });
      expect(restore.code).toBe(2);
      expect(restore.stderr).toContain(`  ${avatarKey}\n`);
      expect(restore.stderr).toMatch(/object versions/);
    });

    it('with --objects, restores into an empty bucket every object the database points at', async () => {
      const file = path.join(tempDir('gp-backup-'), 'whole.tar.gz');
      // The avatar is back in the bucket (as an object version would bring it back).
      const store = await storeFor(settings);
      await store.put(avatarKey, Buffer.from('webp bytes'), { contentType: 'image/webp' });
      store.close();
      const backup = await runCli(['backup', '--objects', file], source());
      expect(backup.code).toBe(0);
      expect((await manifestOf(file)).objects.every((o) => o.included)).toBe(true);

      const elsewhere = s3.settings();
      const target = await newTarget();
      const restore = await runCli(['restore', file], {
        GP_DATABASE_URL: target.url,
        GP_DATA_DIR: target.dataDir,
        ...asEnv(elsewhere),
      });
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toContain(`stored objects: ${objects} written back, 0 already there`);
      const restored = await storeFor(elsewhere);
      expect(await restored.head(avatarKey)).not.toBeNull();
      expect((await restored.list(`games/${slug}/`)[Symbol.asyncIterator]().next()).done).toBe(false);
      restored.close();
    });

    it('restores a backup of files under data_dir into a bucket', async () => {
      const local = await newTarget();
      const localEnv = { GP_DATABASE_URL: local.url, GP_DATA_DIR: local.dataDir };
      expect(
        (await runCli(['games', 'publish', path.resolve('test/fixtures/games/quiet-garden')], localEnv)).code,
      ).toBe(0);
      const file = path.join(tempDir('gp-backup-'), 'files.tar.gz');
      expect((await runCli(['backup', file], localEnv)).code).toBe(0);
      const bucket = s3.settings();
      const target = await newTarget();
      const restore = await runCli(['restore', file], {
        GP_DATABASE_URL: target.url,
        GP_DATA_DIR: target.dataDir,
        ...asEnv(bucket),
      });
      expect(restore.code).toBe(0);
      const store = await storeFor(bucket);
      const keys: string[] = [];
      for await (const object of store.list('games/quiet-garden/')) keys.push(object.key);
      store.close();
      expect(keys.length).toBe((await manifestOf(file)).objects.length);
    });
  });
}
