import { endpoint } from '../http/endpoint.ts';
import { authorizationServerMetadata } from './metadata.ts';
import { authorizationServerMetadata as metadataSchema } from './response.ts';

/** GET /.well-known/oauth-authorization-server and /.well-known/openid-configuration. */
export const handler = endpoint({ id: 'oauth-metadata', response: metadataSchema }, async () => ({
  body: authorizationServerMetadata(),
  headers: { 'Cache-Control': 'public, max-age=3600' },
}));
