import { z } from 'zod';
import { supportedScopes } from './scopes.ts';
import { supportedPromptValues } from './prompt.ts';

/**
 * The JSON answers of the authorization server (spec 4.5; README "Rider login for third-party
 * apps") as zod schemas, for the OpenAPI documents (functions/openapi/), the handlers' result
 * types and the contract tests.
 */

export const tokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'An ES256 JWT (RFC 9068), valid one hour.' }),
    token_type: z.literal('Bearer'),
    expires_in: z.int().meta({ description: 'Seconds the access token lives (3600).' }),
    refresh_token: z.string().meta({ description: 'Rotates: store the new one from every response; the old one is dead.' }),
    scope: z.string().meta({ description: 'The granted scopes, space-separated.' }),
    id_token: z.string().optional().meta({ description: 'Only when `openid` was requested.' }),
  })
  .meta({ id: 'TokenResponse', description: 'RFC 6749 section 5.1.' });

export const revocationResponse = z.object({}).meta({ id: 'RevocationResponse', description: 'RFC 7009: an empty object, whether or not the token was valid.' });

export const jwks = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal('EC'),
        crv: z.literal('P-256'),
        x: z.string(),
        y: z.string(),
        kid: z.string().meta({ description: "The key's RFC 7638 thumbprint." }),
        alg: z.literal('ES256'),
        use: z.literal('sig'),
      }),
    ),
  })
  .meta({ id: 'JsonWebKeySet', description: 'The current and previous signing keys (RFC 7517).' });

export const authorizationServerMetadata = z
  .object({
    issuer: z.url(),
    authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    jwks_uri: z.url(),
    revocation_endpoint: z.url(),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')),
    grant_types_supported: z.array(z.enum(['authorization_code', 'refresh_token'])),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(z.enum(['client_secret_basic', 'none'])),
    revocation_endpoint_auth_methods_supported: z.array(z.enum(['client_secret_basic', 'none'])),
    scopes_supported: z.array(z.enum(supportedScopes)),
    authorization_response_iss_parameter_supported: z.boolean(),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.literal('ES256')),
    claims_supported: z.array(z.string()),
    prompt_values_supported: z.array(z.enum(supportedPromptValues)),
  })
  .meta({ id: 'AuthorizationServerMetadata', description: 'RFC 8414 authorization server metadata, also served as the OpenID Connect discovery document.' });
