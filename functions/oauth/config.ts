import { consentPath } from '../../platform/endpoints.ts';

/**
 * Where the authorization server lives and how long its artefacts last (spec 3.2, 8). The
 * issuer is `{base_url}` as apps see it (the stack sets `OAUTH_ISSUER` to the API's public URL;
 * the local platform to its listener). The API at `{base_url}` is also the one resource server
 * that accepts the access tokens, so the issuer is their audience too.
 */

export const lifetimes = {
  /** An authorization request, from the authorize endpoint to the rider's decision. */
  authorizationRequestSeconds: 3 * 60,
  /** An authorization code, single use. */
  codeSeconds: 10 * 60,
  accessTokenSeconds: 60 * 60,
  /** A refresh token unused this long stops working; each rotation starts the period again. */
  refreshTokenSeconds: 30 * 24 * 60 * 60,
} as const;

/** How long a record outlives its expiry before DynamoDB TTL may delete it (so pages can still say "expired"). */
export const RECORD_RETENTION_SECONDS = 24 * 60 * 60;

export function issuer(): string {
  const value = process.env.OAUTH_ISSUER;
  if (!value) throw new Error('Environment variable OAUTH_ISSUER is not set');
  return value.replace(/\/+$/, '');
}

export const accessTokenAudience = (): string => issuer();

export const authorizeUrl = (): string => `${issuer()}/auth/v1/oauth/authorize`;
export const tokenUrl = (): string => `${issuer()}/auth/v1/oauth/token`;
export const revocationUrl = (): string => `${issuer()}/auth/v1/oauth/revoke`;
export const jwksUrl = (): string => `${issuer()}/auth/v1/oauth/jwks`;

/** `{consent_url}`: the consent screen the platform operates (spec intro). */
export const consentUrl = (): string => process.env.OAUTH_CONSENT_URL ?? `${issuer()}${consentPath}`;
export const idpCallbackUrl = (): string => `${consentUrl()}/idp-callback`;
