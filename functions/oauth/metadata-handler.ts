import { endpoint } from '../http/endpoint.ts';
import { authorizationServerMetadata } from './metadata.ts';

/** GET /.well-known/oauth-authorization-server and /.well-known/openid-configuration. */
export const handler = endpoint({ id: 'oauth-metadata' }, async () => ({
  body: authorizationServerMetadata(),
  headers: { 'Cache-Control': 'public, max-age=3600' },
}));
