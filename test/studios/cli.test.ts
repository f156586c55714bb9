// gameplatform studios …: the operators' commands, run as child processes against the test database.
import { expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('studios: command line', (h) => {
  // Each command is a new process (a few seconds on a busy machine).
  const SLOW = 180_000;

  it(
    'creates a studio with an owner, adds a member, hands it a game, lists them, and refuses to remove the last owner',
    async () => {
      const cli = cliFor(h);
      const owner = await createPlayerWithToken(h.ctx, { username: `owner_${process.pid}` });
      const dev = await createPlayerWithToken(h.ctx, { username: `dev_${process.pid}` });
      const game = await createGame(h.ctx);
      const slug = `cli-studio-${process.pid}`;
      const created = await cli(['studios', 'create', 'CLI Studio', '--slug', slug, '--owner', owner.player.email]);
      expect(created.stderr).toBe('');
      expect(created.stdout.trim()).toBe(`created studio ${slug} "CLI Studio" owned by ${owner.player.email}`);
      expect((await cli(['studios', 'add-member', slug, dev.player.username])).code).toBe(0);
      const given = await cli(['studios', 'give-game', slug, game.slug]);
      expect(given.stdout.trim()).toBe(`${game.slug} belongs to ${slug}`);
      expect((await h.http.get(`/v1/studio/games/${game.slug}`, { token: dev.token })).status).toBe(200);
      const members = await cli(['studios', 'members', slug]);
      expect(members.stdout).toMatch(new RegExp(`${owner.player.username}\\s+owner`));
      expect(members.stdout).toMatch(new RegExp(`${dev.player.username}\\s+developer`));
      const list = await cli(['studios', 'list', '--json']);
      expect(JSON.parse(list.stdout)).toContainEqual({ slug, name: 'CLI Studio', status: 'active' });
      const last = await cli(['studios', 'remove-member', slug, String(owner.player.id)]);
      expect(last.code).toBe(1);
      expect(last.stderr).toMatch(/needs an owner/);
    },
    SLOW,
  );

  it(
    'refuses an unknown player and an unknown studio with exit code 1',
    async () => {
      const cli = cliFor(h);
      const unknownOwner = await cli(['studios', 'create', 'Nobody', '--owner', 'no_such_player']);
      expect(unknownOwner.code).toBe(1);
      expect(unknownOwner.stderr).toMatch(/No player with the username or email no_such_player/);
      const unknownStudio = await cli(['studios', 'give-game', 'no-such-studio', 'x']);
      expect(unknownStudio.code).toBe(1);
      expect(unknownStudio.stderr).toMatch(/No studio no-such-studio/);
    },
    SLOW,
  );
});
