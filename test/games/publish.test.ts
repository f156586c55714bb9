// gameplatform games publish: every manifest rule, the file rules, and republishing in place.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { createPlayerWithToken, createPlaySession, fixtureCopy, publishFixture } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

/** The `fields` of the 422 a publish of `dir` fails with. */
async function problems(publish: () => Promise<unknown>): Promise<Record<string, string>> {
  const error = await publish().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('validation_failed');
  return (error as AppError).extra.fields as Record<string, string>;
}

const long = (n: number) => 'x'.repeat(n);

/** [what, game.json changes, field named, message]: one per rule. */
const MANIFEST_RULES: Array<[string, Record<string, unknown>, string, RegExp]> = [
  ['a missing slug', { slug: undefined }, 'slug', /required/],
  ['an upper-case slug', { slug: 'Orbit' }, 'slug', /lower-case/],
  ['a slug ending in a hyphen', { slug: 'orbit-' }, 'slug', /ending with a letter or digit/],
  ['a slug over 64 characters', { slug: `a${long(64)}` }, 'slug', /1 to 64/],
  ['a slug with a slash', { slug: 'a/b' }, 'slug', /lower-case/],
  ['a missing name', { name: undefined }, 'name', /required/],
  ['a blank name', { name: '   ' }, 'name', /empty/],
  ['a name that is not a string', { name: 42 }, 'name', /string/],
  ['a name over 80 characters', { name: long(81) }, 'name', /at most 80/],
  ['a tagline over 140 characters', { tagline: long(141) }, 'tagline', /at most 140/],
  ['a tagline with a line break', { tagline: 'one\ntwo' }, 'tagline', /line breaks/],
  ['a description over 4000 characters', { description: long(4001) }, 'description', /at most 4000/],
  ['a description with a control character', { description: 'bell \u0007' }, 'description', /control/],
  ['a missing category', { category: undefined }, 'category', /required/],
  ['a category with spaces', { category: 'Arcade Games' }, 'category', /lower-case/],
  ['tags that are not an array', { tags: 'space' }, 'tags', /array/],
  ['more than 20 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags', /at most 20/],
  ['an empty tag', { tags: ['space', ''] }, 'tags[1]', /non-empty/],
  ['a tag over 32 characters', { tags: [long(33)] }, 'tags[0]', /at most 32/],
  ['a tag that is not a string', { tags: [7] }, 'tags[0]', /string/],
  ['a repeated tag', { tags: ['Space', 'space'] }, 'tags[1]', /repeats/],
  ['a missing version', { version: undefined }, 'version', /required/],
  ['a version that is not semantic', { version: '1.2' }, 'version', /semantic version/],
  ['a version with a v prefix', { version: 'v1.2.3' }, 'version', /semantic version/],
  ['a version that is a number', { version: 1 }, 'version', /semantic version/],
  ['an unknown orientation', { orientation: 'sideways' }, 'orientation', /any, portrait, landscape/],
  ['players that are not an object', { players: 2 }, 'players', /object/],
  ['players.min below 1', { players: { min: 0, max: 2 } }, 'players.min', /from 1 to 100/],
  ['players.min that is not an integer', { players: { min: 1.5, max: 2 } }, 'players.min', /integer/],
  ['players.max below players.min', { players: { min: 3, max: 2 } }, 'players.max', /at least players.min/],
  ['players.max over 100', { players: { min: 1, max: 101 } }, 'players.max', /from 1 to 100/],
  ['an unknown field in players', { players: { min: 1, max: 1, count: 1 } }, 'players.count', /not a known field/],
  ['a leaderboard that is not an object', { leaderboard: true }, 'leaderboard', /object/],
  [
    'leaderboard.enabled that is not a boolean',
    { leaderboard: { enabled: 'yes' } },
    'leaderboard.enabled',
    /true or false/,
  ],
  ['an unknown leaderboard.order', { leaderboard: { enabled: true, order: 'up' } }, 'leaderboard.order', /asc, desc/],
  ['an empty leaderboard.unit', { leaderboard: { enabled: true, unit: '' } }, 'leaderboard.unit', /empty/],
  [
    'a leaderboard.unit over 24 characters',
    { leaderboard: { enabled: true, unit: long(25) } },
    'leaderboard.unit',
    /at most 24/,
  ],
  ['negative save_slots', { save_slots: -1 }, 'save_slots', /from 0 to 20/],
  ['save_slots over 20', { save_slots: 21 }, 'save_slots', /from 0 to 20/],
  ['save_slots as a string', { save_slots: '3' }, 'save_slots', /integer/],
  ['requires_premium that is not a boolean', { requires_premium: 'no' }, 'requires_premium', /true or false/],
  ['an unknown status', { status: 'live' }, 'status', /draft, beta, published, retired/],
  ['a missing author', { author: undefined }, 'author', /required/],
  ['a missing released_at', { released_at: undefined }, 'released_at', /required/],
  ['a released_at that is no real date', { released_at: '2026-02-30' }, 'released_at', /real date/],
  ['a released_at in another format', { released_at: '14.03.2026' }, 'released_at', /YYYY-MM-DD/],
  ['a missing cover', { cover: undefined }, 'cover', /required/],
  ['a cover that is not among the files', { cover: 'missing.png' }, 'cover', /not among the game's files/],
  ['a cover that is not an image', { cover: 'game.js' }, 'cover', /\.png/],
  ['a cover outside the directory', { cover: '../cover.png' }, 'cover', /relative path inside/],
  ['an absolute cover path', { cover: '/etc/passwd.png' }, 'cover', /relative path inside/],
  ['an entry that is not among the files', { entry: 'start.html' }, 'entry', /not among the game's files/],
  ['an entry that is not HTML', { entry: 'game.js' }, 'entry', /\.html/],
  ['an entry with a backslash', { entry: 'sub\\index.html' }, 'entry', /relative path inside/],
  ['an unknown field', { save_slot: 2 }, 'save_slot', /not a known field/],
];

eachDialect('games: publish', (h) => {
  const slugDir = (slug: string) => path.join(h.dataDir, 'games', slug);
  const sets = (slug: string) => (existsSync(slugDir(slug)) ? readdirSync(slugDir(slug)).sort() : []);

  describe('refuses a bad game.json, naming the field', () => {
    it.each(MANIFEST_RULES)('%s', async (_what, changes, field, message) => {
      const slug = `bad-${Math.random().toString(36).slice(2, 10)}`;
      const dir = fixtureCopy('orbit-dash', { manifest: { slug, ...changes } });
      const fields = await problems(() => publishGame(h.ctx, dir));
      expect(fields[field]).toMatch(message);
      expect(
        await h.ctx.db.selectFrom('games').select('id').where('slug', '=', slug).executeTakeFirst(),
      ).toBeUndefined();
      expect(sets(slug)).toEqual([]);
    });

    it('reports every problem at once', async () => {
      const dir = fixtureCopy('orbit-dash', { manifest: { version: 'one', orientation: 'round', save_slots: 99 } });
      expect(Object.keys(await problems(() => publishGame(h.ctx, dir))).sort()).toEqual([
        'orientation',
        'save_slots',
        'version',
      ]);
    });

    it('refuses game.json that is not JSON, not an object, or missing', async () => {
      const dir = fixtureCopy('orbit-dash');
      writeFileSync(path.join(dir, 'game.json'), '{"slug": ');
      expect((await problems(() => publishGame(h.ctx, dir)))['game.json']).toMatch(/not valid JSON/);
      writeFileSync(path.join(dir, 'game.json'), '[]');
      expect((await problems(() => publishGame(h.ctx, dir)))['game.json']).toMatch(/JSON object/);
      rmSync(path.join(dir, 'game.json'));
      expect((await problems(() => publishGame(h.ctx, dir)))['game.json']).toMatch(/not found/);
      expect((await problems(() => publishGame(h.ctx, path.join(dir, 'nowhere')))).dir).toMatch(/not a directory/);
    });

    it('applies the defaults of optional fields', async () => {
      const { game } = await publishFixture(h.ctx, 'orbit-dash', {
        manifest: {
          tagline: undefined,
          description: undefined,
          tags: undefined,
          orientation: undefined,
          players: undefined,
          leaderboard: undefined,
          save_slots: undefined,
          requires_premium: undefined,
          status: undefined,
          entry: undefined,
        },
      });
      expect(game).toMatchObject({
        tagline: null,
        description: null,
        tags: '[]',
        orientation: 'any',
        players_min: 1,
        players_max: 1,
        leaderboard_enabled: 0,
        leaderboard_order: 'desc',
        leaderboard_unit: 'points',
        save_slots: 0,
        requires_premium: 0,
        status: 'published',
        entry: 'index.html',
      });
    });

    it('keeps line breaks in a description, Windows ones as \\n', async () => {
      expect(
        (await publishFixture(h.ctx, 'orbit-dash', { manifest: { description: 'one\r\ntwo\n\tthree' } })).game
          .description,
      ).toBe('one\ntwo\n\tthree');
    });

    it('takes build metadata and pre-releases as versions', async () => {
      expect(
        (await publishFixture(h.ctx, 'orbit-dash', { manifest: { version: '2.0.0-rc.1+build.7' } })).game.version,
      ).toBe('2.0.0-rc.1+build.7');
    });
  });

  describe('checks the files', () => {
    it('refuses a symbolic link to a file outside the directory', async () => {
      const dir = fixtureCopy('orbit-dash');
      symlinkSync('/etc/passwd', path.join(dir, 'assets', 'passwd.png'));
      expect((await problems(() => publishGame(h.ctx, dir))).files).toMatch(/assets\/passwd.png is a symbolic link/);
    });

    it('refuses a symbolic link to a directory', async () => {
      const dir = fixtureCopy('orbit-dash');
      symlinkSync('/etc', path.join(dir, 'etc'));
      expect((await problems(() => publishGame(h.ctx, dir))).files).toMatch(/etc is a symbolic link/);
    });

    it('refuses game.json as a symbolic link', async () => {
      const dir = fixtureCopy('orbit-dash');
      const real = path.join(tempDir('gp-fixture-'), 'manifest.json');
      writeFileSync(real, readFileSync(path.join(dir, 'game.json')));
      rmSync(path.join(dir, 'game.json'));
      symlinkSync(real, path.join(dir, 'game.json'));
      expect((await problems(() => publishGame(h.ctx, dir)))['game.json']).toMatch(/regular file/);
    });

    it('refuses something that is not a regular file', async () => {
      const dir = fixtureCopy('orbit-dash');
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      expect((await problems(() => publishGame(h.ctx, dir))).files).toMatch(/pipe is not a regular file/);
    });

    it.each(['100%.png', 'what?.js', 'hash#.css', 'back\\slash.js'])(
      'refuses a file named %s, which no URL could name plainly',
      async (name) => {
        const dir = fixtureCopy('orbit-dash', { files: { [name]: 'x' } });
        expect((await problems(() => publishGame(h.ctx, dir))).files).toMatch(/must not contain/);
      },
    );

    it('refuses a top-level name starting with ~ (reserved for versioned URLs)', async () => {
      const dir = fixtureCopy('orbit-dash', { files: { '~old/a.js': 'x' } });
      expect((await problems(() => publishGame(h.ctx, dir))).files).toMatch(
        /~old: top-level names starting with ~ are reserved/,
      );
    });

    it('leaves out hidden files and folders and game.json itself', async () => {
      const { slug, files_dir } = await publishFixture(h.ctx, 'orbit-dash', {
        files: { '.env': 'SECRET=1', '.git/config': 'x', 'assets/.DS_Store': 'x' },
      });
      const stored = path.join(slugDir(slug), files_dir);
      // .compressed is the service's own marker: the set has its compressed copies (none here: the files are small).
      expect(readdirSync(stored).sort()).toEqual([
        '.compressed',
        'assets',
        'cover.png',
        'game.js',
        'index.html',
        'style.css',
      ]);
      expect(readdirSync(path.join(stored, 'assets'))).toEqual(['ship.svg']);
    });
  });

  describe('republishing', () => {
    it('updates the game in place: same id, favourites and stats kept, new file set', async () => {
      const first = await publishFixture(h.ctx, 'orbit-dash');
      const { token } = await createPlayerWithToken(h.ctx);
      await h.http.post(`/v1/games/${first.slug}/favorite`, { token });
      await h.ctx.db
        .updateTable('games')
        .set({ plays: 7, playtime_seconds: 3600 })
        .where('id', '=', first.game.id)
        .execute();

      const second = await publishFixture(h.ctx, 'orbit-dash', {
        manifest: { slug: first.slug, version: '1.3.0', name: 'Orbit Dash II', tags: ['space'] },
        files: { 'game.js': 'console.log("v2")' },
      });
      expect(second.created).toBe(false);
      expect(second.previous_version).toBe('1.2.0');
      expect(second.game).toMatchObject({
        id: first.game.id,
        plays: 7,
        playtime_seconds: 3600,
        name: 'Orbit Dash II',
        version: '1.3.0',
        tags: '["space"]',
      });
      expect(second.game.files_dir).not.toBe(first.files_dir);
      expect(second.game.previous_files_dir).toBe(first.files_dir);

      const res = await h.http.get(`/v1/games/${first.slug}`, { token });
      expect(res.body.data).toMatchObject({
        name: 'Orbit Dash II',
        is_favorite: true,
        stats: { plays: 7, playtime_hours: 1 },
      });
      expect(
        (await h.http.get('/v1/games', { query: { q: 'Orbit Dash II' } })).body.data.games.map(
          (g: { slug: string }) => g.slug,
        ),
      ).toContain(first.slug);
    });

    it('keeps the file set it replaced and deletes older ones', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const v2 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.2.1' } });
      expect(v2.removed).toEqual([]);
      expect(sets(v1.slug)).toEqual([v1.files_dir, v2.files_dir].sort());
      const v3 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.2.2' } });
      expect(v3.removed).toEqual([v1.files_dir]);
      expect(sets(v1.slug)).toEqual([v2.files_dir, v3.files_dir].sort());
    });

    it('keeps the status when game.json names none, and applies it when it does', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { status: 'beta' } });
      await h.ctx.db.updateTable('games').set({ status: 'retired' }).where('id', '=', v1.game.id).execute();
      const v2 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, status: undefined } });
      expect(v2.game.status).toBe('retired');
      const v3 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, status: 'published' } });
      expect(v3.game.status).toBe('published');
    });

    it('changes nothing when the new version is refused', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const dir = fixtureCopy('orbit-dash', { manifest: { slug: v1.slug, version: 'next' } });
      await problems(() => publishGame(h.ctx, dir));
      const row = await h.ctx.db.selectFrom('games').selectAll().where('id', '=', v1.game.id).executeTakeFirstOrThrow();
      expect(row).toEqual(v1.game);
      expect(sets(v1.slug)).toEqual([v1.files_dir]);
    });

    it('lets two publishes of a new slug race: one creates, the other updates', async () => {
      const slug = `race-${Math.random().toString(36).slice(2, 10)}`;
      const dirs = ['1.0.0', '1.0.1'].map((version) => fixtureCopy('orbit-dash', { manifest: { slug, version } }));
      const results = await Promise.all(dirs.map((dir) => publishGame(h.ctx, dir)));
      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      const rows = await h.ctx.db.selectFrom('games').selectAll().where('slug', '=', slug).execute();
      expect(rows).toHaveLength(1);
      expect(sets(slug)).toEqual(results.map((r) => r.files_dir).sort());
      expect([rows[0]!.files_dir, rows[0]!.previous_files_dir].sort()).toEqual(results.map((r) => r.files_dir).sort());
    });

    it('removes a file set left behind by a crashed publish once it is an hour old, and leaves one being uploaded alone', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const crashed = `${(h.clock.now() - 2 * 3600_000).toString(36)}-deadbeef`;
      const uploading = `${h.clock.now().toString(36)}-cafebabe`;
      for (const [set, started] of [
        [crashed, h.clock.now() - 2 * 3600_000],
        [uploading, h.clock.now()],
      ] as const) {
        mkdirSync(path.join(slugDir(v1.slug), set));
        writeFileSync(path.join(slugDir(v1.slug), set, '.publishing'), String(started));
        writeFileSync(path.join(slugDir(v1.slug), set, 'game.js'), 'half');
      }
      const v2 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug } });
      expect(v2.removed).toEqual([crashed]);
      expect(sets(v1.slug)).toEqual([v1.files_dir, v2.files_dir, uploading].sort());
    });

    it('keeps old file sets while a play session of the game is active, and removes them once none is', async () => {
      const v1 = await publishFixture(h.ctx, 'orbit-dash');
      const v2 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.2.1' } });
      const { player } = await createPlayerWithToken(h.ctx);
      const session = await createPlaySession(h.ctx, player.id, v1.game.id, { status: 'active' });
      const v3 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.2.2' } });
      expect(v3).toMatchObject({ removed: [], kept: [v1.files_dir] });
      expect(sets(v1.slug)).toEqual([v1.files_dir, v2.files_dir, v3.files_dir].sort());
      await h.ctx.db
        .updateTable('play_sessions')
        .set({ status: 'closed', ended_at: h.clock.now(), end_reason: 'quit' })
        .where('id', '=', session.id)
        .execute();
      const v4 = await publishFixture(h.ctx, 'orbit-dash', { manifest: { slug: v1.slug, version: '1.2.3' } });
      expect(v4.removed.sort()).toEqual([v1.files_dir, v2.files_dir].sort());
      expect(sets(v1.slug)).toEqual([v3.files_dir, v4.files_dir].sort());
    });
  });
});
