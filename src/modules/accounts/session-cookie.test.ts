import { describe, expect, it } from 'vitest';
import { cookieMaxAge } from './session-cookie.js';

describe('session cookie Max-Age', () => {
  const DAY = 86_400_000;
  const issued = Date.parse('2026-11-21T09:00:00.000Z');

  it('is the whole token lifetime when the answer is written a few milliseconds after the token was issued', () => {
    expect(cookieMaxAge(issued + 90 * DAY, issued)).toBe(7_776_000);
    expect(cookieMaxAge(issued + 90 * DAY, issued + 7)).toBe(7_776_000);
  });

  it('counts down with the token and never goes below 0', () => {
    expect(cookieMaxAge(issued + 90 * DAY, issued + DAY)).toBe(89 * 86_400);
    expect(cookieMaxAge(issued, issued + 5_000)).toBe(0);
  });
});
