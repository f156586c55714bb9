// Membership and roles (docs/api.md, "Accounts and authentication"): who is Unlimited, who plays without a limit, and the Membership object of GET /me.
import type { MembershipFields } from '../../http/auth.js';
import { formatTimestamp } from '../../time.js';

export const ROLES = ['player', 'staff', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const PLANS = ['free', 'unlimited'] as const;
export const MEMBERSHIP_STATUSES = ['none', 'active', 'canceled', 'expired'] as const;

// The columns a credential carries; declared with the credential kinds (http/auth.ts).
export type { MembershipFields } from '../../http/auth.js';

/** Unlimited = plan unlimited and status active (until ends_at, when set), or canceled with ends_at still ahead. */
export function isUnlimitedMember(p: MembershipFields, now: number): boolean {
  if (p.membership_plan !== 'unlimited') return false;
  const ahead = p.membership_ends_at !== null && p.membership_ends_at > now;
  if (p.membership_status === 'active') return p.membership_ends_at === null || ahead;
  return p.membership_status === 'canceled' && ahead;
}

export function isStaff(role: string): boolean {
  return role === 'staff' || role === 'admin';
}

/** Staff and Unlimited members have no daily limit and may launch premium games (their time is still counted). */
export function playsWithoutLimit(p: MembershipFields, now: number): boolean {
  return isStaff(p.role) || isUnlimitedMember(p, now);
}

/** The Membership object: a lapsed membership reads as `expired`. */
export function membershipView(p: MembershipFields, now: number) {
  const unlimited = isUnlimitedMember(p, now);
  const lapsed = p.membership_plan === 'unlimited' && !unlimited && p.membership_status !== 'none';
  return {
    unlimited,
    plan: p.membership_plan,
    status: lapsed ? 'expired' : p.membership_status,
    renews_at: unlimited && p.membership_renews_at !== null ? formatTimestamp(p.membership_renews_at) : null,
    ends_at: p.membership_ends_at === null ? null : formatTimestamp(p.membership_ends_at),
  };
}
