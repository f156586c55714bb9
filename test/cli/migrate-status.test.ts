// `gameplatform migrate --status` and `--dry-run` as a deploy script runs them: what they print, that they change
// nothing, and their exit statuses (0 up to date, 3 pending, 4 a database newer than this version).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrationStatus } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { enabledDialects } from '../helpers/dialects.js';

const names = Object.keys(migrations).sort();
const newest = names[names.length - 1]!;

for (const dialect of enabledDialects()) {
  // Each call is a new process that compiles the sources: slow when the machine is busy.
  describe(`cli: migrate --status and --dry-run [${dialect}]`, { timeout: 120_000 }, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    const cli = (...args: string[]) =>
      runCli(['migrate', ...args], { GP_DATABASE_URL: testDb.url, GP_DATA_DIR: testDb.dataDir });
    const tables = async () =>
      (await handle.db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name);

    beforeAll(async () => {
      testDb = await createTestDatabase(dialect);
      handle = openDatabase(testDb.url);
    });
    afterAll(async () => {
      await handle.destroy();
      await testDb.drop();
    });

    it('lists every migration as pending on a new database and exits 3, creating nothing', async () => {
      const status = await cli('--status');
      expect(status.code).toBe(3);
      expect(status.stdout).toContain(`pending  ${names[0]}`);
      expect(status.stdout.trim().split('\n').at(-1)).toBe(`0 applied, ${names.length} pending`);
      const json = await cli('--status', '--json');
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toEqual({ applied: [], pending: names, unknown: [] });
      expect(await tables()).toEqual([]);
    });

    it('prints the SQL of every pending migration, exits 3, and leaves the database as it was', async () => {
      const plan = await cli('--dry-run');
      expect(plan.code).toBe(3);
      for (const name of names) expect(plan.stdout).toContain(`-- migration ${name}`);
      expect(plan.stdout).toMatch(/create table "players" \(/);
      expect(plan.stdout).toMatch(/create index "play_sessions_sweep_idx"/);
      expect(await tables()).toEqual([]);
      expect((await migrationStatus(handle.db)).pending).toEqual(names);
    });

    it('exits 0 once migrated: every migration applied, nothing to print', async () => {
      expect((await cli()).code).toBe(0);
      const status = await cli('--status');
      expect(status.code).toBe(0);
      expect(status.stdout.trim().split('\n').at(-1)).toBe(`${names.length} applied, 0 pending`);
      const plan = await cli('--dry-run');
      expect(plan.code).toBe(0);
      expect(plan.stdout).toMatch(/nothing to do/);
    });

    it('shows the one migration a deploy would add, with its statements, and applies none of it', async () => {
      expect((await cli('--down', '--yes')).code).toBe(0);
      const status = await cli('--status', '--json');
      expect(status.code).toBe(3);
      expect(JSON.parse(status.stdout).pending).toEqual([newest]);
      const before = (await tables()).sort();
      const plan = await cli('--dry-run');
      expect(plan.code).toBe(3);
      // Only the newest migration, with what it would run (whatever that migration is).
      const sections = plan.stdout.split(/^-- migration /m).slice(1);
      expect(sections.map((s) => s.split(/[\s(]/)[0])).toEqual([newest]);
      const [header, ...statements] = sections[0]!.trim().split('\n');
      expect(statements.length > 0 || header!.endsWith('(no statement on this database)')).toBe(true);
      expect((await tables()).sort()).toEqual(before);
      expect((await migrationStatus(handle.db)).pending).toEqual([newest]);
      expect((await cli()).code).toBe(0);
    });

    it('exits 4 and refuses to migrate a database that a newer version migrated', async () => {
      await handle.db
        .insertInto('kysely_migration' as never)
        .values({ name: '2099_01_01_0000_from_the_future', timestamp: new Date().toISOString() } as never)
        .execute();
      const status = await cli('--status');
      expect(status.code).toBe(4);
      expect(status.stdout).toContain('unknown  2099_01_01_0000_from_the_future');
      for (const args of [[], ['--dry-run']]) {
        const refused = await cli(...args);
        expect(refused.code).toBe(4);
        expect(refused.stderr).toMatch(/^gameplatform: .*2099_01_01_0000_from_the_future.*newer version/);
      }
    });
  });
}
