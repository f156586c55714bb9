// The identity-token signing key: an ES256 (P-256) key derived from the `secret` setting, so every instance that shares
// the secret signs with the same key and publishes the same JWKS. No key is stored anywhere; changing `secret` rotates it
// (production refuses the default secret, config.ts).
import { createECDH, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';

export const IDENTITY_ALG = 'ES256';

export interface IdentityKey {
  kid: string;
  privateKey: KeyObject;
  /** the public key as published in the JWKS */
  jwk: JWK;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const cache = new Map<string, Promise<IdentityKey>>();

async function derive(secret: string): Promise<IdentityKey> {
  // HKDF-SHA256 of the secret gives a P-256 private scalar; the rare value out of range (p < 2^-32) takes the next counter.
  for (let counter = 0; ; counter++) {
    const seed = Buffer.from(hkdfSync('sha256', secret, 'gameplatform', `identity-token-key/es256/${counter}`, 32));
    const ecdh = createECDH('prime256v1');
    try {
      ecdh.setPrivateKey(seed);
    } catch {
      continue;
    }
    const point = ecdh.getPublicKey(); // 0x04 ‖ x ‖ y
    const pub = { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) };
    const privateKey = createPrivateKey({ key: { ...pub, d: b64url(seed) }, format: 'jwk' });
    createPublicKey(privateKey); // the pair is sound
    const kid = await calculateJwkThumbprint(pub);
    return { kid, privateKey, jwk: { ...pub, kid, alg: IDENTITY_ALG, use: 'sig' } };
  }
}

/** The signing key for this secret (derived once per process). */
export function identityKey(secret: string): Promise<IdentityKey> {
  let key = cache.get(secret);
  if (!key) {
    key = derive(secret);
    cache.set(secret, key);
  }
  return key;
}
