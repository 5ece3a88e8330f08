import { endpoint } from '../http/endpoint.ts';
import { revocationResponse } from './response.ts';
import { revocationRequest, revoke } from './revocation.ts';

/** POST /auth/v1/oauth/revoke (RFC 7009). */
export const handler = endpoint({ id: 'oauth-revoke', body: revocationRequest, bodyFormat: 'form', oauth: true, response: revocationResponse }, async ({ body, headers }) => {
  await revoke(body, headers);
  return { body: {} };
});
