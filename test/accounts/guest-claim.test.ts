// Claiming a guest: registering with its credential turns it into the account (same id, everything kept); logging in
// with it merges it into an existing account (time capped at the allowance, saves into empty slots only, scores with
// exact ranks, favourites, history) and removes it.
import { expect, it } from 'vitest';
import { sha256 } from '../../src/lib/secrets.js';
import { createGame, createPlayerWithPassword, createToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { playApi, setUsage, usage } from '../play/play-helpers.js';
import { PASSWORD, SDK, as, newGuest, playerExists, registration, type Guest } from './guest-helpers.js';

eachDialect('accounts: claiming a guest', (h) => {
  const api = playApi(h);
  const login = (username: string, credential: object = {}) =>
    h.http.post('/v1/auth/login', { ...credential, body: { login: username, password: PASSWORD } });
  const scoresOf = (playerId: number) =>
    h.ctx.db.selectFrom('scores').select(['score', 'board']).where('player_id', '=', playerId).orderBy('id').execute();
  const slot = async (playerId: number, gameId: number, n: number) =>
    h.ctx.db
      .selectFrom('save_states')
      .select(['version', 'state', 'label'])
      .where('player_id', '=', playerId)
      .where('game_id', '=', gameId)
      .where('slot', '=', n)
      .executeTakeFirst();

  /** A guest with some of everything: today's time, a save, a score, a favourite. */
  async function busyGuest(web = true) {
    const guest = await newGuest(h, { web });
    const game = await createGame(h.ctx);
    const started = await api.start(guest.token, game.slug);
    h.clock.advance(40);
    await api.heartbeat(guest.token, started.body.data.session);
    await h.http.put(`/v1/games/${game.slug}/states/0`, { ...as(guest), body: { state: { board: [2, 4] } } });
    await h.http.post(`/v1/games/${game.slug}/scores`, { ...as(guest), body: { score: 64 } });
    await h.http.post(`/v1/games/${game.slug}/favorite`, as(guest));
    return { guest, game, session: started.body.data.session as string };
  }

  it('turns the guest into the account when it registers through the portal: same id, time, save, score and favourite kept', async () => {
    h.clock.set('2026-12-01T10:00:00Z');
    const { guest, game } = await busyGuest();
    const body = registration('Former Guest');
    const res = await h.http.post('/v1/auth/register', { ...as(guest), body });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.claimed_guest).toEqual({ guest_id: guest.id, via: 'register' });
    expect(data.player).toMatchObject({
      id: guest.id,
      guest: false,
      email: body.email,
      display_name: body.display_name,
    });
    expect(data.entitlement.used_seconds).toBe(40);
    const cookie = res.cookies.find((c) => c.name === 'gp_session')!.value;
    const me = await h.http.get('/v1/me', { cookies: { gp_session: cookie }, headers: SDK });
    expect(me.body.data.player).toMatchObject({ id: guest.id, guest: false, username: data.player.username });
    // The guest's session cookie was replaced by the new one.
    expect((await h.http.get('/v1/me', as(guest))).status).toBe(401);
    expect((await h.http.get(`/v1/games/${game.slug}/states/0`, { token: data.token })).body.data.state.state).toEqual({
      board: [2, 4],
    });
    const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
    expect(board.body.data.leaderboard[0].player).toMatchObject({ display_name: body.display_name });
    expect(board.body.data.leaderboard[0].player).not.toHaveProperty('guest');
    const fav = await h.http.get('/v1/me/favorites', { token: data.token });
    expect(fav.body.data.games.map((g: { slug: string }) => g.slug)).toEqual([game.slug]);
    expect((await h.http.get(`/v1/players/${data.player.username}`)).status).toBe(200);
    // An account now: tokens are allowed, and a verification mail was sent.
    expect((await h.http.post('/v1/me/tokens', { token: data.token, body: { name: 'cli' } })).status).toBe(201);
  });

  it('claims with the guest token of an app too (Bearer), and its other tokens now act for the account', async () => {
    const guest = await newGuest(h);
    const other = await createToken(h.ctx, guest.id, { name: 'second app' });
    const res = await h.http.post('/v1/auth/register', { token: guest.token, body: registration() });
    expect(res.status).toBe(201);
    expect(res.body.data.claimed_guest).toEqual({ guest_id: guest.id, via: 'register' });
    expect(res.cookies).toEqual([]);
    expect((await h.http.get('/v1/me', { token: guest.token })).status).toBe(401);
    const me = await h.http.get('/v1/me', { token: other.token });
    expect(me.body.data.player).toMatchObject({ id: guest.id, guest: false });
  });

  it('registers a new player as before when the credential is an account, is unknown, or belongs to nobody', async () => {
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    const { token } = await createToken(h.ctx, account.id);
    for (const credential of [{ token }, { token: 'agp_not-a-token' }, { token: 'agk_not-a-key' }, {}]) {
      const res = await h.http.post('/v1/auth/register', { ...credential, body: registration() });
      expect(res.status).toBe(201);
      expect(res.body.data).not.toHaveProperty('claimed_guest');
      expect(res.body.data.player.id).not.toBe(account.id);
    }
    // the account's own token still works: a registration does not touch it
    expect((await h.http.get('/v1/me', { token })).body.data.player.id).toBe(account.id);
  });

  it('merges the guest into an account at login: time capped at the allowance, saves into empty slots only, scores, favourites, history', async () => {
    h.clock.set('2026-12-02T10:00:00Z');
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    const game = await createGame(h.ctx, { save_slots: 4 });
    const other = await createGame(h.ctx);
    const { token: accountToken } = await createToken(h.ctx, account.id);
    const putAs = (token: string, n: number, state: unknown) =>
      h.http.put(`/v1/games/${game.slug}/states/${n}`, { token, body: { state, label: `slot ${n}` } });
    // The account: 500 s today, slot 0 stored, slot 1 emptied at version 3, a best of 100.
    await setUsage(h, account.id, '2026-12-02', 500);
    await putAs(accountToken, 0, 'account 0');
    for (let i = 0; i < 3; i++) await putAs(accountToken, 1, `account 1.${i}`);
    await h.http.delete(`/v1/games/${game.slug}/states/1`, { token: accountToken });
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: accountToken, body: { score: 100 } });
    await h.http.post(`/v1/games/${other.slug}/favorite`, { token: accountToken });

    // The guest: 600 s today and 100 s yesterday, slots 0-2 stored, scores 150 (main) and 50 (hard), a favourite, a
    // session still running.
    const guest = await newGuest(h, { web: true });
    await setUsage(h, guest.id, '2026-12-02', 600);
    await setUsage(h, guest.id, '2026-12-01', 100);
    await putAs(guest.token, 0, 'guest 0');
    await putAs(guest.token, 1, 'guest 1');
    await putAs(guest.token, 2, 'guest 2');
    await putAs(guest.token, 2, 'guest 2 again');
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 150 } });
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 50, board: 'hard' } });
    await h.http.post(`/v1/games/${game.slug}/favorite`, { token: guest.token });
    await h.http.post(`/v1/games/${other.slug}/favorite`, { token: guest.token });
    const running = (await api.start(guest.token, game.slug)).body.data.session;

    const res = await login(account.username, as(guest));
    expect(res.status).toBe(200);
    expect(res.body.data.claimed_guest).toEqual({
      guest_id: guest.id,
      via: 'merge',
      seconds_added_today: 400,
      saves_moved: 2,
      saves_not_moved: 1,
      scores_moved: 2,
      favorites_added: 1,
    });
    expect(res.body.data.player.id).toBe(account.id);
    expect(res.body.data.entitlement).toMatchObject({ used_seconds: 900, limit_reached: true });
    expect(await playerExists(h, guest.id)).toBe(false);
    expect((await h.http.get('/v1/me', as(guest))).status).toBe(401);

    expect(await usage(h, account.id, '2026-12-02')).toEqual({ seconds: 900, sessions: 1 + 2 });
    expect(await usage(h, account.id, '2026-12-01')).toEqual({ seconds: 100, sessions: 1 });
    // Slot 0 was the account's: kept. Slot 1 was emptied at version 3: the guest's save, at version 4. Slot 2: the
    // guest's, with its version.
    expect(await slot(account.id, game.id, 0)).toMatchObject({ state: '"account 0"', version: 1 });
    expect(await slot(account.id, game.id, 1)).toMatchObject({ state: '"guest 1"', version: 4, label: 'slot 1' });
    expect(await slot(account.id, game.id, 2)).toMatchObject({ state: '"guest 2 again"', version: 2 });
    expect((await scoresOf(account.id)).map((s) => [s.board, Number(s.score)])).toEqual([
      ['main', 100],
      ['main', 150],
      ['hard', 50],
    ]);
    const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
    expect(board.body.data.leaderboard).toEqual([
      expect.objectContaining({
        rank: 1,
        score: 150,
        entries: 2,
        player: expect.not.objectContaining({ guest: true }),
      }),
    ]);
    expect(board.body.meta.total).toBe(1);
    const favorites = await h.http.get('/v1/me/favorites', { token: accountToken });
    expect(favorites.body.data.games.map((g: { slug: string }) => g.slug).sort()).toEqual(
      [game.slug, other.slug].sort(),
    );
    // The guest's running session is the account's now, closed: its next heartbeat says to start a new one.
    const beat = await api.heartbeat(accountToken, running);
    expect(beat.status).toBe(410);
    expect(beat.body.error.reason).toBe('merged');
    const recent = await h.http.get('/v1/me/recent', { token: accountToken });
    expect(recent.body.data.recent.map((r: { game: { slug: string } }) => r.game.slug)).toContain(game.slug);
  });

  it('adds the seconds uncapped for an Unlimited account, and moves a best the account beats without changing it', async () => {
    h.clock.set('2026-12-03T10:00:00Z');
    const account = await createPlayerWithPassword(h.ctx, PASSWORD, {
      membership_plan: 'unlimited',
      membership_status: 'active',
    });
    const { token } = await createToken(h.ctx, account.id);
    const game = await createGame(h.ctx, { leaderboard_order: 'asc' });
    await setUsage(h, account.id, '2026-12-03', 5000);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token, body: { score: 200 } });
    const guest = await newGuest(h);
    await setUsage(h, guest.id, '2026-12-03', 700);
    await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 250 } });
    const res = await login(account.username, { token: guest.token });
    expect(res.body.data.claimed_guest).toMatchObject({ seconds_added_today: 700, scores_moved: 1 });
    expect(await usage(h, account.id, '2026-12-03')).toMatchObject({ seconds: 5700 });
    const me = await h.http.get(`/v1/games/${game.slug}/leaderboard/me`, { token });
    expect(me.body.data).toMatchObject({ rank: 1, best: 200 });
  });

  it('logs in without a merge when the credential is the account itself or no guest', async () => {
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    const { token } = await createToken(h.ctx, account.id);
    const res = await login(account.username, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('claimed_guest');
    const wrong = await login(account.username, { token: 'agp_stale' });
    expect(wrong.status).toBe(200);
    // A wrong password merges nothing, and keeps the guest.
    const guest = await newGuest(h);
    const refused = await h.http.post('/v1/auth/login', {
      token: guest.token,
      body: { login: account.username, password: 'not the password' },
    });
    expect(refused.status).toBe(401);
    expect(await playerExists(h, guest.id)).toBe(true);
  });

  it('counts claims by how in guests_claimed_total', async () => {
    const metric = async (via: string) => {
      const line = (await h.http.get('/metrics')).text
        .split('\n')
        .find((l) => l.startsWith(`gameplatform_guests_claimed_total{via="${via}"}`));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const [registered, merged] = [await metric('register'), await metric('merge')];
    await h.http.post('/v1/auth/register', { token: (await newGuest(h)).token, body: registration() });
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    await login(account.username, { token: (await newGuest(h)).token });
    expect([await metric('register'), await metric('merge')]).toEqual([registered + 1, merged + 1]);
  });

  it('keeps an Idempotency-Key answer across the merge: a submission sent again as the account is stored once', async () => {
    const account = await createPlayerWithPassword(h.ctx, PASSWORD);
    const { token } = await createToken(h.ctx, account.id);
    const game = await createGame(h.ctx);
    const guest = await newGuest(h);
    const submit = (t: string) =>
      h.http.post(`/v1/games/${game.slug}/scores`, {
        token: t,
        headers: { 'idempotency-key': 'tm-77' },
        body: { score: 77 },
      });
    expect((await submit(guest.token)).status).toBe(201);
    await login(account.username, { token: guest.token });
    const again = await submit(token);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await scoresOf(account.id)).toHaveLength(1);
  });

  describe_races(h);
});

