// GET /v1/studio/games/{slug}/numbers and numbers.csv: 30 days and more of play of several players on several games,
// seeded as raw rows around midnight and across the end of summer time in Europe/Berlin, each figure checked against a
// computation in this file from the raw rows; and the game's numbers stay its studio's (404 to anyone else, CSV too).
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { createKey, createPlayer, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { createStudio, createStudioGame, memberOf } from '../helpers/studios.js';

const ZONE = 'Europe/Berlin';
const NOW = '2026-11-10T12:00:00Z';
const DAY_MS = 86_400_000;
const END_REASONS = ['quit', 'navigate', 'hidden', 'limit', 'timeout', 'replaced', 'limit'];

/** A seeded generator, so that a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const dayOf = (ms: number) => DateTime.fromMillis(ms, { zone: ZONE }).toISODate()!;
const plusDays = (day: string, n: number) => DateTime.fromISO(day, { zone: ZONE }).plus({ days: n }).toISODate()!;

/** Seeds sessions, scores and saves for the game over the 45 days before NOW, plus rows exactly at Berlin midnights. */
async function seed(ctx: AppContext, gameId: number, players: number[], seedValue: number) {
  const rnd = random(seedValue);
  const now = Date.parse(NOW);
  const start = now - 45 * DAY_MS;
  const times: number[] = [];
  for (let i = 0; i < 260; i++) times.push(start + Math.floor(rnd() * (now - start)));
  // both sides of midnight in winter (UTC+1) and summer (UTC+2) time, and the night the clocks went back
  times.push(
    Date.parse('2026-11-03T22:59:59.999Z'),
    Date.parse('2026-11-03T23:00:00Z'),
    Date.parse('2026-10-20T21:59:59.999Z'),
    Date.parse('2026-10-20T22:00:00Z'),
    Date.parse('2026-10-25T00:30:00Z'),
    Date.parse('2026-10-25T01:30:00Z'),
    Date.parse('2026-10-25T22:59:59Z'),
  );
  for (const at of times) {
    // players join over time: a player may start only once the history has reached their place in the list
    const joined = Math.max(1, Math.ceil(players.length * ((at - start) / (now - start))));
    const player = players[Math.floor(rnd() * joined)]!;
    const credited = Math.floor(rnd() * 1800);
    const continues = rnd() < 0.15 ? 1 : 0;
    const open = false; // one active session per player and game at most: the seeded history is closed
    await ctx.db
      .insertInto('play_sessions')
      .values({
        token_hash: `seed-${gameId}-${at}-${rnd()}`,
        player_id: player,
        game_id: gameId,
        status: open ? 'active' : 'closed',
        started_at: at,
        last_heartbeat_at: at + credited * 1000,
        credited_until: at + credited * 1000,
        credited_seconds: credited,
        ended_at: open ? null : at + credited * 1000,
        end_reason: open ? null : END_REASONS[Math.floor(rnd() * END_REASONS.length)]!,
        continues_play: continues,
      })
      .execute();
    if (rnd() < 0.5) {
      await ctx.db
        .insertInto('scores')
        .values({
          game_id: gameId,
          player_id: player,
          board: rnd() < 0.5 ? 'main' : 'speed',
          score: 10,
          meta: null,
          play_session_id: null,
          created_at: at + 1000,
        })
        .execute();
    }
  }
  // Each slot is written one to four times: some writes the same day, some days later, some emptying it (DELETE).
  const log = writesOf(ctx, gameId);
  for (const player of players) {
    for (let slot = 0; slot < 3; slot++) {
      if (rnd() < 0.3) continue;
      let at = start + Math.floor(rnd() * (now - start));
      const writes = 1 + Math.floor(rnd() * 4);
      for (let n = 0; n < writes && at < now; n++) {
        const empty = rnd() < 0.2;
        const values = { state: empty ? null : '{"x":1}', size_bytes: empty ? 0 : 7, updated_at: at, version: n + 1 };
        if (n === 0)
          await ctx.db
            .insertInto('save_states')
            .values({ player_id: player, game_id: gameId, slot, label: null, created_at: at, ...values })
            .execute();
        else
          await ctx.db
            .updateTable('save_states')
            .set(values)
            .where('player_id', '=', player)
            .where('game_id', '=', gameId)
            .where('slot', '=', slot)
            .execute();
        if (!empty) log.push({ player, slot, at });
        at += rnd() < 0.5 ? Math.floor(rnd() * 3 * 3_600_000) : Math.floor(rnd() * 4 * DAY_MS);
      }
    }
  }
}

/** Every save write the seed made (with a state), per database and game: what saves_written counts. */
const seededWrites = new WeakMap<AppContext, Map<number, Array<{ player: number; slot: number; at: number }>>>();
function writesOf(ctx: AppContext, gameId: number) {
  const games = seededWrites.get(ctx) ?? new Map<number, Array<{ player: number; slot: number; at: number }>>();
  seededWrites.set(ctx, games);
  if (!games.has(gameId)) games.set(gameId, []);
  return games.get(gameId)!;
}

/** The figures of each day, from the raw rows, with no SQL aggregate. */
async function expected(h: Harness, gameId: number, span: number) {
  const db = h.ctx.db;
  const sessions = await db.selectFrom('play_sessions').selectAll().where('game_id', '=', gameId).execute();
  const scores = await db.selectFrom('scores').select('created_at').where('game_id', '=', gameId).execute();
  const writes = writesOf(h.ctx, gameId);
  const guests = new Set(
    (await db.selectFrom('players').select(['id', 'guest']).execute()).filter((p) => p.guest === 1).map((p) => p.id),
  );
  const today = dayOf(Date.parse(NOW));
  const days = Array.from({ length: span }, (_, i) => plusDays(today, i - span + 1));
  const plays = sessions.filter((s) => Number(s.continues_play) === 0);
  const firstDay = new Map<number, string>();
  for (const s of [...plays].sort((a, b) => Number(a.started_at) - Number(b.started_at)))
    if (!firstDay.has(s.player_id)) firstDay.set(s.player_id, dayOf(Number(s.started_at)));
  const playersOn = (day: string) =>
    new Set(plays.filter((s) => dayOf(Number(s.started_at)) === day).map((s) => s.player_id));
  const rate = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);
  return days.map((day) => {
    const started = sessions.filter((s) => dayOf(Number(s.started_at)) === day);
    const dayPlays = started.filter((s) => Number(s.continues_play) === 0).length;
    const playtime = started.reduce((sum, s) => sum + Number(s.credited_seconds), 0);
    const who = playersOn(day);
    const newOnes = [...who].filter((p) => firstDay.get(p) === day);
    const returned = (n: number) => {
      const later = plusDays(day, n);
      if (later >= today) return null; // that day is not over (or not in the span)
      const back = playersOn(later);
      return newOnes.filter((p) => back.has(p)).length;
    };
    const d1 = returned(1);
    const d7 = returned(7);
    const limit = started.filter((s) => s.end_reason === 'limit').length;
    const guestCount = [...who].filter((p) => guests.has(p)).length;
    return {
      day,
      plays: dayPlays,
      players: who.size,
      playtime_seconds: playtime,
      average_session_seconds: dayPlays === 0 ? 0 : Math.round(playtime / dayPlays),
      new_players: newOnes.length,
      returning_players: who.size - newOnes.length,
      day1_returned: d1,
      day1_retention: d1 === null ? null : rate(d1, newOnes.length),
      day7_returned: d7,
      day7_retention: d7 === null ? null : rate(d7, newOnes.length),
      scores_submitted: scores.filter((s) => dayOf(Number(s.created_at)) === day).length,
      saves_written: new Set(writes.filter((w) => dayOf(w.at) === day).map((w) => `${w.player}:${w.slot}`)).size,
      sessions: started.length,
      limit_ended_sessions: limit,
      limit_share: rate(limit, started.length),
      guests: guestCount,
      accounts: who.size - guestCount,
    };
  });
}

