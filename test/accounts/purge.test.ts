// The purge of deleted accounts: by the server's timer and by `gameplatform players purge-deleted`; the avatar file goes too.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { suspend, unsuspend } from '../../src/modules/accounts/admin.service.js';
import { purgeDeletedPlayers } from '../../src/modules/accounts/self-service.service.js';
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
    await h.ctx.db
      .updateTable('players')
      .set({ status: 'deleting', deletion_due_at: dueAt, avatar_key: avatar })
      .where('id', '=', player.id)
      .execute();
    await createToken(h.ctx, player.id, { revoked: true });
    return { player, avatar };
  };
  const exists = async (id: number) =>
    (await h.ctx.db.selectFrom('players').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

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

  it('keeps a deletion the player asked for through a suspension: purged when due, pending again when lifted', async () => {
    const now = h.clock.now();
    const statusOf = async (id: number) =>
      await h.ctx.db
        .selectFrom('players')
        .select(['status', 'deletion_due_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    // suspended while waiting, and the grace period ends during the suspension: the account still goes
    const suspendedThenDue = await deleted(now + 1000);
    await suspend(h.ctx, suspendedThenDue.player.username);
    expect(await statusOf(suspendedThenDue.player.id)).toEqual({ status: 'suspended', deletion_due_at: now + 1000 });
    // suspended while waiting, then the suspension is lifted: the deletion is pending again, not cancelled
    const lifted = await deleted(now + 1000);
    await suspend(h.ctx, lifted.player.username);
    expect((await unsuspend(h.ctx, lifted.player.username)).status).toBe('deleting');
    expect(await statusOf(lifted.player.id)).toEqual({ status: 'deleting', deletion_due_at: now + 1000 });
    // a suspended player who never asked is not purged; unsuspending one who was never suspended is refused
    const plain = await createPlayer(h.ctx);
    await suspend(h.ctx, plain.username);
    await expect(unsuspend(h.ctx, (await deleted(now + 86_400_000)).player.username)).rejects.toMatchObject({
      code: 'validation_failed',
    });

    h.clock.advance(2);
    expect(await purgeDeletedPlayers(h.ctx)).toBeGreaterThanOrEqual(2);
    expect(await exists(suspendedThenDue.player.id)).toBe(false);
    expect(await exists(lifted.player.id)).toBe(false);
    expect(await statusOf(plain.id)).toEqual({ status: 'suspended', deletion_due_at: null });
  });

  it('purges the others when one account cannot be purged, and that one on a later round', async () => {
    const now = h.clock.now();
    const stuck = await deleted(now - 1000);
    const fine = await deleted(now - 1000);
    // The database refuses to delete `stuck` (a trigger): its purge fails inside the transaction.
    const id = sql.lit(stuck.player.id);
    if (h.dialect === 'sqlite') {
      await sql`create trigger keep_stuck before delete on players when old.id = ${id} begin select raise(abort, 'kept by the test'); end`.execute(
        h.ctx.db,
      );
    } else {
      await sql`create function keep_stuck() returns trigger language plpgsql as $$ begin raise exception 'kept by the test'; end $$`.execute(
        h.ctx.db,
      );
      await sql`create trigger keep_stuck before delete on players for each row when (old.id = ${id}) execute function keep_stuck()`.execute(
        h.ctx.db,
      );
    }
    try {
      expect(await purgeDeletedPlayers(h.ctx)).toBe(1);
      expect(await exists(fine.player.id)).toBe(false);
      expect(await exists(stuck.player.id)).toBe(true);
      expect(await h.ctx.storage.head(`avatars/${stuck.avatar}`)).not.toBeNull();
    } finally {
      if (h.dialect === 'sqlite') await sql`drop trigger keep_stuck`.execute(h.ctx.db);
      else {
        await sql`drop trigger keep_stuck on players`.execute(h.ctx.db);
        await sql`drop function keep_stuck()`.execute(h.ctx.db);
      }
    }
    expect(await purgeDeletedPlayers(h.ctx)).toBe(1);
    expect(await exists(stuck.player.id)).toBe(false);
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