/** Two tabs claiming one guest at once, and a heartbeat in flight during a merge. */
function describe_races(h: Harness) {
  const api = playApi(h);
  const loginAs = (username: string, guest: Guest) =>
    h.http.post('/v1/auth/login', { ...as(guest), body: { login: username, password: PASSWORD } });

  it('merges once when two tabs log in with the same guest at once', async () => {
    h.clock.set('2026-12-04T10:00:00Z');
    for (let round = 0; round < 5; round++) {
      const account = await createPlayerWithPassword(h.ctx, PASSWORD);
      const game = await createGame(h.ctx);
      const guest = await newGuest(h, { web: true });
      await setUsage(h, guest.id, '2026-12-04', 120);
      await h.http.post(`/v1/games/${game.slug}/scores`, { token: guest.token, body: { score: 9 } });
      const answers = await Promise.all([loginAs(account.username, guest), loginAs(account.username, guest)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      expect(answers.filter((r) => r.body.data.claimed_guest).length).toBe(1);
      expect(await usage(h, account.id, '2026-12-04')).toMatchObject({ seconds: 120 });
      const board = await h.http.get(`/v1/games/${game.slug}/leaderboard`);
      expect(board.body.meta.total).toBe(1);
      expect(board.body.data.leaderboard[0].entries).toBe(1);
    }
  });

  it('claims once when two tabs register with the same guest at once: the other registers a new player', async () => {
    for (let round = 0; round < 5; round++) {
      const guest = await newGuest(h, { web: true });
      const answers = await Promise.all([
        h.http.post('/v1/auth/register', { ...as(guest), body: registration() }),
        h.http.post('/v1/auth/register', { ...as(guest), body: registration() }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      const claimed = answers.filter((r) => r.body.data.claimed_guest);
      expect(claimed.length).toBe(1);
      expect(claimed[0]!.body.data.player.id).toBe(guest.id);
      expect(answers.map((r) => r.body.data.player.id)).toContain(guest.id);
      expect(new Set(answers.map((r) => r.body.data.player.id)).size).toBe(2);
    }
  });

  it('claims once when one tab registers and another logs in with the same guest at once', async () => {
    for (let round = 0; round < 5; round++) {
      const account = await createPlayerWithPassword(h.ctx, PASSWORD);
      const guest = await newGuest(h, { web: true });
      const [reg, log] = await Promise.all([
        h.http.post('/v1/auth/register', { ...as(guest), body: registration() }),
        loginAs(account.username, guest),
      ]);
      expect([reg.status, log.status]).toEqual([201, 200]);
      const claims = [reg, log].filter((r) => r.body.data.claimed_guest).length;
      expect(claims).toBe(1);
      // Either the guest became the new account, or it went into the old one: never both.
      const exists = await playerExists(h, guest.id);
      expect(exists).toBe(Boolean(reg.body.data.claimed_guest));
    }
  });

  it('counts a heartbeat arriving during the merge once: before it, into the account; after it, refused', async () => {
    h.clock.set('2026-12-05T10:00:00Z');
    for (let round = 0; round < 6; round++) {
      const account = await createPlayerWithPassword(h.ctx, PASSWORD);
      await setUsage(h, account.id, '2026-12-05', 100);
      const guest = await newGuest(h, { web: true });
      const game = await createGame(h.ctx);
      const session = (await api.start(guest.token, game.slug)).body.data.session as string;
      h.clock.advance(25);
      const [beat, merged] = await Promise.all([api.heartbeat(guest.token, session), loginAs(account.username, guest)]);
      expect(merged.status).toBe(200);
      const credited = beat.status === 200 ? 25 : 0;
      if (beat.status !== 200) expect([401, 404, 410]).toContain(beat.status);
      expect(merged.body.data.claimed_guest.seconds_added_today).toBe(credited);
      expect(await usage(h, account.id, '2026-12-05')).toMatchObject({ seconds: 100 + credited });
      const row = await h.ctx.db
        .selectFrom('play_sessions')
        .select(['player_id', 'status', 'end_reason', 'credited_seconds'])
        .where('token_hash', '=', sha256(session))
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ player_id: account.id, status: 'closed', end_reason: 'merged' });
      expect(Number(row.credited_seconds)).toBe(credited);
    }
  });
}
