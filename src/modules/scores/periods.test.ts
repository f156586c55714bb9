import { describe, expect, it } from 'vitest';
import { periodKeyAt, periodKeyFor, periodKeysAt, windowOfKey } from './periods.js';

const berlin = 'Europe/Berlin';
const at = (iso: string) => Date.parse(iso);
const hours = (w: { start: number; end: number } | null) => (w!.end - w!.start) / 3_600_000;

describe('scores: periods', () => {
  it('names the day by its date in the zone, switching at local midnight', () => {
    expect(periodKeyAt('day', at('2026-11-20T22:59:59.999Z'), berlin)).toBe('2026-11-20');
    expect(periodKeyAt('day', at('2026-11-20T23:00:00Z'), berlin)).toBe('2026-11-21');
  });

  it('names the ISO week by its Monday and the month by its first day', () => {
    expect(periodKeyAt('week', at('2026-11-22T22:59:59Z'), berlin)).toBe('2026-11-16'); // Sunday 23:59 in Berlin
    expect(periodKeyAt('week', at('2026-11-22T23:00:00Z'), berlin)).toBe('2026-11-23'); // Monday 00:00
    expect(periodKeyAt('month', at('2026-11-30T22:59:59Z'), berlin)).toBe('2026-11-01');
    expect(periodKeyAt('month', at('2026-11-30T23:00:00Z'), berlin)).toBe('2026-12-01');
    expect(periodKeyAt('all', at('2026-11-30T23:00:00Z'), berlin)).toBe('all');
  });

  it('gives the spring-forward day 23 hours and the fall-back day 25', () => {
    expect(hours(windowOfKey('day', '2026-03-29', berlin))).toBe(23);
    expect(hours(windowOfKey('day', '2026-10-25', berlin))).toBe(25);
    expect(periodKeyAt('day', at('2026-03-29T21:59:59Z'), berlin)).toBe('2026-03-29');
    expect(periodKeyAt('day', at('2026-03-29T22:00:00Z'), berlin)).toBe('2026-03-30');
    expect(periodKeyAt('day', at('2026-10-25T22:59:59Z'), berlin)).toBe('2026-10-25');
    expect(periodKeyAt('day', at('2026-10-25T23:00:00Z'), berlin)).toBe('2026-10-26');
  });

  it('gives the weeks holding the changes 167 and 169 hours', () => {
    expect(hours(windowOfKey('week', '2026-03-23', berlin))).toBe(167);
    expect(hours(windowOfKey('week', '2026-10-19', berlin))).toBe(169);
  });

  it('reads the period holding a named date, and refuses an impossible one', () => {
    const now = at('2026-11-21T10:00:00Z');
    expect(periodKeyFor('week', now, berlin, '2026-11-12')).toBe('2026-11-09');
    expect(periodKeyFor('month', now, berlin, '2026-02-28')).toBe('2026-02-01');
    expect(periodKeyFor('day', now, berlin)).toBe('2026-11-21');
    expect(periodKeyFor('day', now, berlin, '2026-02-30')).toBeNull();
  });

  it('files a score under all four periods at once', () => {
    expect(periodKeysAt(at('2026-12-31T23:30:00Z'), berlin)).toEqual([
      { period: 'all', key: 'all' },
      { period: 'month', key: '2027-01-01' },
      { period: 'week', key: '2026-12-28' },
      { period: 'day', key: '2027-01-01' },
    ]);
  });
});
