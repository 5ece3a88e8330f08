import { endpoint } from '../http/endpoint.ts';
import { publishedKeys } from './signing-keys.ts';

/**
 * GET /auth/v1/oauth/jwks: the public keys of the current and previous signing keys. Cached
 * briefly by clients; a verifier meeting an unknown `kid` should fetch it again.
 */
export const handler = endpoint({ id: 'oauth-jwks' }, async () => ({
  body: { keys: await publishedKeys() },
  headers: { 'Cache-Control': 'public, max-age=60' },
}));
