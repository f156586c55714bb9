import { describe, expect, it } from 'vitest';
import { isUnlimitedMember, membershipView, playsWithoutLimit, type MembershipFields } from './membership.js';

const now = Date.parse('2026-11-21T12:00:00Z');
const day = 86_400_000;
const free: MembershipFields = {
  role: 'player',
  membership_plan: 'free',
  membership_status: 'none',
  membership_renews_at: null,
  membership_ends_at: null,
};
const member = (status: string, ends: number | null): MembershipFields => ({
  ...free,
  membership_plan: 'unlimited',
  membership_status: status,
  membership_ends_at: ends,
});

describe('membership', () => {
  it('makes a free player neither Unlimited nor unlimited in play', () => {
    expect(isUnlimitedMember(free, now)).toBe(false);
    expect(playsWithoutLimit(free, now)).toBe(false);
    expect(membershipView(free, now)).toEqual({
      unlimited: false,
      plan: 'free',
      status: 'none',
      renews_at: null,
      ends_at: null,
    });
  });
  it('makes an active membership Unlimited, until its end date when it has one', () => {
    expect(isUnlimitedMember(member('active', null), now)).toBe(true);
    expect(isUnlimitedMember(member('active', now + day), now)).toBe(true);
    expect(isUnlimitedMember(member('active', now - 1), now)).toBe(false);
  });
  it('keeps a canceled membership running until ends_at', () => {
    expect(isUnlimitedMember(member('canceled', now + 1), now)).toBe(true);
    expect(isUnlimitedMember(member('canceled', now), now)).toBe(false);
    expect(isUnlimitedMember(member('canceled', null), now)).toBe(false);
  });
  it('shows a lapsed membership as expired', () => {
    expect(membershipView(member('canceled', now - day), now)).toMatchObject({
      unlimited: false,
      plan: 'unlimited',
      status: 'expired',
      ends_at: '2026-11-20 12:00:00',
    });
  });
  it('never limits staff and admins', () => {
    expect(playsWithoutLimit({ ...free, role: 'staff' }, now)).toBe(true);
    expect(playsWithoutLimit({ ...free, role: 'admin' }, now)).toBe(true);
    expect(isUnlimitedMember({ ...free, role: 'admin' }, now)).toBe(false);
  });
});
