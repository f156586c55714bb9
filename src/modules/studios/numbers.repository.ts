// The queries behind a game's numbers in the studio console (GET /v1/studio/games/{slug}/numbers): per calendar day
// of the reset time zone, aggregates over the raw rows (play_sessions, players, scores, save_states) in SQL. Each query
// reads one game's rows of the span through an index on (game_id, …); the days are a VALUES list of [start, end)
// windows joined to the rows, so every day is exact in the zone (23- and 25-hour days included) and every instance
// computes the same figures from the same rows.
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { TimeWindow } from '../../time.js';

/** The days as a CTE body: (idx, start_at, end_at), idx 0 the oldest. Numbers are inlined (computed, never input). */
function daysTable(days: TimeWindow[]): RawBuilder<unknown> {
  const rows = days.map(
    (d, i) => sql`(${sql.lit(i)}, cast(${sql.lit(d.start)} as bigint), cast(${sql.lit(d.end)} as bigint))`,
  );
  return sql`w(idx, start_at, end_at) as (values ${sql.join(rows)})`;
}

const num = (value: unknown): number => Number(value ?? 0);

/** save_writes' unit: a quarter hour. */
const QUARTER_MS = 900_000;

export interface SessionDay {
  idx: number;
  /** sessions started (a session continuing a play in another tab included) */
  sessions: number;
  /** plays started: sessions that do not continue another one */
  plays: number;
  /** seconds credited to the sessions started that day */
  playtime: number;
  /** sessions started that day that the free daily limit ended */
  limitEnded: number;
}

/**
 * Sessions, plays, credited seconds and limit-ended sessions per day, by the day a session started.
 * Index play_sessions_game_started_play_idx (game_id, started_at, …) for the span, then each row for its credited
 * seconds and end reason. Cost O(sessions of the game started in the span).
 */
export async function sessionsPerDay(db: Executor, gameId: number, days: TimeWindow[]): Promise<SessionDay[]> {
  const from = days[0]!.start;
  const to = days.at(-1)!.end;
  const { rows } = await sql<Record<string, unknown>>`
    with ${daysTable(days)}
    select w.idx as idx,
      count(*) as sessions,
      sum(case when s.continues_play = 0 then 1 else 0 end) as plays,
      sum(s.credited_seconds) as playtime,
      sum(case when s.end_reason = 'limit' then 1 else 0 end) as limit_ended
    from play_sessions s
    join w on s.started_at >= w.start_at and s.started_at < w.end_at
    where s.game_id = ${gameId} and s.started_at >= ${from} and s.started_at < ${to}
    group by w.idx`.execute(db);
  return rows.map((r) => ({
    idx: num(r.idx),
    sessions: num(r.sessions),
    plays: num(r.plays),
    playtime: num(r.playtime),
    limitEnded: num(r.limit_ended),
  }));
}

export interface PlayerDay {
  idx: number;
  /** distinct players who started a play that day */
  players: number;
  /** of them, players whose first play of the game ever was that day */
  newPlayers: number;
  /** of them, guests (players.guest = 1 now: a guest who registered since counts as an account) */
  guests: number;
  /** of the day's new players, those who played again the next day / seven days later */
  day1: number;
  day7: number;
}

/**
 * Distinct players per day, new ones (first play of the game ever that day), guests, and the new players who came
 * back one and seven days later. `act` is the (day, player) pairs with a play (index play_sessions_game_started_play_idx,
 * index-only); `firsts` each such player's first play of the game (index play_sessions_game_player_idx: the game's
 * entries of those players); retention looks the pair (day + 1 or + 7, player) up in `act`.
 * Cost O(sessions of the game started in the span + sessions of its players of the span).
 */
export async function playersPerDay(db: Executor, gameId: number, days: TimeWindow[]): Promise<PlayerDay[]> {
  const from = days[0]!.start;
  const to = days.at(-1)!.end;
  const { rows } = await sql<Record<string, unknown>>`
    with ${daysTable(days)},
    act as (
      select distinct w.idx as idx, s.player_id as player_id
      from play_sessions s
      join w on s.started_at >= w.start_at and s.started_at < w.end_at
      where s.game_id = ${gameId} and s.continues_play = 0 and s.started_at >= ${from} and s.started_at < ${to}
    ),
    firsts as (
      select player_id, min(started_at) as first_at
      from play_sessions
      where game_id = ${gameId} and continues_play = 0 and player_id in (select player_id from act)
      group by player_id
    )
    select a.idx as idx,
      count(*) as players,
      sum(case when f.first_at >= w.start_at then 1 else 0 end) as new_players,
      sum(case when p.guest = 1 then 1 else 0 end) as guests,
      sum(case when f.first_at >= w.start_at
        and exists (select 1 from act b where b.player_id = a.player_id and b.idx = a.idx + 1) then 1 else 0 end) as day1,
      sum(case when f.first_at >= w.start_at
        and exists (select 1 from act b where b.player_id = a.player_id and b.idx = a.idx + 7) then 1 else 0 end) as day7
    from act a
    join w on w.idx = a.idx
    join firsts f on f.player_id = a.player_id
    join players p on p.id = a.player_id
    group by a.idx`.execute(db);
  return rows.map((r) => ({
    idx: num(r.idx),
    players: num(r.players),
    newPlayers: num(r.new_players),
    guests: num(r.guests),
    day1: num(r.day1),
    day7: num(r.day7),
  }));
}

/** Scores submitted per day. Index scores_board_idx (game_id, board, created_at): the game's entries. */
export async function scoresPerDay(db: Executor, gameId: number, days: TimeWindow[]): Promise<Map<number, number>> {
  const from = days[0]!.start;
  const to = days.at(-1)!.end;
  const { rows } = await sql<Record<string, unknown>>`
    with ${daysTable(days)}
    select w.idx as idx, count(*) as n
    from scores s
    join w on s.created_at >= w.start_at and s.created_at < w.end_at
    where s.game_id = ${gameId} and s.created_at >= ${from} and s.created_at < ${to}
    group by w.idx`.execute(db);
  return new Map(rows.map((r) => [num(r.idx), num(r.n)]));
}

/**
 * Save slots written per day: each slot (player and slot) once per day it was written with a state, however often
 * (save_writes, noted per quarter hour by a trigger on save_states; a day of any zone starts on a quarter hour).
 * Primary key save_writes_pk (game_id, quarter, …): a range scan of the span.
 */
export async function savesPerDay(db: Executor, gameId: number, days: TimeWindow[]): Promise<Map<number, number>> {
  const from = days[0]!.start / QUARTER_MS;
  const to = days.at(-1)!.end / QUARTER_MS;
  const { rows } = await sql<Record<string, unknown>>`
    with ${daysTable(days)},
    written as (
      select distinct w.idx as idx, s.player_id, s.slot
      from save_writes s
      join w on s.quarter * ${sql.lit(QUARTER_MS)} >= w.start_at and s.quarter * ${sql.lit(QUARTER_MS)} < w.end_at
      where s.game_id = ${gameId} and s.quarter >= ${Math.floor(from)} and s.quarter < ${Math.ceil(to)}
    )
    select idx, count(*) as n from written group by idx`.execute(db);
  return new Map(rows.map((r) => [num(r.idx), num(r.n)]));
}
