import { createHmac, randomUUID } from 'node:crypto';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointDefinition } from '../../platform/endpoints.ts';
import { signJwt } from '../../functions/oauth/signing-keys.ts';
import { logger } from '../../platform/logger.ts';
import { directionsWith, later, passedAuthorizer, registerApp, tokensFor, type TestApp } from './oauth-support.ts';
import { call, platform, useLocalAws } from '../support/running-platform.ts';

/** Where an OAuth access token works (spec 5.5) and how the authorizer verifies it. */

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('OAuth access tokens', () => {
  let app: TestApp;
  let tokens: Awaited<ReturnType<typeof tokensFor>>;
  let claims: Record<string, unknown>;
  let kid: string;

  beforeAll(async () => {
    app = await registerApp();
    tokens = await tokensFor(app);
    claims = decodeJwt(tokens.access_token);
    kid = decodeProtectedHeader(tokens.access_token).kid!;
    // Tokens signed in this worker with the platform's own key, to vary single claims.
    useLocalAws();
    process.env.OAUTH_ISSUER = platform.base_url;
  });

  it('work on directions v2, its /directions alias, multi-modal v2 and explain-supersafe, counted in the rider\'s bucket for the app', async () => {
    for (const path of ['/directions/v2/', '/directions/', '/multi-modal/v2/', '/multi-modal/', '/explain-supersafe/']) {
      const answer = await directionsWith(tokens.access_token, {}, path);
      expect(passedAuthorizer(answer.status), `${path}: ${JSON.stringify(answer.body)}`).toBe(true);
    }
    const answer = await directionsWith(tokens.access_token);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('30');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('are accepted from any origin (CORS preflight)', async () => {
    const response = await fetch(`${platform.base_url}/directions/v2/`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://any-app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('verify with an independent RFC 9068 validator against the published JWKS', async () => {
    const issuer = new URL(platform.base_url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true }));
    const request = new Request(`${platform.base_url}/directions/v2/`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    const validated = await oauth.validateJwtAccessToken(as, request, platform.base_url, { [oauth.allowInsecureRequests]: true });
    expect(validated).toMatchObject({ sub: tokens.rider.sub, client_id: app.clientId });
  });

  it('answer 403 on the app API', async () => {
    const response = await call('/user/', { api: 'app', headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'OAuth access tokens are not accepted by this API' });
  });

  it('answer 401 on every endpoint once expired (1 hour)', async () => {
    expect(passedAuthorizer((await directionsWith(tokens.access_token, later(3590))).status)).toBe(true);
    const expired = await directionsWith(tokens.access_token, later(3601));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'The access token has expired' });
    const app = await call('/user/', { api: 'app', headers: { Authorization: `Bearer ${tokens.access_token}`, ...later(3601) } });
    expect(app.status).toBe(401);
  });

  describe('that are forged or altered', () => {
    const refused = async (token: string) => {
      const answer = await directionsWith(token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(answer.body).toEqual({ error: 'Invalid credentials' });
    };

    it('a tampered signature', async () => {
      const [header, payload, signature] = tokens.access_token.split('.');
      const flipped = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
      await refused(`${header}.${payload}.${flipped}`);
    });

    it('a tampered payload under the original signature', async () => {
      const [header, , signature] = tokens.access_token.split('.');
      await refused(`${header}.${base64url({ ...claims, sub: 'someone-else' })}.${signature}`);
    });

    it('alg: none', async () => {
      await refused(`${base64url({ alg: 'none', typ: 'at+jwt', kid })}.${base64url(claims)}.`);
    });

    it('HS256 keyed with the published public key', async () => {
      const jwks = (await (await fetch(`${platform.base_url}/auth/v1/oauth/jwks`)).json()) as { keys: Record<string, string>[] };
      const publicJwk = jwks.keys.find((key) => key.kid === kid)!;
      const input = `${base64url({ alg: 'HS256', typ: 'at+jwt', kid })}.${base64url(claims)}`;
      for (const secret of [JSON.stringify(publicJwk), publicJwk.x!]) {
        await refused(`${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`);
      }
    });

    it('a token signed by an unknown key, with an unknown kid or with the real kid', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      for (const header of [{ alg: 'ES256', typ: 'at+jwt', kid: randomUUID() }, { alg: 'ES256', typ: 'at+jwt', kid }]) {
        await refused(await new SignJWT(claims).setProtectedHeader(header).sign(privateKey));
      }
    });

    it('our key, but the wrong audience, issuer, type or a missing grant', async () => {
      const good = { ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 };
      expect(passedAuthorizer((await directionsWith(await signJwt(good, 'at+jwt'))).status)).toBe(true);
      await refused(await signJwt({ ...good, aud: 'https://some-other-api.example' }, 'at+jwt'));
      await refused(await signJwt({ ...good, gid: 'no-such-grant' }, 'at+jwt'));
      await refused(await signJwt({ ...good, gid: undefined }, 'at+jwt'));
      await refused(await signJwt(good, 'JWT'));
      // An id_token is no access token.
      await refused(tokens.id_token!);
      // Another issuer is not ours to accept at all.
      const outsider = await signJwt({ ...good, iss: 'https://issuer.example' }, 'at+jwt');
      expect((await directionsWith(outsider)).status).toBe(401);
    });

    it('a token without a kid', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      await refused(await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' }).sign(privateKey));
    });
  });

  it('answer 401 with the spec message on a {base_url} endpoint that does not accept them', async () => {
    // Every credentialed {base_url} endpoint built so far accepts the token; reports and
    // explain-supersafe arrive with their issues. The authorizer is asked directly about a
    // keys-only endpoint, with this worker's view of the definitions.
    const keysOnly: EndpointDefinition = {
      id: 'test-keys-only',
      api: 'base',
      paths: ['/test/keys-only'],
      methods: ['GET'],
      entry: 'functions/http/fallback-handler.ts',
      auth: 'credential',
      access: {},
    };
    (endpoints as EndpointDefinition[]).push(keysOnly);
    // The authorizer's refusals are logged; this worker has no platform log to write them to.
    logger.setLogLevel('SILENT');
    try {
      const { handler } = await import('../../functions/authorizer/authorizer-handler.ts');
      const ask = (resource: string, token: string) =>
        handler({
          type: 'REQUEST',
          resource,
          path: resource,
          httpMethod: 'GET',
          methodArn: `arn:aws:execute-api:us-east-1:000000000000:test/local/GET${resource}`,
          headers: { Authorization: `Bearer ${token}` },
        } as unknown as APIGatewayRequestAuthorizerEvent);
      const refusedHere = await ask('/test/keys-only', tokens.access_token);
      expect(refusedHere.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
      expect(refusedHere.context).toEqual({ error: 'OAuth access tokens are not accepted by this endpoint' });

      const accepted = await ask('/directions/v2', tokens.access_token);
      expect(accepted.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
      expect(accepted.principalId).toBe(`oauth:${app.clientId}`);
      expect(accepted.context).toMatchObject({ kind: 'oauth', clientId: app.clientId, rateBucket: `oauth:${app.clientId}:${tokens.rider.sub}` });
      // The app's usage key, so API Gateway's usage plan meters the app.
      expect(accepted.usageIdentifierKey).toMatch(/^spu_/);

      const unknownRoute = await ask('/not/an/endpoint', tokens.access_token);
      expect(unknownRoute.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    } finally {
      (endpoints as EndpointDefinition[]).splice(endpoints.indexOf(keysOnly), 1);
    }
  });
});

describe('discovery', () => {
  it('publishes RFC 8414 metadata and the OpenID configuration, read by an independent client', async () => {
    const issuer = new URL(platform.base_url);
    for (const algorithm of ['oauth2', 'oidc'] as const) {
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm, [oauth.allowInsecureRequests]: true }));
      expect(as).toMatchObject({
        issuer: platform.base_url,
        authorization_endpoint: `${platform.base_url}/auth/v1/oauth/authorize`,
        token_endpoint: `${platform.base_url}/auth/v1/oauth/token`,
        revocation_endpoint: `${platform.base_url}/auth/v1/oauth/revoke`,
        jwks_uri: `${platform.base_url}/auth/v1/oauth/jwks`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        authorization_response_iss_parameter_supported: true,
        id_token_signing_alg_values_supported: ['ES256'],
      });
    }
  });

  it('publishes only public ES256 keys with kid', async () => {
    const { keys } = (await (await fetch(`${platform.base_url}/auth/v1/oauth/jwks`)).json()) as { keys: Record<string, string>[] };
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key.kid).toBeTruthy();
      expect(key.d).toBeUndefined();
    }
  });
});
