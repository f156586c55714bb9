// Random credentials (player tokens, developer keys, play and preview sessions, mail tokens) and the SHA-256 under which they are stored.
import { hash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `bytes` of randomness written in base62 (rejection sampling keeps every character equally likely). */
export function randomBase62(bytes = 32): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** A new secret: the given prefix followed by 32 random bytes in base62. */
export function newSecret(prefix: 'agp_' | 'agk_' | 'ps_' | 'pv_' | 'mt_'): string {
  return prefix + randomBase62(32);
}

/** Hex SHA-256 (one-shot crypto.hash: a quarter of createHash's time, and every authenticated call hashes its token). */
export function sha256(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** What may be shown of a secret after it was issued: its first 12 characters. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 12);
}
