// Password hashing: argon2id (19 MiB, 2 passes) on @node-rs/argon2's own threads, never on the event loop.
import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** OWASP's first argon2id configuration: m = 19456 KiB, t = 2, p = 1. */
const ARGON2ID: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/** false for a wrong password and for a stored value that is not an argon2 hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification when the login names nobody, so that an unknown login and a wrong password
 * take comparable time (the hash uses the same parameters as real ones).
 */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummy ??= hashPassword(randomBytes(32).toString('hex'));
  await verifyPassword(await dummy, password);
}
