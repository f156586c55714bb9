import { describe, expect, it } from 'vitest';
import { callerOf, canonicalJson, requestFingerprint } from './idempotency.js';

describe('scores: idempotency fingerprint', () => {
  it('ignores the order of keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(requestFingerprint('g', { score: 1, meta: { a: 1, b: 2 } })).toBe(
      requestFingerprint('g', { meta: { b: 2, a: 1 }, score: 1 }),
    );
  });

  it('tells bodies and games apart', () => {
    expect(requestFingerprint('g', { score: 1 })).not.toBe(requestFingerprint('g', { score: 2 }));
    expect(requestFingerprint('g', { score: 1 })).not.toBe(requestFingerprint('h', { score: 1 }));
  });

  it('keeps players and keys apart', () => {
    expect(callerOf({ kind: 'player', playerId: 7 })).not.toBe(callerOf({ kind: 'key', keyId: 7 }));
  });
});
