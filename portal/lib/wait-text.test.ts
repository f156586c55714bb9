import { describe, expect, it } from 'vitest';
import { humanWait, rateLimitedText } from './wait-text.js';

describe('portal: waits in words', () => {
  it('says seconds, minutes and hours, rounding up', () => {
    expect(humanWait(1)).toBe('1 second');
    expect(humanWait(45)).toBe('45 seconds');
    expect(humanWait(60)).toBe('1 minute');
    expect(humanWait(61)).toBe('2 minutes');
    expect(humanWait(590)).toBe('10 minutes');
    expect(humanWait(3600)).toBe('1 hour');
    expect(humanWait(7500)).toBe('2 hours 5 minutes');
    expect(humanWait(0.2)).toBe('1 second');
  });

  it('words a 429 from its retry_after, and copes without one', () => {
    expect(rateLimitedText(590)).toBe('Too many attempts. Please try again in 10 minutes.');
    expect(rateLimitedText(undefined)).toBe('Too many attempts. Please try again later.');
  });
});
