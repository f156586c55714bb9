import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, planNext } from './schedule.js';

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
