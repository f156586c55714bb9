import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, formatExactDuration, planNext, spokenClock } from './schedule.js';

const free = (remaining: number): GamePlatform.Entitlement => ({
  unlimited: false,
  allowance_seconds: 900,
  used_seconds: 900 - remaining,
  remaining_seconds: remaining,
  limit_reached: remaining === 0,
  resets_in_seconds: 1000,
  day: '2026-11-21',
});

describe('shell: heartbeat plan', () => {
  it('beats every interval for Unlimited players', () => {
    expect(planNext({ ...free(0), unlimited: true, remaining_seconds: null, limit_reached: false }, 30)).toEqual({
      heartbeatInMs: 30_000,
      final: false,
      warnInMs: null,
    });
  });

  it('beats every interval while more time is left than one interval', () => {
    expect(planNext(free(31), 30)).toEqual({ heartbeatInMs: 30_000, final: false, warnInMs: null });
  });

  it('beats when the allowance runs out, warning the game just before', () => {
    expect(planNext(free(12), 30)).toEqual({ heartbeatInMs: 12_000, final: true, warnInMs: 10_500 });
    expect(planNext(free(30), 30)).toEqual({ heartbeatInMs: 30_000, final: true, warnInMs: 28_500 });
    expect(planNext(free(1), 30, 1500)).toEqual({ heartbeatInMs: 1000, final: true, warnInMs: 0 });
  });
});

describe('shell: time formats', () => {
  it('formats a countdown', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(3725)).toBe('1:02:05');
  });

  it('formats a duration for sentences', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(720)).toBe('12 min');
    expect(formatDuration(12_000)).toBe('3 h 20 min');
  });
});

describe('shell: the time left in words', () => {
  it('says what the clock shows, to the second', () => {
    const cases: Array<[number, string, string]> = [
      [299, '4:59', '4 minutes 59 seconds'],
      [60, '1:00', '1 minute'],
      [61.7, '1:01', '1 minute 1 second'],
      [12, '0:12', '12 seconds'],
      [0, '0:00', '0 seconds'],
      [3605, '1:00:05', '1 hour 5 seconds'],
    ];
    expect(cases.map(([s]) => [s, formatClock(s), spokenClock(s)])).toEqual(cases);
  });

  it('writes durations to the second where two of them make a whole', () => {
    expect([90, 810, 900, 0, 3723].map(formatExactDuration)).toEqual([
      '1 min 30 s',
      '13 min 30 s',
      '15 min',
      '0 s',
      '1 h 2 min 3 s',
    ]);
  });
});
