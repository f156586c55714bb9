// Deriving a username from a display name when register is called without one: ASCII letters, digits and underscores, made unique.
import { randomInt } from 'node:crypto';

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,32}$/;
const BASE_MAX = 26; // leaves room for "_" and a 5-digit suffix within 32

/** "Zoë O'Brien" → "Zoe_O_Brien"; "李小龍" → "" (nothing usable). Accents are dropped, other characters become underscores. */
export function usernameBase(displayName: string): string {
  return displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, BASE_MAX)
    .replace(/_+$/, '');
}

/**
 * Names to try, in order: the base itself when it is long enough, then the base with random 4-digit suffixes
 * (random rather than counting up, so a popular name costs one query, not one per holder); 'player' stands in for a base
 * that is too short.
 */
export function usernameCandidates(displayName: string, count = 8, digits = 4): string[] {
  const base = usernameBase(displayName);
  const stem = base.length >= 1 ? base : 'player';
  const candidates = base.length >= 3 ? [base] : [];
  while (candidates.length < count) {
    const suffix = String(randomInt(10 ** (digits - 1), 10 ** digits));
    candidates.push(`${stem}_${suffix}`);
  }
  return candidates;
}
