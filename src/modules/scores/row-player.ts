// The public player fields a leaderboard row shows (the avatar URL as the accounts capability builds it).
import type { Config } from '../../config.js';
import { avatarUrl } from '../accounts/avatar-url.js';

export interface PlayerFields {
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
  guest: number;
}

export function publicPlayer(config: Config, player: PlayerFields) {
  return {
    username: player.username,
    display_name: player.display_name,
    country: player.country,
    avatar_url: avatarUrl(config, player),
    // present for a guest only: every other row keeps the spec's four fields
    ...(player.guest === 1 ? { guest: true as const } : {}),
  };
}
