import { endpoint, type ApiHandler } from '../http/endpoint.ts';
import { issuer } from '../oauth/config.ts';
import type { ApiName } from '../../platform/endpoints.ts';
import { identityProviderEndpoints } from '../riders/identity-provider-client.ts';
import { openApiDocument, type OpenApiDocument } from './document.ts';
import { openApiDocumentSchema } from './operations.ts';

/**
 * GET {base_url}/openapi.json and {app_base_url}/openapi.json: the API's OpenAPI document for this
 * deployment (servers, the authorization server's and the identity provider's URLs), public and
 * cacheable. Built once per container and address.
 */

const CACHE_SECONDS = 300;
const built = new Map<string, OpenApiDocument>();

export function openApiHandler(api: ApiName): ApiHandler {
  return endpoint({ id: `openapi-${api}`, response: openApiDocumentSchema }, async ({ baseUrl }) => {
    const environment = {
      baseUrl: api === 'base' ? issuer() : '',
      appBaseUrl: api === 'app' ? baseUrl : '',
      identityProvider: identityProviderEndpoints(),
    };
    const key = JSON.stringify(environment);
    let document = built.get(key);
    if (!document) {
      document = openApiDocument(api, environment);
      built.set(key, document);
    }
    return { body: document, headers: { 'Cache-Control': `public, max-age=${CACHE_SECONDS}` } };
  });
}
