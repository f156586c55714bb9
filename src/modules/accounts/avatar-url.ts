// Where a player's avatar lives: the uploaded file, or the generated initials SVG whose colour comes from the username.
import { hash } from 'node:crypto';
import type { Config } from '../../config.js';

export interface AvatarFields {
  username: string;
  display_name: string;
  avatar_key: string | null;
}

/**
 * Absolute URL of the player's avatar: an upload at assets_url (CDN or bucket) when one is set, else served by the
 * service. Every upload gets a new file name, so the URL of a file never changes content.
 */
export function avatarUrl(config: Pick<Config, 'public_url' | 'assets_url'>, p: AvatarFields): string {
  if (p.avatar_key) return `${config.assets_url || config.public_url}/avatars/${p.avatar_key}`;
  return `${config.public_url}${initialsAvatarPath(p.username, p.display_name)}`;
}

/** `/avatars/initials/{hue}/{initials}.svg`: everything the picture needs is in the path, so it is cached for good. */
export function initialsAvatarPath(username: string, displayName: string): string {
  return `/avatars/initials/${hueOf(username)}/${encodeURIComponent(initialsOf(displayName, username))}.svg`;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** First letter of the first and of the last word of the display name ("Ada Lovelace" → "AL"), else of the username. */
export function initialsOf(displayName: string, username: string): string {
  const firsts = displayName
    .split(/\s+/u)
    .map((word) => [...word].find((ch) => LETTER_OR_DIGIT.test(ch)))
    .filter((ch): ch is string => ch !== undefined);
  const chosen =
    firsts.length > 1
      ? [firsts[0]!, firsts[firsts.length - 1]!]
      : firsts.length === 1
        ? [firsts[0]!]
        : [[...username][0] ?? '?'];
  // One code point each even when upper-casing grows a letter ("ß" → "SS").
  return chosen.map((ch) => [...ch.toUpperCase()][0]!).join('');
}

/**
 * A hue from 0 to 359, the same for a username in any letter case. One-shot hash: every row of a leaderboard page
 * without an uploaded avatar computes one (a Hash object took 1.7 µs a row).
 */
export function hueOf(username: string): number {
  // The first two bytes, big-endian (hex text is quicker to get than a Buffer: 0.55 against 1.1 µs).
  return parseInt(hash('sha256', username.toLowerCase(), 'hex').slice(0, 4), 16) % 360;
}

/** `#rrggbb` for the hue at 55 % saturation and 42 % lightness: white initials stay readable on every hue. */
export function hueColour(hue: number): string {
  const s = 0.55;
  const l = 0.42;
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    const v = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

const VALID_INITIALS = /^[\p{L}\p{N}]{1,2}$/u;

export function validInitials(text: string): boolean {
  return VALID_INITIALS.test(text);
}

/** The 256×256 initials avatar. `initials` must pass validInitials (letters and digits only, so nothing to escape but kept safe). */
export function initialsSvg(initials: string, hue: number): string {
  const text = initials.replace(/[<>&"']/g, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${text}">` +
    `<rect width="256" height="256" fill="${hueColour(hue)}"/>` +
    `<text x="128" y="128" dy="0.35em" text-anchor="middle" fill="#ffffff" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="${[...text].length > 1 ? 104 : 128}" font-weight="600">${text}</text>` +
    '</svg>'
  );
}
