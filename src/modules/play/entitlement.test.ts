import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import type { AppContext } from '../../context.js';
import { entitlementOf } from './entitlement.js';

const clock = new ManualClock();
const ctx = { clock, config: { free_seconds_per_day: 900, reset_timezone: 'Europe/Berlin' } } as unknown as AppContext;
const free = {
  role: 'player',
  membership_plan: 'free',
  membership_status: 'none',
  membership_renews_at: null,
  membership_ends_at: null,
};

describe('entitlement', () => {
  it('counts down a free player and resets at Berlin midnight', () => {
    clock.set('2026-11-21T22:30:00Z'); // 23:30 in Berlin
    expect(entitlementOf(ctx, free, 300)).toEqual({
      unlimited: false,
      allowance_seconds: 900,
      used_seconds: 300,
      remaining_seconds: 600,
      limit_reached: false,
      resets_in_seconds: 1800,
      day: '2026-11-21',
    });
  });
  it('reaches the limit at the allowance and never goes below zero', () => {
    expect(entitlementOf(ctx, free, 900)).toMatchObject({ remaining_seconds: 0, limit_reached: true });
    expect(entitlementOf(ctx, free, 950)).toMatchObject({ remaining_seconds: 0, limit_reached: true });
  });
  it('has no limit for staff but still counts their time', () => {
    expect(entitlementOf(ctx, { ...free, role: 'staff' }, 5000)).toMatchObject({
      unlimited: true,
      used_seconds: 5000,
      remaining_seconds: null,
      limit_reached: false,
    });
  });
  it('counts 23 hours to the reset at the start of 2026-03-29 in Berlin', () => {
    clock.set('2026-03-28T23:00:00Z'); // 00:00 Berlin, spring forward at 02:00
    expect(entitlementOf(ctx, free, 0)).toMatchObject({ day: '2026-03-29', resets_in_seconds: 23 * 3600 });
  });
  it('counts 25 hours to the reset at the start of 2026-10-25 in Berlin', () => {
    clock.set('2026-10-24T22:00:00Z'); // 00:00 Berlin, fall back at 03:00
    expect(entitlementOf(ctx, free, 0)).toMatchObject({ day: '2026-10-25', resets_in_seconds: 25 * 3600 });
  });
});
