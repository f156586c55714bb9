import { describe, expect, it } from 'vitest';
import { USERNAME_PATTERN, usernameBase, usernameCandidates } from './username.js';

describe('username derivation', () => {
  it('keeps ASCII letters and digits, drops accents and joins the rest with underscores', () => {
    expect(usernameBase('Ada Lovelace')).toBe('Ada_Lovelace');
    expect(usernameBase("  Zoë O'Brien!! ")).toBe('Zoe_O_Brien');
    expect(usernameBase('Ça va 2')).toBe('Ca_va_2');
  });

  it('finds nothing usable in a name without Latin letters or digits', () => {
    expect(usernameBase('李小龍')).toBe('');
    expect(usernameBase('🎮🎮')).toBe('');
  });

  it('cuts a long base so a suffix still fits in 32 characters', () => {
    const base = usernameBase('a'.repeat(40));
    expect(base.length).toBe(26);
    for (const c of usernameCandidates('a'.repeat(40))) expect(c).toMatch(USERNAME_PATTERN);
  });

  it('tries the base first, then suffixed names, all valid usernames', () => {
    const candidates = usernameCandidates('Ada Lovelace');
    expect(candidates[0]).toBe('Ada_Lovelace');
    expect(candidates.slice(1).every((c) => /^Ada_Lovelace_\d{4}$/.test(c))).toBe(true);
  });

  it('falls back to player_NNNN, and suffixes a base that is too short', () => {
    expect(usernameCandidates('李小龍').every((c) => /^player_\d{4}$/.test(c))).toBe(true);
    expect(usernameCandidates('Jo').every((c) => /^Jo_\d{4}$/.test(c))).toBe(true);
  });
});
