import type { EndpointDefinition } from '../../platform/endpoints.ts';
import { INVALID_CREDENTIALS } from '../../platform/credential-refusals.ts';
import type { Principal } from './principal.ts';

/**
 * Which kinds of caller an endpoint admits, decided in one place for the authorizer and the
 * handlers' HTTP chain. An OAuth access token works only where the endpoint definition says
 * `oauthAccess` (spec 5.5: five endpoints); elsewhere on `{base_url}` it answers 401 and on
 * `{app_base_url}` 403 (spec 7). Rider endpoints want the identity provider's rider token;
 * `credential` endpoints (routing, and reports when they arrive) take an API key or a rider's own
 * session in its place (spec 5.1), each counted in its own bucket.
 */

export const OAUTH_TOKEN_NOT_ACCEPTED = 'OAuth access tokens are not accepted by this endpoint';
export const OAUTH_TOKEN_FORBIDDEN = 'OAuth access tokens are not accepted by this API';
export const RIDER_TOKEN_REQUIRED = "This endpoint requires a signed-in rider's identity-provider token";

export type Admission = { admit: true } | { admit: false; status: 401 | 403; error: string };

const admitted: Admission = { admit: true };

export function admission(endpoint: EndpointDefinition, principal: Principal): Admission {
  if (principal.kind === 'oauth') {
    if (endpoint.auth === 'credential' && endpoint.oauthAccess) return admitted;
    return endpoint.api === 'base'
      ? { admit: false, status: 401, error: OAUTH_TOKEN_NOT_ACCEPTED }
      : { admit: false, status: 403, error: OAUTH_TOKEN_FORBIDDEN };
  }
  if (endpoint.auth === 'rider') {
    return principal.kind === 'rider' ? admitted : { admit: false, status: 401, error: RIDER_TOKEN_REQUIRED };
  }
  return principal.kind === 'apikey' || principal.kind === 'rider' ? admitted : { admit: false, status: 401, error: INVALID_CREDENTIALS };
}
