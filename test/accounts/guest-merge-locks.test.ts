// PostgreSQL: a merge and the guest's own requests in flight at that moment, put in a chosen order by holding a row
// lock in a transaction of the test's own and waiting until both requests wait for it. A heartbeat or a score that
// gets there first is counted and moved to the account; one that gets there after is refused (the guest is gone),
// never counted twice and never answered 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { sha256 } from '../../src/lib/secrets.js';
import { createGame, createPlayerWithPassword } from '../helpers/factories.js';
import { enabledDialects } from '../helpers/dialects.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { playApi, setUsage, usage } from '../play/play-helpers.js';
import { PASSWORD, as, newGuest, playerExists } from './guest-helpers.js';

const onPostgres = enabledDialects().includes('postgres');

describe.runIf(onPostgres)('accounts: a merge and the guest requests in flight [postgres]', () => {
  const h = {} as Harness & { close(): Promise<void> };
  beforeAll(async () => {
    Object.assign(h, await createHarness('postgres'));
  });
  afterAll(async () => {
    await h.close?.();
  });
  const api = playApi(h);

  /** Requests of this database waiting for a lock (not the test's own holder). */
  const waiting = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(h.ctx.db)
      ).rows[0]!.n,
    );
  const untilWaiting = (n: number) => expect.poll(waiting, { timeout: 15_000, interval: 20 }).toBe(n);

  /** Holds a lock taken by `take` until release() is called; resolves once it is taken. */
  async function hold(take: (trx: Transaction<Database>) => Promise<unknown>) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const done = h.ctx.db.transaction().execute(async (trx) => {
      await take(trx);
      taken();
      await released;
    });
    await isTaken;
    return async () => {
      release();
      await done;
    };
  }

  async function setup() {
    h.clock.set('2026-12-06T10:00:00Z');
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    await setUsage(h, account.id, '2026-12-06', 100);
    const guest = await newGuest(h, { web: true });
    const game = await createGame(h.ctx);
    const session = (await api.start(guest.token, game.slug)).body.data.session as string;
    h.clock.advance(25);
    const login = () =>
      h.http.post('/v1/auth/login', { ...as(guest), body: { login: account.username, password: PASSWORD } });
    const lockSession = (trx: Transaction<Database>) =>
      trx.selectFrom('play_sessions').select('id').where('token_hash', '=', sha256(session)).forUpdate().execute();
    return { account, guest, game, session, login, lockSession };
  }

  it('credits a heartbeat that reaches the session first, and moves those seconds to the account', async () => {
    const { account, guest, session, login, lockSession } = await setup();
    const release = await hold(lockSession);
    const beating = api.heartbeat(guest.token, session);
    await untilWaiting(1);
    const merging = login();
    await untilWaiting(2);
    await release();
    const [beat, merged] = await Promise.all([beating, merging]);
    expect(beat.status).toBe(200);
    expect(beat.body.data.credited_seconds).toBe(25);
    expect(merged.body.data.claimed_guest.seconds_added_today).toBe(25);
    expect(await usage(h, account.id, '2026-12-06')).toMatchObject({ seconds: 125 });
  });

  it('refuses a heartbeat that waited behind the merge, and credits nothing for it', async () => {
    const { account, guest, session, login, lockSession } = await setup();
    const release = await hold(lockSession);
    const merging = login();
    await untilWaiting(1);
    const beating = api.heartbeat(guest.token, session);
    await untilWaiting(2);
    await release();
    const [merged, beat] = await Promise.all([merging, beating]);
    expect(merged.status).toBe(200);
    expect(merged.body.data.claimed_guest.seconds_added_today).toBe(0);
    expect(beat.status).toBe(404); // the session is the account's now: not this (deleted) guest's
    expect(await usage(h, account.id, '2026-12-06')).toMatchObject({ seconds: 100 });
    const row = await h.ctx.db
      .selectFrom('play_sessions')
      .select(['credited_seconds', 'end_reason'])
      .where('token_hash', '=', sha256(session))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ credited_seconds: 0, end_reason: 'merged' });
  });

  it('moves a score stored just before the merge, and answers one that waited behind it 401, storing nothing', async () => {
    const first = await setup();
    const submit = (guestToken: string, slug: string) =>
      h.http.post(`/v1/games/${slug}/scores`, { token: guestToken, body: { score: 33 } });
    const lockGuest = (id: number) => (trx: Transaction<Database>) =>
      trx.selectFrom('players').select('id').where('id', '=', id).forUpdate().execute();

    // The score first: stored, then moved with the guest.
    let release = await hold(lockGuest(first.guest.id));
    const scoring = submit(first.guest.token, first.game.slug);
    await untilWaiting(1);
    const merging = first.login();
    await untilWaiting(2);
    await release();
    const [stored, merged] = await Promise.all([scoring, merging]);
    expect(stored.status).toBe(201);
    expect(merged.body.data.claimed_guest.scores_moved).toBe(1);
    const board = await h.http.get(`/v1/games/${first.game.slug}/leaderboard`);
    expect(board.body.data.leaderboard.map((r: { score: number }) => r.score)).toEqual([33]);

    // The merge first: the guest is gone when the score is written.
    const second = await setup();
    release = await hold(lockGuest(second.guest.id));
    const merging2 = second.login();
    await untilWaiting(1);
    const scoring2 = submit(second.guest.token, second.game.slug);
    await untilWaiting(2);
    await release();
    const [merged2, late] = await Promise.all([merging2, scoring2]);
    expect(merged2.status).toBe(200);
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('unauthenticated');
    expect(await playerExists(h, second.guest.id)).toBe(false);
    const scores = await h.ctx.db.selectFrom('scores').select('id').where('game_id', '=', second.game.id).execute();
    expect(scores).toEqual([]);
  });
});

describe.skipIf(onPostgres)('accounts: a merge and the guest requests in flight [postgres]', () => {
  it.skip('needs PostgreSQL (TEST_DATABASE_URL): SQLite runs one write transaction at a time', () => undefined);
});
