import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../../platform/clock.ts';
import { accessTokenAudience, issuer, lifetimes } from './config.ts';
import type { GrantRecord } from './grants.ts';
import { scopeList } from './scopes.ts';
import { signJwt } from './signing-keys.ts';

/**
 * The tokens the token endpoint issues. Access tokens are JWTs in the RFC 9068 profile
 * (`typ: at+jwt`) signed with ES256: iss, sub, aud, exp, iat, jti, client_id, scope, and `gid`,
 * the grant the authorizer checks for revocation. id_tokens (OpenID Connect Core 2) only when
 * the app asked for `openid`.
 */

export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  jti: string;
  client_id: string;
  scope: string;
  gid: string;
}

export async function issueAccessToken(grant: GrantRecord): Promise<{ token: string; expiresIn: number }> {
  const issuedAt = nowSeconds();
  const claims: AccessTokenClaims = {
    iss: issuer(),
    sub: grant.sub,
    aud: accessTokenAudience(),
    exp: issuedAt + lifetimes.accessTokenSeconds,
    iat: issuedAt,
    jti: randomUUID(),
    client_id: grant.client_id,
    scope: grant.scope,
    gid: grant.grant_id,
  };
  return { token: await signJwt({ ...claims }, 'at+jwt'), expiresIn: lifetimes.accessTokenSeconds };
}

export async function issueIdToken(grant: GrantRecord, nonce: string | undefined): Promise<string> {
  const issuedAt = nowSeconds();
  const scopes = new Set(scopeList(grant.scope));
  return signJwt(
    {
      iss: issuer(),
      sub: grant.sub,
      aud: grant.client_id,
      exp: issuedAt + lifetimes.accessTokenSeconds,
      iat: issuedAt,
      auth_time: grant.auth_time,
      ...(nonce ? { nonce } : {}),
      ...(scopes.has('email') && grant.rider_claims.email ? { email: grant.rider_claims.email, email_verified: true } : {}),
      ...(scopes.has('profile') && grant.rider_claims.name ? { name: grant.rider_claims.name } : {}),
    },
    'JWT',
  );
}

export const wantsIdToken = (grant: GrantRecord): boolean => scopeList(grant.scope).includes('openid');
