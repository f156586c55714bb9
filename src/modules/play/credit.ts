// The heartbeat credit rule (docs/api.md, "Play sessions and the daily allowance") as a pure function: how many seconds a call credits and to which days.
import { dayWindow } from '../../time.js';

export interface CreditSegment {
  /** `YYYY-MM-DD` in reset_timezone */
  day: string;
  seconds: number;
}

export interface CreditPlan {
  /** whole seconds to credit (before the daily cap of a free player) */
  seconds: number;
  /** the session's new credited_until */
  until: number;
  /** `seconds` split at the reset: one segment, or two when the interval spans midnight */
  segments: CreditSegment[];
}

/**
 * Credit = the seconds since `creditedUntil`, at most `maxGapSeconds` (the most recent ones: a longer silence is skipped).
 * Whole seconds only; the fraction left over stays uncredited until the next call, so no time is lost or counted twice.
 */
export function planCredit(creditedUntil: number, now: number, maxGapSeconds: number, zone: string): CreditPlan {
  const from = Math.max(creditedUntil, now - maxGapSeconds * 1000);
  const seconds = Math.max(0, Math.floor((now - from) / 1000));
  if (seconds === 0) return { seconds: 0, until: creditedUntil, segments: [] };
  const until = from + seconds * 1000;
  return { seconds, until, segments: splitAtResets(from, until, seconds, zone) };
}

/** Splits [from, until) at each midnight in `zone`; the segments' seconds add up to `seconds` exactly. */
function splitAtResets(from: number, until: number, seconds: number, zone: string): CreditSegment[] {
  const segments: CreditSegment[] = [];
  let cursor = from;
  let left = seconds;
  while (cursor < until) {
    const day = dayWindow(cursor, zone);
    const end = Math.min(day.end, until);
    const part = end === until ? left : Math.min(left, Math.round((end - cursor) / 1000));
    if (part > 0) segments.push({ day: day.day, seconds: part });
    left -= part;
    cursor = end;
  }
  return segments;
}
