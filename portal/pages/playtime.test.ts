import { describe, expect, it } from 'vitest';
import { shortDay, todayFigures } from './playtime.js';

/** "1 h 2 min 3 s" → 3723. */
const seconds = (words: string) =>
  [...words.matchAll(/(\d+) (h|min|s)\b/g)].reduce(
    (sum, [, n, unit]) => sum + Number(n) * (unit === 'h' ? 3600 : unit === 'min' ? 60 : 1),
    0,
  );

const free = (used: number, allowance = 900): GamePlatform.Entitlement => ({
  unlimited: false,
  allowance_seconds: allowance,
  used_seconds: used,
  remaining_seconds: Math.max(0, allowance - used),
  limit_reached: used >= allowance,
  resets_in_seconds: 1000,
  day: '2026-11-28',
});

describe("portal: today's playtime figures", () => {
  it('shows played and left that add up to the allowance, whatever the seconds', () => {
    for (const allowance of [900, 12, 3600, 5400])
      for (let used = 0; used <= allowance; used += 7) {
        const figures = Object.fromEntries(todayFigures(free(used, allowance)));
        expect(seconds(figures['Played today']!) + seconds(figures['Left today']!), `${used} of ${allowance}`).toBe(
          seconds(figures['Daily allowance']!),
        );
      }
    expect(todayFigures(free(90))).toEqual([
      ['Played today', '1 min 30 s'],
      ['Left today', '13 min 30 s'],
      ['Daily allowance', '15 min'],
    ]);
  });

  it('says "No limit" for Unlimited', () => {
    expect(todayFigures({ ...free(600), unlimited: true, remaining_seconds: null })).toEqual([
      ['Played today', '10 min'],
      ['Left today', 'No limit'],
      ['Plan', 'Unlimited'],
    ]);
  });

  it("labels the chart's days as the site writes dates, without the year", () => {
    expect(['2026-11-28', '2026-09-01', '2027-01-05'].map(shortDay)).toEqual(['28 Nov', '1 Sept', '5 Jan']);
  });
});
