import { JwtVerifier } from 'aws-jwt-verify';
import { NonRetryableFetchError } from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { decodeJwt } from 'jose';
import { INVALID_CREDENTIALS } from '../../platform/credential-refusals.ts';
import type { BearerVerifier } from '../auth/credentials.ts';
import { riderPrincipal } from '../auth/principal.ts';
import { RIDER_SESSION_USAGE_KEY_ENV_VAR } from '../../platform/deployment-settings.ts';
import { RIDER_ADMIN_GROUP } from '../../platform/resources.ts';

/**
 * The rider identity provider: Amazon Cognito in AWS, the local identity provider
 * (lib/local/identity-provider.ts) on this machine. Both are OpenID Connect providers that sign
 * rider tokens and publish their keys as a JWKS, and both are verified here by the same code,
 * aws-jwt-verify's `JwtVerifier` against the provider's JWKS. Settings, from the environment:
 *
 *   RIDER_IDP_ISSUER             the provider's issuer (Cognito: https://cognito-idp.<region>.amazonaws.com/<pool id>)
 *   RIDER_IDP_JWKS_URI           its JWKS (Cognito: <issuer>/.well-known/jwks.json)
 *   RIDER_IDP_AUTHORIZE_URL      its authorization endpoint (Cognito: https://<domain>/oauth2/authorize)
 *   RIDER_IDP_TOKEN_URL          its token endpoint (Cognito: https://<domain>/oauth2/token)
 *   RIDER_IDP_CONSENT_CLIENT_ID  the public app client the consent screen signs riders in with
 *   RIDER_IDP_APP_CLIENT_IDS     comma-separated app clients of the platform's own rider apps,
 *                                whose access tokens the rider endpoints accept
 *   RIDER_SESSION_USAGE_KEY      the API Gateway usage key that meters rider sessions on the
 *                                metered `{base_url}` (spec 5.1: a session in place of an API key)
 *
 * The stack sets all of them from the Cognito user pool it creates (lib/rider-identity.ts); the
 * local platform from its identity provider (lib/local/launch.ts).
 *
 * Tokens follow Cognito's shapes: access tokens carry `token_use: "access"` and `client_id`,
 * id tokens `token_use: "id"` and `aud`; a user's groups are in `cognito:groups` (absent when
 * there are none).
 */


export interface RiderIdentity {
  sub: string;
  email?: string;
  name?: string;
  /** When the rider last authenticated at the provider (the id token's `auth_time`, Unix seconds). */
  authTime?: number;
}

interface IdpSettings {
  issuer: string;
  jwksUri: string;
  authorizeUrl: string;
  tokenUrl: string;
  consentClientId: string;
  appClientIds: string[];
}

function settings(): IdpSettings | null {
  const issuer = process.env.RIDER_IDP_ISSUER;
  if (!issuer) return null;
  const required = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`Environment variable ${name} is not set`);
    return value;
  };
  return {
    issuer,
    jwksUri: required('RIDER_IDP_JWKS_URI'),
    authorizeUrl: required('RIDER_IDP_AUTHORIZE_URL'),
    tokenUrl: required('RIDER_IDP_TOKEN_URL'),
    consentClientId: required('RIDER_IDP_CONSENT_CLIENT_ID'),
    appClientIds: (process.env.RIDER_IDP_APP_CLIENT_IDS ?? '').split(',').map((id) => id.trim()).filter(Boolean),
  };
}

function requiredSettings(): IdpSettings {
  const found = settings();
  if (!found) throw new Error('The rider identity provider is not configured (RIDER_IDP_ISSUER)');
  return found;
}

/**
 * aws-jwt-verify's own fetcher speaks HTTPS only; the local provider serves plain HTTP on
 * loopback. Node's fetch does both, with a timeout so a slow provider cannot hold a request.
 */
const fetcher: Fetcher = {
  async fetch(uri) {
    const response = await fetch(uri, { signal: AbortSignal.timeout(3_000) });
    if (response.status !== 200) throw new NonRetryableFetchError(uri, `Status code is ${response.status}, expected 200`);
    return response.arrayBuffer();
  },
};

const FETCH_TIMEOUT_MS = 5_000;

let verifiers: { key: string; access: ReturnType<typeof createAccessVerifier>; id: ReturnType<typeof createIdVerifier> } | undefined;

