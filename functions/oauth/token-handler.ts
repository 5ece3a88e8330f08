import { endpoint } from '../http/endpoint.ts';
import { tokenResponse } from './response.ts';
import { exchange, tokenRequest } from './token-service.ts';

/** POST /auth/v1/oauth/token (spec 4.5): form-encoded; answers tokens or an RFC 6749 error, never cached. */
export const handler = endpoint({ id: 'oauth-token', body: tokenRequest, bodyFormat: 'form', oauth: true, response: tokenResponse }, async ({ body, headers }) => ({
  body: await exchange(body, headers),
}));
