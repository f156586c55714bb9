// Time formats of the API and calendar windows in the reset time zone (days of 23 or 25 hours included).
import { DateTime } from 'luxon';

/** "timestamp" of the spec: `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatTimestamp(ms: number): string {
  return utcText(ms, ' ');
}

/** ISO 8601 with an explicit offset, e.g. `2026-11-21T10:00:00+00:00`. */
export function formatIso(ms: number): string {
  return `${utcText(ms, 'T')}+00:00`;
}

/** 253402300800000: 10000-01-01T00:00:00Z, where years stop having four digits. */
const YEAR_10000 = 253_402_300_800_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DD{separator}HH:MM:SS` in UTC, as Date#toISOString writes it, by integer arithmetic (days to a civil date:
 * Howard Hinnant's algorithm). Lists format a timestamp or two per row, and toISOString took 0.75 µs each.
 * Before 1970 and from year 10000 on, toISOString itself (a RangeError for NaN, as before).
 */
function utcText(ms: number, separator: string): string {
  if (!(ms >= 0 && ms < YEAR_10000)) return new Date(ms).toISOString().slice(0, 19).replace('T', separator);
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  let rest = seconds - days * 86_400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153); // month from March = 0
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}${separator}${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
}

export interface TimeWindow {
  /** Inclusive start, ms since the epoch. */
  start: number;
  /** Exclusive end, ms since the epoch. */
  end: number;
}

export interface DayWindow extends TimeWindow {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
}

/** The last day computed per zone: nearly every call (each heartbeat asks several times) falls on the same day. */
const lastDay = new Map<string, DayWindow>();

/** The calendar day in `zone` that holds `ms`. */
export function dayWindow(ms: number, zone: string): DayWindow {
  const cached = lastDay.get(zone);
  if (cached && ms >= cached.start && ms < cached.end) return { ...cached };
  const start = DateTime.fromMillis(ms, { zone }).startOf('day');
  const window = {
    day: start.toISODate()!,
    start: start.toMillis(),
    end: start.plus({ days: 1 }).startOf('day').toMillis(),
  };
  if (lastDay.size > 16) lastDay.clear();
  lastDay.set(zone, window);
  return { ...window };
}

/** The calendar day named `YYYY-MM-DD` in `zone`, or null when the string is not a real date. */
export function namedDay(day: string, zone: string): DayWindow | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = DateTime.fromISO(day, { zone });
  if (!start.isValid) return null;
  return dayWindow(start.toMillis(), zone);
}

/** The `count` days ending with the day that holds `ms`, newest first. */
export function recentDays(ms: number, zone: string, count: number): DayWindow[] {
  const days: DayWindow[] = [];
  let cursor = DateTime.fromMillis(ms, { zone }).startOf('day');
  for (let i = 0; i < count; i++) {
    const next = cursor.plus({ days: 1 }).startOf('day');
    days.push({ day: cursor.toISODate()!, start: cursor.toMillis(), end: next.toMillis() });
    cursor = cursor.minus({ days: 1 }).startOf('day');
  }
  return days;
}

export type Period = 'all' | 'month' | 'week' | 'day';
export const PERIODS: readonly Period[] = ['all', 'month', 'week', 'day'];

/** The leaderboard period holding `ms`: a calendar day, ISO week (Monday first) or month in `zone`; `all` is unbounded. */
export function periodWindow(period: Period, ms: number, zone: string): TimeWindow | null {
  if (period === 'all') return null;
  // Every score submission and leaderboard read asks for the current periods: Luxon's zone arithmetic took a tenth of
  // a submission's CPU time. The last window per period and zone is kept, as dayWindow does.
  const cacheKey = `${period} ${zone}`;
  const cached = lastPeriod.get(cacheKey);
  if (cached && ms >= cached.start && ms < cached.end) return { start: cached.start, end: cached.end };
  const window = computePeriodWindow(period, ms, zone);
  if (lastPeriod.size > 64) lastPeriod.clear();
  lastPeriod.set(cacheKey, window);
  return { start: window.start, end: window.end };
}

const lastPeriod = new Map<string, TimeWindow>();

function computePeriodWindow(period: Exclude<Period, 'all'>, ms: number, zone: string): TimeWindow {
  const unit = period === 'day' ? 'day' : period === 'week' ? 'week' : 'month';
  const start = DateTime.fromMillis(ms, { zone }).startOf(unit);
  const end = start.plus(unit === 'day' ? { days: 1 } : unit === 'week' ? { weeks: 1 } : { months: 1 }).startOf('day');
  return { start: start.toMillis(), end: end.toMillis() };
}
