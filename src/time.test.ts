import { describe, expect, it } from 'vitest';
import { dayWindow, formatIso, formatTimestamp, namedDay, periodWindow, recentDays } from './time.js';

const berlin = 'Europe/Berlin';
const hours = (w: { start: number; end: number }) => (w.end - w.start) / 3_600_000;

describe('time: formats', () => {
  it('formats a timestamp in UTC without fractions', () => {
    expect(formatTimestamp(Date.parse('2026-11-21T09:08:07.654Z'))).toBe('2026-11-21 09:08:07');
  });
  it('writes every instant as Date#toISOString does, across leap days, centuries and the range ends', () => {
    const edges = [
      0,
      999,
      1000,
      86_399_999,
      86_400_000,
      Date.parse('2000-02-29T23:59:59.999Z'),
      Date.parse('2000-03-01T00:00:00Z'),
      Date.parse('2100-02-28T12:00:00Z'),
      Date.parse('2100-03-01T00:00:00Z'),
      Date.parse('2024-12-31T23:59:59Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
      253_402_300_800_000,
      -1,
      Date.parse('1969-07-20T20:17:40Z'),
    ];
    let seed = 12_345;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 253_402_300_800_000;
    for (const ms of [...edges, ...Array.from({ length: 20_000 }, random)]) {
      const iso = new Date(ms).toISOString().slice(0, 19);
      expect(formatTimestamp(ms)).toBe(iso.replace('T', ' '));
      expect(formatIso(ms)).toBe(`${iso}+00:00`);
    }
    expect(() => formatTimestamp(Number.NaN)).toThrow(RangeError);
  });
  it('formats ISO 8601 with an explicit offset', () => {
    expect(formatIso(Date.parse('2026-11-21T09:08:07.654Z'))).toBe('2026-11-21T09:08:07+00:00');
  });
});

describe('time: days in the reset zone', () => {
  it('puts 23:30 UTC in the next Berlin day in winter', () => {
    const w = dayWindow(Date.parse('2026-01-10T23:30:00Z'), berlin);
    expect(w.day).toBe('2026-01-11');
    expect(new Date(w.start).toISOString()).toBe('2026-01-10T23:00:00.000Z');
    expect(hours(w)).toBe(24);
  });
  it('gives 2026-03-29 23 hours in Berlin', () => {
    const w = dayWindow(Date.parse('2026-03-29T12:00:00Z'), berlin);
    expect(w.day).toBe('2026-03-29');
    expect(hours(w)).toBe(23);
    expect(new Date(w.end).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });
  it('gives 2026-10-25 25 hours in Berlin', () => {
    const w = dayWindow(Date.parse('2026-10-25T12:00:00Z'), berlin);
    expect(hours(w)).toBe(25);
    expect(new Date(w.start).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(new Date(w.end).toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });
  it('reads a named day and refuses impossible dates', () => {
    expect(namedDay('2026-10-25', berlin)?.start).toBe(Date.parse('2026-10-24T22:00:00Z'));
    expect(namedDay('2026-02-30', berlin)).toBeNull();
    expect(namedDay('26-1-1', berlin)).toBeNull();
  });
  it('lists recent days newest first across a DST change', () => {
    const days = recentDays(Date.parse('2026-03-30T08:00:00Z'), berlin, 3);
    expect(days.map((d) => d.day)).toEqual(['2026-03-30', '2026-03-29', '2026-03-28']);
    expect(days.map(hours)).toEqual([24, 23, 24]);
  });
});

describe('time: leaderboard periods', () => {
  const at = Date.parse('2026-10-28T10:00:00Z'); // a Wednesday
  it('starts the week on Monday in the zone', () => {
    const w = periodWindow('week', at, berlin)!;
    expect(new Date(w.start).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(new Date(w.end).toISOString()).toBe('2026-11-01T23:00:00.000Z');
  });
  it('makes October 2026 one hour longer than 31 days', () => {
    const w = periodWindow('month', at, berlin)!;
    expect(new Date(w.start).toISOString()).toBe('2026-09-30T22:00:00.000Z');
    expect(hours(w)).toBe(31 * 24 + 1);
  });
  it('treats all as unbounded', () => {
    expect(periodWindow('all', at, berlin)).toBeNull();
  });
});

describe('time: the remembered day', () => {
  it('answers right when calls move back and forth across midnight and between zones', () => {
    const before = Date.parse('2026-11-21T22:59:59.999Z');
    const after = before + 1;
    expect(dayWindow(before, berlin).day).toBe('2026-11-21');
    expect(dayWindow(after, berlin).day).toBe('2026-11-22');
    expect(dayWindow(before, berlin).day).toBe('2026-11-21');
    expect(dayWindow(after, 'UTC').day).toBe('2026-11-21');
    expect(dayWindow(after, berlin).day).toBe('2026-11-22');
    const w = dayWindow(after, berlin);
    w.day = 'changed';
    expect(dayWindow(after, berlin).day).toBe('2026-11-22');
  });
});
