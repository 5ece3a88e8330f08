import { z } from 'zod';
import { nowSeconds } from '../../platform/clock.ts';
import { authenticateClient } from './client-auth.ts';
import type { OAuthClientRecord } from './clients.ts';
import { findCode, markCodeRedeemed } from './codes.ts';
import { invalidGrant, oauthError } from '../../platform/oauth-errors.ts';
import { createGrant, findRefreshToken, getGrant, issueRefreshToken, markRefreshTokenRotated, revokeGrant, type GrantRecord } from './grants.ts';
import { verifierMatches } from './pkce.ts';
import { scopeList } from './scopes.ts';
import { issueAccessToken, issueIdToken, wantsIdToken } from './tokens.ts';

/**
 * The token endpoint's grants (spec 3.2, 4.5; RFC 6749 4.1.3 and 6, RFC 7636 4.6, RFC 9700
 * 4.14). Authorization codes are single use: a second use fails and revokes every token issued
 * from the code. Refresh tokens rotate: each use returns a new one, and presenting a used one
 * again revokes the whole family, because then either the app or an attacker holds a copy.
 */

/** RFC 6749: unknown parameters are ignored; each known one is checked where it matters. */
export const tokenRequest = z.object({
  grant_type: z.string({ error: 'grant_type is required' }),
  code: z.string().max(200).optional(),
  redirect_uri: z.string().max(2_000).optional(),
  code_verifier: z.string().max(200).optional(),
  refresh_token: z.string().max(200).optional(),
  scope: z.string().max(500).optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(500).optional(),
});
export type TokenRequest = z.output<typeof tokenRequest>;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  id_token?: string;
}

/** Grant types third-party rider apps may never use: the password grant is gone in OAuth 2.1, and an app alone is no rider. */
const FORBIDDEN_GRANT_TYPES = new Set(['password', 'client_credentials', 'implicit']);

export async function exchange(body: TokenRequest, headers: Record<string, string | undefined>): Promise<TokenResponse> {
  const client = await authenticateClient(headers, body);
  switch (body.grant_type) {
    case 'authorization_code':
      return redeemCode(client, body);
    case 'refresh_token':
      return refresh(client, body);
    default:
      if (FORBIDDEN_GRANT_TYPES.has(body.grant_type)) {
        throw oauthError('unauthorized_client', `This app may use only authorization_code and refresh_token, not ${body.grant_type}`);
      }
      throw oauthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported`);
  }
}

function required(value: string | undefined, name: string): string {
  if (!value) throw oauthError('invalid_request', `${name} is required`);
  return value;
}

async function redeemCode(client: OAuthClientRecord, body: TokenRequest): Promise<TokenResponse> {
  const code = required(body.code, 'code');
  const redirectUri = required(body.redirect_uri, 'redirect_uri');
  const verifier = required(body.code_verifier, 'code_verifier');
  const record = await findCode(code);
  if (!record || record.client_id !== client.client_id) throw invalidGrant('The authorization code is not valid for this app');
  const replayed = async () => {
    await revokeGrant(record.grant_id, 'authorization code used twice');
    return invalidGrant('The authorization code was already used; every token issued from it has been revoked');
  };
  if (record.status === 'redeemed') throw await replayed();
  if (record.expires_at <= nowSeconds()) throw invalidGrant('The authorization code has expired');
  if (record.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request');
  if (!verifierMatches(verifier, record.code_challenge)) throw invalidGrant('code_verifier does not match the code_challenge');
  if (!(await markCodeRedeemed(record.code_hash))) throw await replayed();
  const grant = await createGrant({
    grant_id: record.grant_id,
    client_id: record.client_id,
    sub: record.sub,
    scope: record.scope,
    rider_claims: record.rider_claims,
    auth_time: record.auth_time,
  });
  // Null only if a replay revoked the grant between redemption and here.
  if (!grant) throw invalidGrant('The authorization code was already used; every token issued from it has been revoked');
  return issueTokens(grant, grant.scope, record.nonce);
}

async function refresh(client: OAuthClientRecord, body: TokenRequest): Promise<TokenResponse> {
  const presented = required(body.refresh_token, 'refresh_token');
  const token = await findRefreshToken(presented);
  if (!token || token.client_id !== client.client_id) throw invalidGrant('The refresh token is not valid for this app');
  const grant = await getGrant(token.grant_id);
  if (!grant || grant.status !== 'active') throw invalidGrant('The refresh token has been revoked');
  const reused = async () => {
    await revokeGrant(grant.grant_id, 'rotated refresh token reused');
    return invalidGrant('The refresh token was already used; the sign-in has been revoked and the rider must sign in again');
  };
  if (token.status === 'rotated') throw await reused();
  if (token.expires_at <= nowSeconds()) throw invalidGrant('The refresh token has expired');
  const scope = narrowedScope(grant, body.scope);
  if (!(await markRefreshTokenRotated(token.token_id))) throw await reused();
  return issueTokens(grant, scope, undefined);
}

/** RFC 6749 6: a refresh may ask for fewer scopes than were granted, never more. */
function narrowedScope(grant: GrantRecord, requested: string | undefined): string {
  if (requested === undefined) return grant.scope;
  const granted = new Set(scopeList(grant.scope));
  const asked = [...new Set(scopeList(requested))];
  const extra = asked.find((scope) => !granted.has(scope));
  if (extra) throw oauthError('invalid_scope', `The scope ${extra} was not granted`);
  return asked.join(' ');
}

async function issueTokens(grant: GrantRecord, scope: string, nonce: string | undefined): Promise<TokenResponse> {
  const scoped = { ...grant, scope };
  const [access, refreshToken, idToken] = await Promise.all([
    issueAccessToken(scoped),
    issueRefreshToken(grant),
    wantsIdToken(scoped) ? issueIdToken(scoped, nonce) : Promise.resolve(undefined),
  ]);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: refreshToken,
    scope,
    ...(idToken ? { id_token: idToken } : {}),
  };
}
