// The audit log: entries written in the action's transaction, read newest first with filters, text search and pages.
import { describe, expect, it } from 'vitest';
import { recordAudit, searchAudit } from '../../src/modules/audit/audit.service.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect('audit: the consoles log', (h) => {
  const actor = { id: 7, name: 'ops_alice' };

  it('keeps who, where, what, on what, why and before → after, at the clock time', async () => {
    const id = await recordAudit(h.ctx, h.ctx.db, {
      actor,
      studioId: null,
      action: 'player.suspend',
      targetType: 'player',
      targetId: 4242,
      reason: 'Chargeback fraud',
      before: { status: 'active' },
      after: { status: 'suspended' },
    });
    const { entries } = await searchAudit(h.ctx, { targetType: 'player', targetId: '4242', limit: 10 });
    expect(entries).toEqual([
      {
        id,
        at: new Date(h.ctx.clock.now()).toISOString(),
        actor,
        studio_id: null,
        action: 'player.suspend',
        target: { type: 'player', id: '4242' },
        reason: 'Chargeback fraud',
        before: { status: 'active' },
        after: { status: 'suspended' },
      },
    ]);
  });

  it('writes nothing when the action rolls back', async () => {
    await expect(
      h.ctx.db.transaction().execute(async (trx) => {
        await recordAudit(h.ctx, trx, {
          actor,
          studioId: 1,
          action: 'x.y',
          targetType: 'game',
          targetId: 'rolled-back',
        });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect((await searchAudit(h.ctx, { targetId: 'rolled-back', limit: 10 })).entries).toEqual([]);
  });

  describe('search', () => {
    const studioId = 9001;
    it('filters by studio and finds words in the reason, case-insensitively, with % and _ taken literally', async () => {
      for (const reason of ['Cheated: 100% speed', 'Aimbot_v2', 'Duplicate account'])
        await recordAudit(h.ctx, h.ctx.db, {
          actor,
          studioId,
          action: 'score.remove',
          targetType: 'score',
          targetId: reason.length,
          reason,
        });
      await recordAudit(h.ctx, h.ctx.db, {
        actor,
        studioId: 9002,
        action: 'score.remove',
        targetType: 'score',
        targetId: 1,
        reason: 'cheated',
      });
      const text = async (words: string) =>
        (await searchAudit(h.ctx, { studioId, text: words, limit: 10 })).entries.map((e) => e.reason);
      expect(await text('CHEATED')).toEqual(['Cheated: 100% speed']);
      expect(await text('100%')).toEqual(['Cheated: 100% speed']);
      expect(await text('t_v')).toEqual(['Aimbot_v2']);
      expect(await text('%')).toEqual(['Cheated: 100% speed']);
      expect(await text('ops_alice')).toHaveLength(3);
    });

    it('pages newest first', async () => {
      const first = await searchAudit(h.ctx, { studioId, limit: 2 });
      expect(first.entries.map((e) => e.reason)).toEqual(['Duplicate account', 'Aimbot_v2']);
      expect(first.next_before).toBe(first.entries[1]?.id);
      const second = await searchAudit(h.ctx, { studioId, limit: 2, beforeId: first.next_before ?? 0 });
      expect(second.entries.map((e) => e.reason)).toEqual(['Cheated: 100% speed']);
      expect(second.next_before).toBeNull();
    });
  });
});
