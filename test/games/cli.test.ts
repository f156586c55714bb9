// gameplatform games … and keys …, run as child processes against the test database.
import { expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { cliFor } from '../helpers/cli.js';
import { fixtureCopy } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

function probes(app: App) {
  app.get('/v1/test/stats', { config: { auth: 'key', scope: 'stats:read' } }, (async () => ({
    ok: true,
    data: {},
  })) as never);
}

eachDialect(
  'games: command line',
  (h) => {
    const slug = `cli-${process.pid}`;
    // Each command is a new process (a few seconds on a busy machine).
    const SLOW = 120_000;

    it(
      'publishes a game, lists it, and publishes it again in place',
      async () => {
        const cli = cliFor(h);
        const first = await cli(['games', 'publish', fixtureCopy('orbit-dash', { manifest: { slug } })]);
        expect(first.stderr).toBe('');
        expect(first.code).toBe(0);
        expect(first.stdout).toMatch(
          new RegExp(`^published new game ${slug} 1\\.2\\.0 \\(status published\\): 5 files`),
        );
        const res = await h.http.get(`/v1/games/${slug}`);
        expect(res.status).toBe(200);
        expect((await h.http.get(res.body.data.cover_url)).status).toBe(200);

        const again = await cli([
          'games',
          'publish',
          fixtureCopy('orbit-dash', { manifest: { slug, name: 'Orbit Dash Redux' } }),
        ]);
        expect(again.code).toBe(0);
        expect(again.stdout).toMatch(new RegExp(`^updated ${slug} 1\\.2\\.0 -> 1\\.2\\.0`));
        expect(again.stderr).toMatch(/version 1\.2\.0 is not newer than the previous 1\.2\.0/);
        expect((await h.http.get(`/v1/games/${slug}`)).body.data.name).toBe('Orbit Dash Redux');

        const list = await cli(['games', 'list']);
        expect(list.stdout).toMatch(/^SLUG\s+STATUS\s+VERSION\s+CATEGORY\s+PLAYS\s+NAME/);
        expect(list.stdout).toMatch(new RegExp(`${slug}\\s+published\\s+1\\.2\\.0\\s+arcade\\s+0\\s+Orbit Dash Redux`));
        const json = await cli(['games', 'list', '--json']);
        expect(json.code).toBe(0);
        expect(JSON.parse(json.stdout)).toContainEqual(
          expect.objectContaining({
            slug,
            name: 'Orbit Dash Redux',
            status: 'published',
            version: '1.2.0',
            category: 'arcade',
            plays: 0,
          }),
        );
      },
      SLOW,
    );

    it(
      'refuses a bad game.json with exit code 1 and a message naming each field',
      async () => {
        const res = await cliFor(h)([
          'games',
          'publish',
          fixtureCopy('orbit-dash', { manifest: { version: '1.2', players: { min: 2, max: 1 } } }),
        ]);
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(/^gameplatform: game\.json is not valid/);
        expect(res.stderr).toMatch(/ {2}version: must be a semantic version/);
        expect(res.stderr).toMatch(/ {2}players\.max: must be at least players\.min/);
        expect(res.stderr).not.toMatch(/at .*\.ts:\d+/);
      },
      SLOW,
    );

    it(
      'changes a game status, refusing unknown statuses and games',
      async () => {
        const cli = cliFor(h);
        const retired = await cli(['games', 'set-status', slug, 'retired']);
        expect(retired.stdout.trim()).toBe(`${slug}: published -> retired`);
        expect((await h.http.get(`/v1/games/${slug}`)).status).toBe(404);

        const bad = await cli(['games', 'set-status', slug, 'live']);
        expect(bad.code).toBe(1);
        expect(bad.stderr).toMatch(/status: must be one of draft, beta, published, retired/);
        const unknown = await cli(['games', 'set-status', 'no-such-game', 'beta']);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toMatch(/No game no-such-game/);
      },
      SLOW,
    );

    it(
      'creates a key that is printed once, lists it by prefix, and revokes it',
      async () => {
        const cli = cliFor(h);
        const created = await cli([
          'keys',
          'create',
          '--game',
          slug,
          '--scopes',
          'stats:read,states:read',
          '--name',
          'backend',
        ]);
        expect(created.code).toBe(0);
        const key = /^(agk_\S+)$/m.exec(created.stdout)?.[1];
        const id = /created developer key (\d+) "backend" for \S+, scopes stats:read, states:read/.exec(
          created.stdout,
        )?.[1];
        expect(key && id).toBeTruthy();
        expect(created.stderr).toMatch(/not shown again/);
        expect((await h.http.get('/v1/test/stats', { token: key! })).status).toBe(200);

        expect((await cli(['keys', 'revoke', id!])).stdout.trim()).toBe(`revoked developer key ${id}`);
        expect((await h.http.get('/v1/test/stats', { token: key! })).status).toBe(401);
        expect((await cli(['keys', 'revoke', id!])).stdout.trim()).toBe(`developer key ${id} was already revoked`);

        const list = await cli(['keys', 'list', '--game', slug]);
        expect(list.stdout).toContain(key!.slice(0, 12));
        expect(list.stdout).not.toContain(key!.slice(12));
        // id, game, name, prefix, scopes, created, last used, revoked
        const stamp = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}';
        expect(list.stdout).toMatch(
          new RegExp(
            `^${id}\\s+${slug}\\s+backend\\s+${key!.slice(0, 12)}\\s+stats:read,states:read\\s+${stamp}\\s+${stamp}\\s+${stamp}$`,
            'm',
          ),
        );
        const json = await cli(['keys', 'list', '--game', slug, '--json']);
        expect(json.code).toBe(0);
        expect(JSON.parse(json.stdout)).toContainEqual(
          expect.objectContaining({
            id: Number(id),
            game: slug,
            name: 'backend',
            prefix: key!.slice(0, 12),
            scopes: ['stats:read', 'states:read'],
          }),
        );
        expect(json.stdout).not.toContain(key!.slice(12));
      },
      SLOW,
    );

    it(
      'refuses unknown scopes, unknown games and unknown key ids',
      async () => {
        const cli = cliFor(h);
        const scope = await cli(['keys', 'create', '--game', slug, '--scopes', 'states:read,root']);
        expect(scope.code).toBe(1);
        expect(scope.stderr).toMatch(
          /scopes: unknown scope root; known: states:read, states:write, scores:write, players:read, stats:read/,
        );
        const game = await cli(['keys', 'create', '--game', 'no-such-game', '--scopes', 'stats:read']);
        expect(game.code).toBe(1);
        expect(game.stderr).toMatch(/No game no-such-game/);
        const revoke = await cli(['keys', 'revoke', 'abc']);
        expect(revoke.code).toBe(1);
        expect(revoke.stderr).toMatch(/id: must be a key id/);
      },
      SLOW,
    );
  },
  { beforeReady: probes },
);
