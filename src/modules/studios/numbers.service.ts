// A game's numbers for its studio: one row per calendar day of the reset time zone over the last 7, 30 or 90 days
// (today included), from SQL aggregates over the raw rows (numbers.repository.ts). Every figure is computed on each
// call from the shared database, so every instance answers the same.
import type { AppContext } from '../../context.js';
import { formatTimestamp, recentDays } from '../../time.js';
import { playersPerDay, savesPerDay, scoresPerDay, sessionsPerDay } from './numbers.repository.js';

export const NUMBER_SPANS = [7, 30, 90] as const;
export type NumberSpan = (typeof NUMBER_SPANS)[number];

export interface NumbersDay {
  day: string;
  plays: number;
  players: number;
  playtime_seconds: number;
  average_session_seconds: number;
  new_players: number;
  returning_players: number;
  day1_returned: number | null;
  day1_retention: number | null;
  day7_returned: number | null;
  day7_retention: number | null;
  scores_submitted: number;
  saves_written: number;
  sessions: number;
  limit_ended_sessions: number;
  limit_share: number;
  guests: number;
  accounts: number;
}

export interface GameNumbers {
  game: string;
  timezone: string;
  generated_at: string;
  span: number;
  from: string;
  to: string;
  days: NumbersDay[];
}

/** A share as a fraction with four decimals. */
const share = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 10000) / 10000);

export async function gameNumbers(
  ctx: AppContext,
  game: { id: number; slug: string },
  span: NumberSpan,
): Promise<GameNumbers> {
  const now = ctx.clock.now();
  const days = recentDays(now, ctx.config.reset_timezone, span).reverse(); // oldest first
  const [sessions, players, scores, saves] = await Promise.all([
    sessionsPerDay(ctx.db, game.id, days),
    playersPerDay(ctx.db, game.id, days),
    scoresPerDay(ctx.db, game.id, days),
    savesPerDay(ctx.db, game.id, days),
  ]);
  const sessionsOf = new Map(sessions.map((s) => [s.idx, s]));
  const playersOf = new Map(players.map((p) => [p.idx, p]));
  /** retention after `offset` days is known once that day is over */
  const known = (idx: number, offset: number) => {
    const later = days[idx + offset];
    return later !== undefined && later.end <= now;
  };
  return {
    game: game.slug,
    timezone: ctx.config.reset_timezone,
    generated_at: formatTimestamp(now),
    span,
    from: days[0]!.day,
    to: days.at(-1)!.day,
    days: days.map((d, i) => {
      const s = sessionsOf.get(i) ?? { sessions: 0, plays: 0, playtime: 0, limitEnded: 0 };
      const p = playersOf.get(i) ?? { players: 0, newPlayers: 0, guests: 0, day1: 0, day7: 0 };
      const d1 = known(i, 1) ? p.day1 : null;
      const d7 = known(i, 7) ? p.day7 : null;
      return {
        day: d.day,
        plays: s.plays,
        players: p.players,
        playtime_seconds: s.playtime,
        average_session_seconds: s.plays === 0 ? 0 : Math.round(s.playtime / s.plays),
        new_players: p.newPlayers,
        returning_players: p.players - p.newPlayers,
        day1_returned: d1,
        day1_retention: d1 === null ? null : share(d1, p.newPlayers),
        day7_returned: d7,
        day7_retention: d7 === null ? null : share(d7, p.newPlayers),
        scores_submitted: scores.get(i) ?? 0,
        saves_written: saves.get(i) ?? 0,
        sessions: s.sessions,
        limit_ended_sessions: s.limitEnded,
        limit_share: share(s.limitEnded, s.sessions),
        guests: p.guests,
        accounts: p.players - p.guests,
      };
    }),
  };
}

export const CSV_COLUMNS: (keyof NumbersDay)[] = [
  'day',
  'plays',
  'players',
  'playtime_seconds',
  'average_session_seconds',
  'new_players',
  'returning_players',
  'day1_returned',
  'day1_retention',
  'day7_returned',
  'day7_retention',
  'scores_submitted',
  'saves_written',
  'sessions',
  'limit_ended_sessions',
  'limit_share',
  'guests',
  'accounts',
];

/** RFC 4180 text: a header line, one line per day (oldest first), CRLF; an unknown retention is an empty field. */
export function numbersCsv(numbers: GameNumbers): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const day of numbers.days) lines.push(CSV_COLUMNS.map((c) => (day[c] === null ? '' : String(day[c]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
