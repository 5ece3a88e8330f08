import { describe, expect, it } from 'vitest';
import { platform } from '../support/running-platform.ts';

/** `GET /openapi.json` on both APIs: public, cacheable, and about this deployment. */
describe('GET /openapi.json', () => {
  it.each([
    ['base', platform.base_url, '{base_url}'],
    ['app', platform.app_base_url, '{app_base_url}'],
  ])('on the %s API answers its OpenAPI 3.1 document without credentials, cacheable, with its own address', async (_, baseUrl, name) => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const document = (await response.json()) as { openapi: string; servers: { url: string; description: string }[]; info: { version: string } };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: baseUrl, description: name }]);
    expect(document.info.version).toMatch(/^[0-9a-f]{12}$/);
  });

  it("names this platform's authorization server and identity provider in the OAuth flows", async () => {
    const schemes = async (baseUrl: string) =>
      ((await (await fetch(`${baseUrl}/openapi.json`)).json()) as { components: { securitySchemes: Record<string, { flows?: { authorizationCode: { authorizationUrl: string; tokenUrl: string } } }> } })
        .components.securitySchemes;
    const metadata = (await (await fetch(`${platform.base_url}/.well-known/oauth-authorization-server`)).json()) as { authorization_endpoint: string; token_endpoint: string };
    expect((await schemes(platform.base_url)).thirdPartyApp!.flows!.authorizationCode).toMatchObject({
      authorizationUrl: metadata.authorization_endpoint,
      tokenUrl: metadata.token_endpoint,
    });
    expect((await schemes(platform.app_base_url)).riderSignIn!.flows!.authorizationCode).toMatchObject({
      authorizationUrl: `${platform.identity_provider.url}/oauth2/authorize`,
      tokenUrl: `${platform.identity_provider.url}/oauth2/token`,
    });
  });

  it('answers other methods 405, as the document says of every path', async () => {
    const response = await fetch(`${platform.base_url}/openapi.json`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });

  it('describes the endpoints the other tests reach only through a browser or not at all, as they answer', async () => {
    // Each answer is held to the document by contract-setup.ts; here, that they are what they are.
    const discovery = await fetch(`${platform.base_url}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(await discovery.json()).toEqual(await (await fetch(`${platform.base_url}/.well-known/oauth-authorization-server`)).json());
    const callback = await fetch(`${platform.base_url}/auth/v1/consent/idp-callback?state=unknown&code=x`, { redirect: 'manual' });
    expect(callback.status).toBe(400);
    expect(callback.headers.get('content-type')).toMatch(/^text\/html/);
    const authorize = await fetch(`${platform.base_url}/auth/v1/oauth/authorize`, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
  });
});
