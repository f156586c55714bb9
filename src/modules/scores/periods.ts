// Leaderboard periods in reset_timezone: which day, ISO week or month holds a moment, and the key that names it.
import { DateTime } from 'luxon';
import { namedDay, periodWindow, type Period, type TimeWindow } from '../../time.js';

/** The key of the period holding `ms`: `all`, or the date (in `zone`) its day, week (Monday) or month starts on. */
export function periodKeyAt(period: Period, ms: number, zone: string): string {
  const window = periodWindow(period, ms, zone);
  if (!window) return 'all';
  // the key of the last window asked for, per period and zone (periodWindow keeps that window too)
  const cacheKey = `${period} ${zone}`;
  const cached = lastKey.get(cacheKey);
  if (cached && cached.start === window.start) return cached.key;
  const key = DateTime.fromMillis(window.start, { zone }).toISODate()!;
  if (lastKey.size > 64) lastKey.clear();
  lastKey.set(cacheKey, { start: window.start, key });
  return key;
}
const lastKey = new Map<string, { start: number; key: string }>();

/** The window a period key names (null for `all`). */
export function windowOfKey(period: Period, key: string, zone: string): TimeWindow | null {
  if (period === 'all') return null;
  const day = namedDay(key, zone);
  if (!day) throw new Error(`not a period key: ${key}`);
  return periodWindow(period, day.start, zone);
}

/**
 * The period to read: the one holding the date `at` (`YYYY-MM-DD` in `zone`), or the current one.
 * Returns null when `at` is not a real date.
 */
export function periodKeyFor(period: Period, now: number, zone: string, at?: string): string | null {
  if (at === undefined) return periodKeyAt(period, now, zone);
  const day = namedDay(at, zone);
  return day ? periodKeyAt(period, day.start, zone) : null;
}

/** The four boards a score counts on: all time, and the month, week and day holding `ms`. */
export function periodKeysAt(ms: number, zone: string): Array<{ period: Period; key: string }> {
  return (['all', 'month', 'week', 'day'] as const).map((period) => ({ period, key: periodKeyAt(period, ms, zone) }));
}
