import { createHash } from 'node:crypto';
import { sameSecret } from '../../platform/secrets.ts';

/**
 * PKCE (RFC 7636) with S256 only: `plain` would hand the verifier to anyone who sees the
 * authorization request, so it is refused (OAuth 2.1, RFC 9700 2.1.1).
 */

/** BASE64URL(SHA256(verifier)) of a 32-byte verifier: exactly 43 characters. */
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;

export const isWellFormedChallenge = (challenge: string): boolean => CHALLENGE_PATTERN.test(challenge);
export const isWellFormedVerifier = (verifier: string): boolean => VERIFIER_PATTERN.test(verifier);

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return isWellFormedVerifier(verifier) && sameSecret(s256(verifier), challenge);
}