eachDialect('studios: game numbers', (h) => {
  const s = {} as {
    games: { id: number; slug: string }[];
    member: string;
    outsider: string;
    staff: string;
    key: string;
  };

  beforeAll(async () => {
    h.clock.set('2026-09-01T00:00:00Z');
    const studio = await createStudio(h.ctx);
    const other = await createStudio(h.ctx);
    s.member = (await memberOf(h.ctx, studio.id, 'developer')).token;
    s.outsider = (await memberOf(h.ctx, other.id, 'owner')).token;
    s.staff = (await createPlayerWithToken(h.ctx, { role: 'staff' })).token;
    s.games = [await createStudioGame(h.ctx, studio.id), await createStudioGame(h.ctx, studio.id)];
    const otherGame = await createStudioGame(h.ctx, other.id);
    s.key = (await createKey(h.ctx, s.games[0]!.id, ['stats:read'])).key;
    const players: number[] = [];
    for (let i = 0; i < 30; i++) {
      const p = await createPlayer(h.ctx);
      if (i % 3 === 0)
        await h.ctx.db.updateTable('players').set({ guest: 1, email: null }).where('id', '=', p.id).execute();
      players.push(p.id);
    }
    await seed(h.ctx, s.games[0]!.id, players, 1);
    await seed(h.ctx, s.games[1]!.id, players.slice(0, 12), 2);
    await seed(h.ctx, otherGame.id, players, 3);
    h.clock.set(NOW);
  });

  describe('the figures', () => {
    for (const span of [30, 7, 90]) {
      it(`match the raw rows day by day over ${span} days, on each game`, async () => {
        for (const game of s.games) {
          const res = await h.http.get(`/v1/studio/games/${game.slug}/numbers?days=${span}`, { token: s.member });
          expect(res.status, res.text).toBe(200);
          const data = res.body.data;
          expect(data).toMatchObject({ game: game.slug, timezone: ZONE, span });
          expect(data.days).toHaveLength(span);
          expect(data.to).toBe('2026-11-10');
          expect(data.days).toEqual(await expected(h, game.id, span));
        }
      });
    }

    it('has seeded enough to mean something: plays, new and returning players, retention, limits, guests', async () => {
      const days = (await h.http.get(`/v1/studio/games/${s.games[0]!.slug}/numbers?days=30`, { token: s.member })).body
        .data.days as Record<string, string | number | null>[];
      const total = (k: string) => days.reduce((sum, d) => sum + Number(d[k] ?? 0), 0);
      for (const k of [
        'plays',
        'new_players',
        'returning_players',
        'day1_returned',
        'limit_ended_sessions',
        'guests',
        'accounts',
        'scores_submitted',
        'saves_written',
      ])
        expect(total(k), k).toBeGreaterThan(0);
      // saves_written is tested on slots written several times a day and on several days
      const perSlot = new Map<string, string[]>();
      for (const w of writesOf(h.ctx, s.games[0]!.id))
        perSlot.set(`${w.player}:${w.slot}`, [...(perSlot.get(`${w.player}:${w.slot}`) ?? []), dayOf(w.at)]);
      const slotDays = [...perSlot.values()];
      expect(slotDays.some((d) => new Set(d).size < d.length)).toBe(true);
      expect(slotDays.some((d) => new Set(d).size > 1)).toBe(true);
      // the day the clocks went back has 25 hours: the 00:30 and 01:30 UTC sessions both count on 25 October
      expect(days.find((d) => d.day === '2026-10-25')!.sessions).toBeGreaterThanOrEqual(3);
    });

    it('defaults to 30 days and refuses another span', async () => {
      const res = await h.http.get(`/v1/studio/games/${s.games[0]!.slug}/numbers`, { token: s.member });
      expect(res.body.data.days).toHaveLength(30);
      const bad = await h.http.get(`/v1/studio/games/${s.games[0]!.slug}/numbers?days=14`, { token: s.member });
      expect(bad.status).toBe(422);
      expect(bad.body.error.code).toBe('validation_failed');
    });

    it('exports the same rows as CSV', async () => {
      const game = s.games[1]!;
      const res = await h.http.get(`/v1/studio/games/${game.slug}/numbers.csv?days=7`, { token: s.member });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${game.slug}-numbers-7d.csv"`);
      const lines = res.text.trimEnd().split('\r\n');
      const header = lines[0]!.split(',');
      const want = await expected(h, game.id, 7);
      expect(lines).toHaveLength(8);
      lines.slice(1).forEach((line, i) => {
        const row = Object.fromEntries(line.split(',').map((v, j) => [header[j], v]));
        const exp = want[i] as Record<string, unknown>;
        for (const column of header)
          expect(row[column], column).toBe(exp[column!] === null ? '' : String(exp[column!]));
      });
    });

    it('is the same for an operator', async () => {
      const game = s.games[0]!;
      const res = await h.http.get(`/v1/studio/games/${game.slug}/numbers?days=7`, { token: s.staff });
      expect(res.status).toBe(200);
      expect(res.body.data.days).toEqual(await expected(h, game.id, 7));
    });
  });

  describe("another studio's numbers", () => {
    it('are 404 to a member of another studio, as JSON, as CSV and for a guessed slug; 401 without a token; 403 to a key', async () => {
      for (const game of s.games) {
        for (const path of [
          `/v1/studio/games/${game.slug}/numbers?days=7`,
          `/v1/studio/games/${game.slug}/numbers.csv`,
        ]) {
          const res = await h.http.get(path, { token: s.outsider });
          expect(res.status, path).toBe(404);
          expect(res.body.error.code).toBe('not_found');
          expect(res.text).not.toMatch(/plays/);
          expect((await h.http.get(path)).status).toBe(401);
          expect((await h.http.get(path, { token: s.key })).status).toBe(403);
        }
      }
      const guessed = await h.http.get('/v1/studio/games/no-such-game/numbers.csv', { token: s.outsider });
      expect(guessed.status).toBe(404);
      const idLike = await h.http.get(`/v1/studio/games/${s.games[0]!.id}/numbers`, { token: s.outsider });
      expect(idLike.status).toBe(404);
    });
  });
});
