// The purge of deleted accounts: by the server's timer and by `gameplatform players purge-deleted`; the avatar file goes too.
import { expect, it } from 'vitest';
import { startDeletionPurge } from '../../src/modules/accounts/purge.sweeper.js';
import { cliFor } from '../helpers/cli.js';
import { eachDialect } from '../helpers/harness.js';
import { createPlayer, createToken } from '../helpers/factories.js';

const CLI_TIMEOUT = 120_000;

eachDialect('accounts: purge of deleted accounts', (h) => {
  /** A player whose deletion fell due `ago` ms before now (by the harness clock), with an avatar file. */
  const deleted = async (dueAt: number) => {
    const player = await createPlayer(h.ctx);
    const avatar = `${player.id}-abcdefghijkl.webp`;
    await h.ctx.storage.put(`avatars/${avatar}`, Buffer.from('not really a picture'), { contentType: 'image/webp' });
    await h.ctx.db.updateTable('players').set({ status: 'deleting', deletion_due_at: dueAt, avatar_key: avatar }).where('id', '=', player.id).execute();
    await createToken(h.ctx, player.id, { revoked: true });
    return { player, avatar };
  };
  const exists = async (id: number) => (await h.ctx.db.selectFrom('players').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  it('purges on the server timer, leaving accounts not yet due; the avatar file is removed', async () => {
    const now = h.clock.now();
    const due = await deleted(now - 1000);
    const waiting = await deleted(now + 86_400_000);
    expect(await h.ctx.storage.head(`avatars/${due.avatar}`)).not.toBeNull();
    const purger = startDeletionPurge(h.ctx, 50);
    try {
      await expect.poll(() => exists(due.player.id), { timeout: 15_000, interval: 50 }).toBe(false);
    } finally {
      await purger.stop();
    }
    expect(await h.ctx.storage.head(`avatars/${due.avatar}`)).toBeNull();
    expect(await exists(waiting.player.id)).toBe(true);
    expect(await h.ctx.storage.head(`avatars/${waiting.avatar}`)).not.toBeNull();
  });

  it(
    'purges with gameplatform players purge-deleted',
    async () => {
      // the command runs on the real clock
      const due = await deleted(Date.now() - 1000);
      const waiting = await deleted(Date.now() + 86_400_000);
      const res = await cliFor(h)(['players', 'purge-deleted']);
      expect(res.stderr).toBe('');
      expect(res.stdout).toMatch(/^\d+ deleted accounts? purged\n$/);
      expect(await exists(due.player.id)).toBe(false);
      expect(await exists(waiting.player.id)).toBe(true);
    },
    CLI_TIMEOUT,
  );
});
