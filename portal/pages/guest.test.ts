import { describe, expect, it } from 'vitest';
import { mergeSummary } from './guest.js';

describe('portal: what a login merged from the guest, in words', () => {
  it('names what moved, and what was left out because the account used the slot', () => {
    expect(
      mergeSummary({
        via: 'merge',
        seconds_added_today: 125,
        saves_moved: 2,
        saves_not_moved: 1,
        scores_moved: 1,
        favorites_added: 0,
      }),
    ).toBe(
      'Your guest progress is now in your account: 1 score, 2 saves, 2 min of play time today. 1 guest save was left out: your account already used that slot, and its save is kept.',
    );
    expect(mergeSummary({ via: 'merge', saves_not_moved: 2 })).toBe(
      '2 guest saves were left out: your account already used those slots, and their saves are kept.',
    );
  });

  it('says nothing when the guest had nothing to move', () => {
    expect(
      mergeSummary({
        via: 'merge',
        seconds_added_today: 0,
        saves_moved: 0,
        saves_not_moved: 0,
        scores_moved: 0,
        favorites_added: 0,
      }),
    ).toBeNull();
  });
});
