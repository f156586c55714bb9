// `gameplatform backup` and `restore` end to end, on each database: a backup taken while players submit scores, save,
// replace their avatars and a game is republished holds every write acknowledged before its snapshot, and a service
// restored from it on a new machine (a new database and data_dir) serves every avatar and game file it points at.
import { existsSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateDown } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { removeStaleStaging } from '../../src/services/backup/backup.js';
import type { BackupManifest } from '../../src/services/backup/manifest.js';
import { LocalStore } from '../../src/services/storage/local-store.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { createHarness, testConfig, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';
import { tempDir } from '../helpers/temp.js';

type Ack =
  | { kind: 'score'; at: number; player: number; value: number }
  | { kind: 'save'; at: number; player: number; slot: number; version: number }
  | { kind: 'avatar'; at: number; player: number; file: string }
  | { kind: 'publish'; at: number; version: string; set: string };

const FIXTURE_FILES = ['index.html', 'game.js', 'style.css', 'cover.png', 'assets/ship.svg'];

async function manifestOf(file: string): Promise<BackupManifest> {
  const dir = tempDir('gp-manifest-');
  await extract({ file, cwd: dir, filter: (entry) => entry === 'manifest.json' });
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
}

/** The service on a restored database and data_dir, as it would start on the new machine. */
async function restoredService(target: TestDatabase): Promise<{ app: App; database: DatabaseHandle }> {
  const config = testConfig(target.dataDir, target.url);
  const database = openDatabase(config.database_url);
  const app = await buildApp({ config, database });
  await app.ready();
  return { app, database };
}

