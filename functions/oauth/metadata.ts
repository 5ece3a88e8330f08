import type { z } from 'zod';
import { authorizeUrl, issuer, jwksUrl, revocationUrl, tokenUrl } from './config.ts';
import { supportedPromptValues } from './prompt.ts';
import type { authorizationServerMetadata as metadataSchema } from './response.ts';
import { supportedScopes } from './scopes.ts';

/**
 * Authorization server metadata (RFC 8414), served at `/.well-known/oauth-authorization-server`
 * and, because id_tokens are issued, as the OpenID Connect discovery document at
 * `/.well-known/openid-configuration`: one document with the fields both need.
 */
export function authorizationServerMetadata(): z.input<typeof metadataSchema> {
  return {
    issuer: issuer(),
    authorization_endpoint: authorizeUrl(),
    token_endpoint: tokenUrl(),
    jwks_uri: jwksUrl(),
    revocation_endpoint: revocationUrl(),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    scopes_supported: [...supportedScopes],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'email', 'email_verified', 'name'],
    prompt_values_supported: [...supportedPromptValues],
  };
}
