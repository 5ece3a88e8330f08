import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Random handles and secrets, and how they are stored, for every function that keeps one: API
 * keys, authorization codes, refresh tokens, client secrets and consent-request handles carry at
 * least 128 random bits and are kept only as SHA-256 hashes. A fast hash suffices because there is
 * nothing to guess; comparisons run in constant time (riders' email sign-in codes, which are
 * short, are bound to a random challenge and limited in attempts: functions/riders/email-sign-in.ts).
 */

export const randomHandle = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time equality of two strings (length differences are not secret). */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const matchesHash = (presented: string, storedHash: string): boolean => sameSecret(sha256(presented), storedHash);
