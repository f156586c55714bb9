// The public player fields a leaderboard row shows. The avatar URL follows DESIGN §4: an uploaded avatar is served
// from /avatars/…, otherwise the generated initials SVG. (Kept in this one place until the accounts helper exists.)
import type { Config } from '../../config.js';

export interface PlayerFields {
  username: string;
  display_name: string;
  country: string | null;
  avatar_key: string | null;
}

export function avatarUrl(config: Config, player: Pick<PlayerFields, 'username' | 'avatar_key'>): string {
  const base = config.public_url.replace(/\/+$/, '');
  return player.avatar_key ? `${base}/avatars/${player.avatar_key}` : `${base}/avatars/initials/${encodeURIComponent(player.username)}.svg`;
}

export function publicPlayer(config: Config, player: PlayerFields) {
  return { username: player.username, display_name: player.display_name, country: player.country, avatar_url: avatarUrl(config, player) };
}
