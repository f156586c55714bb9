import { describe, expect, it } from 'vitest';
import { newSecret, randomBase62, secretPrefix, sha256 } from './secrets.js';

describe('secrets', () => {
  it('writes 32 random bytes as 43 base62 characters after the prefix', () => {
    const token = newSecret('agp_');
    expect(token).toMatch(/^agp_[0-9A-Za-z]{43}$/);
    expect(newSecret('agp_')).not.toBe(token);
  });
  it('uses the whole alphabet', () => {
    const seen = new Set(randomBase62(4096));
    expect(seen.size).toBe(62);
  });
  it('stores a SHA-256 and shows a 12-character prefix', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(secretPrefix('agp_0123456789abcdef')).toBe('agp_01234567');
  });
});
