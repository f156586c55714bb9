// Maps player rows to the Player views (public and own) and to the Membership object.
import type { Config } from '../../config.js';
import type { PlayerRow } from '../../db/schema.js';
import { formatTimestamp } from '../../time.js';
import type { Membership, PlayerOwn, PlayerPublic } from './accounts.schemas.js';
import { avatarUrl } from './avatar-url.js';
import { membershipView } from './membership.js';

/** The columns the public view is made of: a query for it need not read the email or the account settings. */
export type PublicPlayerFields = Pick<
  PlayerRow,
  'id' | 'username' | 'display_name' | 'avatar_key' | 'bio' | 'country' | 'created_at'
>;

export function publicPlayerView(
  config: Pick<Config, 'public_url' | 'assets_url'>,
  p: PublicPlayerFields,
): PlayerPublic {
  return {
    id: p.id,
    username: p.username,
    display_name: p.display_name,
    avatar_url: avatarUrl(config, p),
    bio: p.bio,
    country: p.country,
    member_since: formatTimestamp(p.created_at),
  };
}

export function ownPlayerView(config: Pick<Config, 'public_url' | 'assets_url'>, p: PlayerRow): PlayerOwn {
  return {
    ...publicPlayerView(config, p),
    email: p.email,
    email_verified: p.email_verified === 1,
    role: p.role as PlayerOwn['role'],
    newsletter: p.newsletter === 1,
    guest: p.guest === 1,
  };
}

export function membershipOf(p: PlayerRow, now: number): Membership {
  return membershipView(p, now) as Membership;
}