function createAccessVerifier(config: IdpSettings, jwksCache: SimpleJwksCache) {
  return JwtVerifier.create(
    {
      issuer: config.issuer,
      jwksUri: config.jwksUri,
      audience: null,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'access') throw new Error('Not an access token');
        if (typeof payload.client_id !== 'string' || !config.appClientIds.includes(payload.client_id)) {
          throw new Error('Access token of an app client the rider endpoints do not serve');
        }
      },
    },
    { jwksCache },
  );
}

function createIdVerifier(config: IdpSettings, jwksCache: SimpleJwksCache) {
  return JwtVerifier.create(
    {
      issuer: config.issuer,
      jwksUri: config.jwksUri,
      audience: config.consentClientId,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('Not an id token');
      },
    },
    { jwksCache },
  );
}

function verifiersFor(config: IdpSettings) {
  const key = JSON.stringify(config);
  if (verifiers?.key !== key) {
    const jwksCache = new SimpleJwksCache({ fetcher });
    verifiers = { key, access: createAccessVerifier(config, jwksCache), id: createIdVerifier(config, jwksCache) };
  }
  return verifiers;
}

function identityOf(payload: JwtPayload): RiderIdentity {
  return {
    sub: String(payload.sub),
    ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
    ...(typeof payload.name === 'string' ? { name: payload.name } : {}),
    ...(typeof payload.auth_time === 'number' ? { authTime: payload.auth_time } : {}),
  };
}

/** The authorizer's bearer verifier for rider access tokens of the identity provider. */
export const riderTokenVerifier: BearerVerifier = async (token) => {
  const config = settings();
  if (!config) return null;
  try {
    if (decodeJwt(token).iss !== config.issuer) return null;
  } catch {
    return null;
  }
  try {
    const payload = await verifiersFor(config).access.verify(token);
    if (typeof payload.sub !== 'string' || !payload.sub) return { allow: false, error: INVALID_CREDENTIALS };
    const groups = payload['cognito:groups'];
    const admin = Array.isArray(groups) && groups.includes(RIDER_ADMIN_GROUP);
    const usageKey = process.env[RIDER_SESSION_USAGE_KEY_ENV_VAR];
    return { allow: true, principal: riderPrincipal(payload.sub, { admin }), ...(usageKey ? { usageIdentifierKey: usageKey } : {}) };
  } catch {
    return { allow: false, error: INVALID_CREDENTIALS };
  }
};

/** The identity provider's OAuth endpoints, where the platform's own rider apps sign riders in. */
export function identityProviderEndpoints(): Pick<IdpSettings, 'authorizeUrl' | 'tokenUrl'> {
  const { authorizeUrl, tokenUrl } = requiredSettings();
  return { authorizeUrl, tokenUrl };
}

/**
 * Where the consent screen sends the rider to sign in (OIDC authorization code flow with PKCE);
 * `reauthenticate` asks the provider to authenticate afresh even within a session of its own.
 */
export function identityProviderSignInUrl(input: { redirectUri: string; state: string; nonce: string; codeChallenge: string; reauthenticate?: boolean }): string {
  const config = requiredSettings();
  const url = new URL(config.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.consentClientId,
    redirect_uri: input.redirectUri,
    scope: 'openid email profile',
    state: input.state,
    nonce: input.nonce,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
    ...(input.reauthenticate ? { prompt: 'login' } : {}),
  }).toString();
  return url.href;
}

export class IdentityProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityProviderError';
  }
}

/** Exchanges the provider's code for an id token and verifies it (audience, `token_use`, nonce). */
export async function completeIdentityProviderSignIn(input: {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  nonce: string;
}): Promise<RiderIdentity> {
  const config = requiredSettings();
  const response = await fetch(config.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: config.consentClientId,
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    }),
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new IdentityProviderError(`The identity provider refused the code (${response.status})`);
  const body = (await response.json()) as { id_token?: unknown };
  if (typeof body.id_token !== 'string') throw new IdentityProviderError('The identity provider sent no id token');
  let payload: JwtPayload;
  try {
    payload = await verifiersFor(config).id.verify(body.id_token);
  } catch (error) {
    throw new IdentityProviderError(`The identity provider's id token did not verify: ${(error as Error).name}`);
  }
  if (payload.nonce !== input.nonce) throw new IdentityProviderError('The id token is not for this sign-in (nonce)');
  return identityOf(payload);
}
