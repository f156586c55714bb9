// The heartbeat credit rule lives in two flows: creditSession (TypeScript, a transaction of small statements, both
// databases) and PostgreSQL's one statement (heartbeatInOneStatement, one SQL text holding the same rule). One table of
// cases runs through both, on both databases: the first flow alone, and the service's first attempt (the one statement,
// then creditSession where it defers). On PostgreSQL the statement must write every case within one day itself, so a
// statement that deferred everything could not pass.
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/secrets.js';
import { findSessionByTokenHash } from '../../src/modules/play/play.repository.js';
import { type Credit, creditInOneStatement, creditSession } from '../../src/modules/play/play.service.js';
import { asPlayer, type PlayerOptions } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { playing, sessionRow, setUsage, usage } from './play-helpers.js';

const UNLIMITED: PlayerOptions = { membership_plan: 'unlimited', membership_status: 'active' };

interface Case {
  name: string;
  /** when the session starts (UTC); Berlin is two hours ahead in June */
  start?: string;
  player?: PlayerOptions;
  /** today's seconds used before the heartbeat (other games) */
  usedBefore?: number;
  /** seconds from the start to the heartbeat */
  after: number;
  expect: Credit & { day?: string };
  /** the one statement leaves this case to the transaction (PostgreSQL) */
  defers?: boolean;
}

// free_seconds_per_day 900, max_heartbeat_gap 90 (the defaults)
const CASES: Case[] = [
  {
    name: 'credits the seconds since the last credit',
    after: 30,
    expect: { credited: 30, total: 30, usedToday: 30, closedAs: null },
  },
  {
    name: 'credits whole seconds only',
    after: 30.6,
    expect: { credited: 30, total: 30, usedToday: 30, closedAs: null },
  },
  {
    name: 'credits nothing under a second',
    usedBefore: 12,
    after: 0.4,
    expect: { credited: 0, total: 0, usedToday: 12, closedAs: null },
  },
  {
    name: 'credits at most the gap after a silence',
    after: 200,
    expect: { credited: 90, total: 90, usedToday: 90, closedAs: null },
  },
  {
    name: 'cuts the credit at the allowance and closes for the limit',
    usedBefore: 880,
    after: 30,
    expect: { credited: 20, total: 20, usedToday: 900, closedAs: 'limit' },
  },
  {
    name: 'credits nothing at the allowance and closes for the limit',
    usedBefore: 900,
    after: 30,
    expect: { credited: 0, total: 0, usedToday: 900, closedAs: 'limit' },
  },
  {
    name: 'never caps an Unlimited member',
    player: UNLIMITED,
    usedBefore: 880,
    after: 30,
    expect: { credited: 30, total: 30, usedToday: 910, closedAs: null },
  },
  {
    name: 'splits a credit across midnight in reset_timezone',
    start: '2026-06-01T21:59:50Z',
    after: 30,
    expect: { credited: 30, total: 30, usedToday: 20, closedAs: null, day: '2026-06-02' },
    defers: true,
  },
];

type Flow = (h: Harness, playerId: number, token: string, options: PlayerOptions) => Promise<Credit>;

const transaction: Flow = async (h, _playerId, token) => {
  const s = await findSessionByTokenHash(h.ctx.db, sha256(token));
  if (!s) throw new Error('no session');
  return h.ctx.db.transaction().execute((trx) => creditSession(h.ctx, trx, s, h.clock.now()));
};

/** The service's first attempt; `deferred` tells whether the one statement left the credit to the transaction. */
const firstAttempt = (deferred: { value: boolean }): Flow => {
  return async (h, playerId, token, options) => {
    const credential = asPlayer(playerId);
    Object.assign(credential.membership, options);
    const { session, credit } = await creditInOneStatement(h.ctx, credential, sha256(token), h.clock.now());
    deferred.value = !credit;
    if (credit) return credit;
    if (!session) throw new Error('no session');
    return h.ctx.db.transaction().execute((trx) => creditSession(h.ctx, trx, session, h.clock.now()));
  };
};

eachDialect('play: one credit rule, two flows', (h) => {
  const run = async (c: Case, flow: Flow) => {
    h.clock.set(c.start ?? '2026-06-01T10:00:00Z');
    const p = await playing(h, c.player ?? {});
    const day = c.expect.day ?? '2026-06-01';
    if (c.usedBefore !== undefined) await setUsage(h, p.player.id, day, c.usedBefore);
    h.clock.advance(c.after);
    const credit = await flow(h, p.player.id, p.session, c.player ?? {});
    const { day: _day, ...expected } = c.expect;
    expect(credit).toEqual(expected);
    expect((await usage(h, p.player.id, day)).seconds).toBe(c.expect.usedToday);
    const row = await sessionRow(h, p.session);
    expect(Number(row.credited_seconds)).toBe(c.expect.total);
    expect(row.status).toBe(c.expect.closedAs ? 'closed' : 'active');
  };

  describe('creditSession, the transaction', () => {
    for (const c of CASES) it(c.name, () => run(c, transaction));
  });

  describe("the service's first attempt: the one statement where it applies", () => {
    for (const c of CASES)
      it(c.name, async () => {
        const deferred = { value: false };
        await run(c, firstAttempt(deferred));
        // SQLite has no one-statement form: everything goes through the transaction.
        expect(deferred.value).toBe(h.dialect === 'sqlite' || c.defers === true);
      });
  });
});
