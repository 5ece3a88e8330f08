import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { INVALID_CREDENTIALS } from '../../platform/credential-refusals.ts';
import type { BearerVerifier } from '../auth/credentials.ts';
import { oauthPrincipal } from '../auth/principal.ts';
import { now, nowMs } from '../../platform/clock.ts';
import { getActiveClient, type OAuthClientRecord } from './clients.ts';
import { accessTokenAudience, issuer } from './config.ts';
import { getGrant, type GrantRecord } from './grants.ts';
import { publishedKeys } from './signing-keys.ts';
import type { AccessTokenClaims } from './tokens.ts';

/**
 * Verifying this platform's access tokens, for the authorizer and the revocation endpoint. The
 * algorithm is fixed before any key is looked up: ES256 only, so `alg: none`, HS256 with the
 * public key as a secret and every other algorithm confusion are refused outright. Then the
 * signature against a published key, `typ`, `iss`, `aud`, `exp`, the claims this platform always
 * sets, and finally the grant.
 *
 * The grant is read on every request, never cached: revocation (code replay, refresh-token
 * reuse, RFC 7009 revocation, the operator revoking an app) must stop a token at once, and one
 * consistent DynamoDB read costs a few milliseconds. Public keys are cached for a minute; a `kid`
 * not in the cache refreshes it (at most every few seconds, so tokens with invented `kid`s cannot
 * make every request scan the key table).
 */

export const ACCESS_TOKEN_EXPIRED = 'The access token has expired';

export type AccessTokenCheck =
  | { valid: true; claims: AccessTokenClaims; grant: GrantRecord; client: OAuthClientRecord }
  | { valid: false; reason: 'expired' | 'invalid' | 'revoked' };

/** Less than KEY_PUBLICATION_LEAD_MS (signing-keys.ts): a key is published before it signs. */
const KEY_CACHE_MS = 60_000;
const MIN_REFRESH_INTERVAL_MS = 5_000;
let keyCache: { keys: Map<string, KeyObject>; fetchedAt: number } | undefined;

async function loadKeys(): Promise<Map<string, KeyObject>> {
  const keys = new Map<string, KeyObject>();
  for (const jwk of await publishedKeys()) keys.set(jwk.kid!, createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }));
  keyCache = { keys, fetchedAt: nowMs() };
  return keys;
}

async function verificationKey(kid: string): Promise<KeyObject | null> {
  // A negative age means the cache was filled by a request run later in time (tests): refill.
  const age = () => (keyCache ? nowMs() - keyCache.fetchedAt : -1);
  let keys = keyCache && age() >= 0 && age() < KEY_CACHE_MS ? keyCache.keys : await loadKeys();
  if (!keys.has(kid) && age() >= MIN_REFRESH_INTERVAL_MS) keys = await loadKeys();
  return keys.get(kid) ?? null;
}

const invalid: AccessTokenCheck = { valid: false, reason: 'invalid' };

/** Whether the token claims to come from this issuer (unverified): only then is it ours to judge. */
export function claimsOurIssuer(token: string): boolean {
  try {
    return decodeJwt(token).iss === issuer();
  } catch {
    return false;
  }
}

export async function verifyAccessToken(token: string): Promise<AccessTokenCheck> {
  let kid: string;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'ES256' || header.typ !== 'at+jwt' || typeof header.kid !== 'string') return invalid;
    kid = header.kid;
  } catch {
    return invalid;
  }
  const key = await verificationKey(kid);
  if (!key) return invalid;
  let claims: AccessTokenClaims;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer: issuer(),
      audience: accessTokenAudience(),
      currentDate: now(),
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'client_id', 'gid'],
    });
    claims = payload as unknown as AccessTokenClaims;
  } catch (error) {
    return error instanceof errors.JWTExpired ? { valid: false, reason: 'expired' } : invalid;
  }
  if (typeof claims.gid !== 'string' || typeof claims.client_id !== 'string' || typeof claims.sub !== 'string') return invalid;
  const [grant, client] = await Promise.all([getGrant(claims.gid), getActiveClient(claims.client_id)]);
  if (!grant || grant.status !== 'active' || !client || grant.client_id !== claims.client_id || grant.sub !== claims.sub) {
    return { valid: false, reason: 'revoked' };
  }
  return { valid: true, claims, grant, client };
}

/** The authorizer's bearer verifier for access tokens of this authorization server. */
export const oauthAccessTokenVerifier: BearerVerifier = async (token) => {
  if (!claimsOurIssuer(token)) return null;
  const check = await verifyAccessToken(token);
  if (!check.valid) return { allow: false, error: check.reason === 'expired' ? ACCESS_TOKEN_EXPIRED : INVALID_CREDENTIALS };
  return {
    allow: true,
    principal: oauthPrincipal({
      sub: check.claims.sub,
      clientId: check.claims.client_id,
      scope: check.claims.scope ?? '',
      grantId: check.claims.gid,
    }),
    usageIdentifierKey: check.client.usage_key,
  };
};
