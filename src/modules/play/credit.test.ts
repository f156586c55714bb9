import { describe, expect, it } from 'vitest';
import { planCredit } from './credit.js';

const zone = 'Europe/Berlin';
const at = (iso: string) => new Date(iso).getTime();

describe('play: planCredit', () => {
  it('credits the seconds since the last credit', () => {
    expect(planCredit(at('2026-06-01T10:00:00Z'), at('2026-06-01T10:00:30Z'), 90, zone)).toEqual({
      seconds: 30,
      until: at('2026-06-01T10:00:30Z'),
      segments: [{ day: '2026-06-01', seconds: 30 }],
    });
  });

  it('credits at most max_heartbeat_gap and skips the rest of a longer silence', () => {
    const plan = planCredit(at('2026-06-01T10:00:00Z'), at('2026-06-01T10:04:00Z'), 90, zone);
    expect(plan).toMatchObject({ seconds: 90, until: at('2026-06-01T10:04:00Z') });
  });

  it('keeps a fraction of a second for the next credit', () => {
    const start = at('2026-06-01T10:00:00Z');
    const first = planCredit(start, start + 30_700, 90, zone);
    expect(first).toMatchObject({ seconds: 30, until: start + 30_000 });
    const second = planCredit(first.until, start + 60_400, 90, zone);
    expect(second).toMatchObject({ seconds: 30, until: start + 60_000 });
  });

  it('credits nothing when no whole second passed, or the clock went back', () => {
    const start = at('2026-06-01T10:00:00Z');
    expect(planCredit(start, start + 999, 90, zone)).toEqual({ seconds: 0, until: start, segments: [] });
    expect(planCredit(start, start - 5000, 90, zone)).toEqual({ seconds: 0, until: start, segments: [] });
  });

  it('splits a credit that spans midnight in the reset zone', () => {
    // 23:59:40 to 00:00:10 in Berlin (UTC+1 in November)
    const plan = planCredit(at('2026-11-21T22:59:40Z'), at('2026-11-21T23:00:10Z'), 90, zone);
    expect(plan.segments).toEqual([
      { day: '2026-11-21', seconds: 20 },
      { day: '2026-11-22', seconds: 10 },
    ]);
  });

  it('puts a credit ending exactly at midnight on the old day', () => {
    const plan = planCredit(at('2026-11-21T22:59:30Z'), at('2026-11-21T23:00:00Z'), 90, zone);
    expect(plan.segments).toEqual([{ day: '2026-11-21', seconds: 30 }]);
  });

  it('splits with sub-second boundaries so that the parts add up', () => {
    const from = at('2026-11-21T22:59:59.600Z');
    const plan = planCredit(from, from + 30_000, 90, zone);
    expect(plan.segments.reduce((n, s) => n + s.seconds, 0)).toBe(30);
    expect(plan.segments.map((s) => s.day)).toEqual(['2026-11-22']);
  });

  it('splits at midnight before the days of 23 and 25 hours', () => {
    expect(planCredit(at('2026-03-28T22:59:00Z'), at('2026-03-28T23:00:30Z'), 90, zone).segments).toEqual([
      { day: '2026-03-28', seconds: 60 },
      { day: '2026-03-29', seconds: 30 },
    ]);
    expect(planCredit(at('2026-10-24T21:59:45Z'), at('2026-10-24T22:00:15Z'), 90, zone).segments).toEqual([
      { day: '2026-10-24', seconds: 15 },
      { day: '2026-10-25', seconds: 15 },
    ]);
  });

  it('is not split by the clock change itself', () => {
    // 01:59:45 CET to 03:00:15 CEST on 2026-03-29: thirty real seconds on one day
    expect(planCredit(at('2026-03-29T00:59:45Z'), at('2026-03-29T01:00:15Z'), 90, zone).segments).toEqual([
      { day: '2026-03-29', seconds: 30 },
    ]);
  });
});
