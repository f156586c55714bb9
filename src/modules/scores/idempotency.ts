// The Idempotency-Key rule (docs/api.md, "Scores and leaderboards"): who is asking, and a fingerprint of what they asked.
import { sha256 } from '../../lib/secrets.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** JSON with object keys sorted at every depth: two bodies that mean the same give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fingerprint of one request: the game it names and its body (defaults applied). */
export function requestFingerprint(slug: string, body: unknown): string {
  return sha256(`${slug}\n${canonicalJson(body)}`);
}

/** The caller an Idempotency-Key belongs to: a player, or a developer key (whichever player it acts for). */
export function callerOf(credential: { kind: 'player'; playerId: number } | { kind: 'key'; keyId: number }): string {
  return credential.kind === 'player' ? `player:${credential.playerId}` : `key:${credential.keyId}`;
}