for (const dialect of enabledDialects()) {
  // Each command is a new process that compiles the sources: slow when the machine is busy.
  describe(`backup and restore while the service writes [${dialect}]`, { timeout: 300_000 }, () => {
    let h: Harness & { close(): Promise<void> };
    let picture: Buffer;
    const targets: TestDatabase[] = [];
    const newTarget = async () => {
      const target = await createTestDatabase(dialect);
      targets.push(target);
      return target;
    };
    const env = (db: { url: string; dataDir: string }) => ({ GP_DATABASE_URL: db.url, GP_DATA_DIR: db.dataDir });

    beforeAll(async () => {
      h = await createHarness(dialect);
      picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a6' } })
        .png()
        .toBuffer();
    });
    afterAll(async () => {
      await h?.close();
      for (const target of targets) await target.drop();
    });

    it('restores every write acknowledged before the snapshot, with every avatar and game file it points at', async () => {
      const first = await publishFixture(h.ctx, 'orbit-dash');
      const slug = first.slug;
      const players = await Promise.all(Array.from({ length: 6 }, () => createPlayerWithToken(h.ctx)));
      const acks: Ack[] = [];
      let writing = true;
      let nextScore = 1;

      const act = async (player: (typeof players)[number], round: number) => {
        if (round % 3 === 0) {
          const value = nextScore++;
          const res = await h.http.post(`/v1/games/${slug}/scores`, { token: player.token, body: { score: value } });
          expect(res.status).toBe(201);
          acks.push({ kind: 'score', at: Date.now(), player: player.player.id, value });
        } else if (round % 3 === 1) {
          const slot = round % 2;
          const res = await h.http.put(`/v1/games/${slug}/states/${slot}`, {
            token: player.token,
            body: { state: { round } },
          });
          expect([200, 201]).toContain(res.status);
          acks.push({ kind: 'save', at: Date.now(), player: player.player.id, slot, version: res.body.data.version });
        } else {
          const { body, contentType } = multipartBody([
            { field: 'avatar', filename: 'me.png', contentType: 'image/png', data: picture },
          ]);
          const res = await h.http.post('/v1/me/avatar', { token: player.token, body, contentType });
          expect(res.status).toBe(200);
          const file = new URL(res.body.data.avatar_url).pathname.replace('/avatars/', '');
          acks.push({ kind: 'avatar', at: Date.now(), player: player.player.id, file });
        }
      };
      const writers = players.map(async (player) => {
        for (let round = 0; writing; round++) await act(player, round);
      });
      // Republishing removes the file sets older than the one replaced: a backup must not lose those it names.
      const publisher = (async () => {
        for (let version = 2; writing; version++) {
          const result = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug, version: `${version}.0.0` } });
          acks.push({ kind: 'publish', at: Date.now(), version: result.version, set: result.files_dir });
        }
      })();

      // A writer that fails stops the test rather than leaving it waiting.
      let failed: unknown;
      for (const task of [...writers, publisher])
        task.catch((error: unknown) => {
          failed ??= error;
          writing = false;
        });
      while (acks.length < 30 && !failed) await new Promise((resolve) => setImmediate(resolve));
      if (failed) throw failed;
      const file = path.join(tempDir('gp-backup-'), 'backup.tar.gz');
      const backup = await runCli(['backup', file], env({ url: h.config.database_url, dataDir: h.dataDir }));
      const backupEnded = Date.now();
      writing = false;
      await Promise.all([...writers, publisher]);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);

      const manifest = await manifestOf(file);
      const snapshot = Date.parse(manifest.snapshot_started_at);
      expect(backup.stdout).toContain(`snapshot taken at ${manifest.snapshot_started_at}`);
      expect(manifest.missing).toEqual([]);
      const before = acks.filter((a) => a.at < snapshot);
      const after = acks.filter((a) => a.at > snapshot && a.at < backupEnded);
      for (const kind of ['score', 'save', 'avatar', 'publish'])
        expect(
          before.some((a) => a.kind === kind),
          kind,
        ).toBe(true);
      expect(after.length).toBeGreaterThan(0); // the writes went on while the backup ran

      const target = await newTarget();
      const restore = await runCli(['restore', file], env(target));
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      const { app, database } = await restoredService(target);
      try {
        const db = database.db;
        for (const ack of before) {
          if (ack.kind === 'score') {
            const row = await db
              .selectFrom('scores')
              .select('id')
              .where('player_id', '=', ack.player)
              .where('score', '=', ack.value)
              .executeTakeFirst();
            expect(row, `score ${ack.value}`).toBeDefined();
          } else if (ack.kind === 'save') {
            const row = await db
              .selectFrom('save_states')
              .select('version')
              .where('player_id', '=', ack.player)
              .where('slot', '=', ack.slot)
              .executeTakeFirstOrThrow();
            expect(row.version).toBeGreaterThanOrEqual(ack.version);
          }
        }
        // Each player's avatar is the last one acknowledged before the snapshot, or a later one; each is served.
        for (const { player } of players) {
          const row = await db
            .selectFrom('players')
            .select('avatar_key')
            .where('id', '=', player.id)
            .executeTakeFirstOrThrow();
          const mine = acks.filter(
            (a): a is Extract<Ack, { kind: 'avatar' }> => a.kind === 'avatar' && a.player === player.id,
          );
          const lastBefore = mine.filter((a) => a.at < snapshot).at(-1);
          if (lastBefore) expect(mine.slice(mine.indexOf(lastBefore)).map((a) => a.file)).toContain(row.avatar_key);
          if (row.avatar_key) {
            const served = await app.inject(`/avatars/${row.avatar_key}`);
            expect(served.statusCode, row.avatar_key).toBe(200);
            expect(served.headers['content-type']).toBe('image/webp');
          }
        }
        // The game is at the last version published before the snapshot, or later, with both its sets whole.
        const game = await db.selectFrom('games').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
        const lastPublish = before.filter((a) => a.kind === 'publish').at(-1)!;
        expect(Number.parseInt(game.version, 10)).toBeGreaterThanOrEqual(Number.parseInt(lastPublish.version, 10));
        const store = new LocalStore(target.dataDir);
        for (const set of [game.files_dir, game.previous_files_dir]) {
          expect(set).toBeTruthy();
          for (const name of FIXTURE_FILES)
            expect(await store.head(`games/${slug}/${set}/${name}`), `${set}/${name}`).not.toBeNull();
        }
        const served = await app.inject({ url: '/game.js', headers: { host: `${slug}.games.localhost:8080` } });
        expect(served.statusCode).toBe(200);
        expect((await app.inject('/readyz')).statusCode).toBe(200);
      } finally {
        await app.close();
        await database.destroy();
      }
    });

    it('refuses a database that is not empty without --yes, and replaces it with --yes', async () => {
      const source = await newTarget();
      await runCli(['migrate'], env(source));
      await runCli(['games', 'publish', path.resolve('test/fixtures/games/orbit-dash')], env(source));
      const file = path.join(tempDir('gp-backup-'), 'small.tar.gz');
      expect((await runCli(['backup', file], env(source))).code).toBe(0);
      // The target has a game of its own: without --yes (and no terminal to ask on) nothing changes.
      const target = await newTarget();
      await runCli(['games', 'publish', path.resolve('test/fixtures/games/quiet-garden')], env(target));
      const refused = await runCli(['restore', file], env(target));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^gameplatform: the database is not empty: .*confirm with --yes\n$/);
      expect((await runCli(['games', 'list', '--json'], env(target))).stdout).toMatch(/quiet-garden/);
      const replaced = await runCli(['restore', '--yes', file], env(target));
      expect(replaced.code).toBe(0);
      const games = JSON.parse((await runCli(['games', 'list', '--json'], env(target))).stdout);
      expect(games.map((g: { slug: string }) => g.slug)).toEqual(['orbit-dash']);
    });

    it('migrates an older backup forward, and refuses a backup of a newer version with status 4', async () => {
      const names = Object.keys(migrations).sort();
      const source = await newTarget();
      await runCli(['migrate'], env(source));
      const older = openDatabase(source.url);
      try {
        await migrateDown(older.db);
      } finally {
        await older.destroy();
      }
      const file = path.join(tempDir('gp-backup-'), 'older.tar.gz');
      expect((await runCli(['backup', file], env(source))).code).toBe(0);
      expect((await manifestOf(file)).migrations).toHaveLength(names.length - 1);
      const target = await newTarget();
      const restored = await runCli(['restore', file], env(target));
      expect(restored.code).toBe(0);
      expect(restored.stdout).toContain(`applied ${names.at(-1)}`);
      expect((await runCli(['migrate', '--status'], env(target))).code).toBe(0);

      // The source, migrated by a "newer version": its backup names a migration this version does not know.
      const newer = openDatabase(source.url);
      try {
        await newer.db
          .insertInto('kysely_migration' as never)
          .values({ name: '2099_01_01_0000_from_the_future', timestamp: new Date().toISOString() } as never)
          .execute();
      } finally {
        await newer.destroy();
      }
      const newerFile = path.join(tempDir('gp-backup-'), 'newer.tar.gz');
      expect((await runCli(['backup', newerFile], env(source))).code).toBe(0);
      const empty = await newTarget();
      const refused = await runCli(['restore', newerFile], env(empty));
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(/newer version .*2099_01_01_0000_from_the_future/);
    });

    it('refuses what is not a backup, and a backup into a folder that does not exist, in one line', async () => {
      const bogus = path.join(tempDir('gp-backup-'), 'bogus.tar.gz');
      (await import('node:fs')).writeFileSync(bogus, 'not an archive');
      const target = await newTarget();
      const res = await runCli(['restore', bogus], env(target));
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^gameplatform: .*is not a gameplatform backup/);
      const nowhere = await runCli(['backup', path.join(bogus, 'no', 'such', 'folder.tar.gz')], env(target));
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toMatch(/^gameplatform: the folder .* does not exist\n$/);
    });
  });
}

describe('backup staging folders', () => {
  it('removes those a killed backup or restore left a day ago, and no other folder', async () => {
    const dataDir = tempDir('gp-staging-');
    for (const name of ['.backup-old', '.restore-old', '.backup-running', 'games', '.hidden-old'])
      mkdirSync(path.join(dataDir, name));
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    for (const name of ['.backup-old', '.restore-old', '.hidden-old'])
      utimesSync(path.join(dataDir, name), dayAgo, dayAgo);
    await removeStaleStaging(dataDir);
    expect(
      ['.backup-old', '.restore-old', '.backup-running', 'games', '.hidden-old'].map((n) =>
        existsSync(path.join(dataDir, n)),
      ),
    ).toEqual([false, false, true, true, true]);
  });
});
