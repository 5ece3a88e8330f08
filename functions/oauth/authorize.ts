import { z } from 'zod';
import { beyondTheSpec } from '../http/schema-meta.ts';
import { nowSeconds } from '../../platform/clock.ts';
import { DomainError } from '../../platform/errors.ts';
import { createAuthorizationRequest, type AuthorizationRequestRecord } from './authorization-requests.ts';
import { getActiveClient } from './clients.ts';
import { issuer } from './config.ts';
import { isWellFormedChallenge } from './pkce.ts';
import { signInDemand, supportedPromptValues } from './prompt.ts';
import { redirectWith, registeredRedirectUri } from './redirect-uris.ts';
import { parseScope } from './scopes.ts';

/**
 * The authorization endpoint's checks (spec 4.5, RFC 6749 4.1.1, RFC 7636, RFC 9700, OIDC Core
 * 3.1.2.1). Every problem with the request itself is answered by the endpoint with an error page
 * and never by a redirect (spec 7): a redirect would go to an address we cannot yet trust, or tell
 * an app something a well-built app never needs to hear. The one redirect that is not a consent
 * screen answers a well-formed request with `prompt=none` (functions/oauth/prompt.ts).
 */

const MAX_STATE_LENGTH = 512;

/** Parameters as sent; each is checked below with a message for the app's developer. */
export const authorizeQuery = z.object({
  response_type: z.string().optional(),
  client_id: z.string().max(200).optional(),
  redirect_uri: z.string().max(2_000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(MAX_STATE_LENGTH).optional(),
  scope: z.string().max(500).optional(),
  nonce: z.string().max(MAX_STATE_LENGTH).optional(),
  prompt: z
    .string()
    .max(100)
    .optional()
    .meta({
      description:
        `OpenID Connect's \`prompt\`, space-separated (${supportedPromptValues.join(', ')}): \`none\` answers the \`login_required\` error redirect once the rest of the request passes ` +
        '(this server keeps no sign-in session, so it can never answer without a page); `login` has the rider sign in afresh at the identity provider; ' +
        '`consent` is what always happens. Any other value gets the error page.',
      param: { ...beyondTheSpec },
    }),
  max_age: z
    .string()
    .max(20)
    .optional()
    .meta({
      description: "OpenID Connect's `max_age`, whole seconds: the rider's identity-provider sign-in may be at most this old (`0`: a sign-in after this request), as its `auth_time` shows.",
      param: { ...beyondTheSpec },
    }),
});
export type AuthorizeQuery = z.output<typeof authorizeQuery>;

/** A request the endpoint refuses; the page shows the reason under one title, for the app's developer. */
export class AuthorizeRefusal extends DomainError {
  constructor(readonly reason: string) {
    super('invalid', 'This app sent a sign-in request that cannot be accepted', reason);
  }
}

/** A request the endpoint accepts: the consent screen to open, or (prompt=none) the error redirect to the app. */
export type AuthorizeOutcome = { consent: AuthorizationRequestRecord } | { redirectTo: string };

export async function openAuthorizationRequest(query: AuthorizeQuery, browserSecret: string): Promise<AuthorizeOutcome> {
  if (!query.client_id) throw new AuthorizeRefusal('The request names no app (client_id is missing).');
  const client = await getActiveClient(query.client_id);
  if (!client) throw new AuthorizeRefusal('The app (client_id) is not registered with this service, or its registration was revoked.');
  if (!query.redirect_uri) throw new AuthorizeRefusal('The request has no redirect_uri.');
  const redirectUri = registeredRedirectUri(client.redirect_uris, query.redirect_uri);
  if (!redirectUri) throw new AuthorizeRefusal('The redirect_uri is not one the app registered. Redirect URIs must match exactly.');
  if (query.response_type !== 'code') throw new AuthorizeRefusal('response_type must be code.');
  if (!query.code_challenge) throw new AuthorizeRefusal('The request has no PKCE code_challenge; it is required.');
  if (query.code_challenge_method !== 'S256') throw new AuthorizeRefusal('code_challenge_method must be S256; plain is not accepted.');
  if (!isWellFormedChallenge(query.code_challenge)) throw new AuthorizeRefusal('code_challenge must be the base64url SHA-256 of the code verifier (43 characters).');
  if (!query.state) throw new AuthorizeRefusal('The request has no state; send a fresh random state with every request.');
  const scope = parseScope(query.scope);
  if ('unknown' in scope) throw new AuthorizeRefusal(`The scope ${JSON.stringify(scope.unknown)} is not supported (supported: openid, email, profile).`);
  const demand = signInDemand(query.prompt, query.max_age);
  if (typeof demand === 'string') throw new AuthorizeRefusal(demand);
  if (demand.silent) {
    return {
      redirectTo: redirectWith(redirectUri, {
        error: 'login_required',
        error_description: 'The rider has to sign in: this server keeps no sign-in session, so it cannot answer without showing a page',
        state: query.state,
        iss: issuer(),
      }),
    };
  }
  const consent = await createAuthorizationRequest({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: query.code_challenge,
    state: query.state,
    scope: 'scopes' in scope ? scope.scopes.join(' ') : '',
    ...(query.nonce ? { nonce: query.nonce } : {}),
    ...(demand.fresh ? { authenticate_after: nowSeconds() } : {}),
    ...(demand.maxAgeSeconds !== undefined ? { max_age: demand.maxAgeSeconds } : {}),
    browserSecret,
  });
  return { consent };
}
