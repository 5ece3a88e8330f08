import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approvedCode,
  authorizeQuery,
  directionsWith,
  exchangeCode,
  later,
  newRider,
  passedAuthorizer,
  pkce,
  postForm,
  refreshTokens,
  registerApp,
  tokensFor,
  type TestApp,
} from './oauth-support.ts';
import { platform } from '../support/running-platform.ts';

/** POST /auth/v1/oauth/token and /auth/v1/oauth/revoke over HTTP. */

const TOKEN = '/auth/v1/oauth/token';

function expectOAuthError(call: { status: number; headers: Headers; body: any }, status: number, error: string, description?: RegExp) {
  expect(call.status, JSON.stringify(call.body)).toBe(status);
  expect(call.body.error).toBe(error);
  expect(typeof call.body.error_description).toBe('string');
  if (description) expect(call.body.error_description).toMatch(description);
  expect(call.headers.get('cache-control')).toBe('no-store');
}

describe('the authorization code grant', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await registerApp();
  });

  it('issues an ES256 access token, a refresh token and an id_token, uncached', async () => {
    const rider = await newRider();
    const exchanged = await exchangeCode(app, await approvedCode(app, rider));
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    expect(exchanged.headers.get('pragma')).toBe('no-cache');
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid email profile' });
    expect(exchanged.body.refresh_token).toMatch(/^spr_/);
    const header = decodeProtectedHeader(exchanged.body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(typeof header.kid).toBe('string');
    const claims = decodeJwt(exchanged.body.access_token);
    expect(claims).toMatchObject({ iss: platform.base_url, sub: rider.sub, aud: platform.base_url, client_id: app.clientId, scope: 'openid email profile' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(typeof claims.jti).toBe('string');
    const idToken = decodeJwt(exchanged.body.id_token);
    expect(idToken).toMatchObject({ iss: platform.base_url, sub: rider.sub, aud: app.clientId, email: rider.email, name: rider.name });
  });

  it('issues no id_token without the openid scope', async () => {
    const exchanged = await exchangeCode(app, await approvedCode(app, await newRider(), 'email'));
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.id_token).toBeUndefined();
  });

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const issued = await approvedCode(app, await newRider());
    expectOAuthError(await exchangeCode(app, issued, { code_verifier: pkce().verifier }), 400, 'invalid_grant', /code_verifier/);
    // The code was not spent by the failed attempt.
    expect((await exchangeCode(app, issued)).status).toBe(200);
  });

  it('refuses a request without code_verifier', async () => {
    const issued = await approvedCode(app, await newRider());
    expectOAuthError(await exchangeCode(app, issued, { code_verifier: '' }), 400, 'invalid_request', /code_verifier is required/);
  });

  it('never issues a code without a challenge, so a verifier cannot stand in for one', async () => {
    const response = await fetch(`${platform.base_url}/auth/v1/oauth/authorize?${authorizeQuery(app, '', { code_challenge: undefined, code_challenge_method: undefined })}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses another redirect_uri than the authorization request named', async () => {
    const issued = await approvedCode(app, await newRider());
    expectOAuthError(await exchangeCode(app, issued, { redirect_uri: 'http://localhost:8976/other' }), 400, 'invalid_grant', /redirect_uri/);
  });

  it("refuses another app's code", async () => {
    const other = await registerApp();
    const issued = await approvedCode(app, await newRider());
    expectOAuthError(await exchangeCode(other, issued, { redirect_uri: app.redirectUri }), 400, 'invalid_grant');
  });

  it('refuses an expired code (10 minutes)', async () => {
    const issued = await approvedCode(app, await newRider());
    expectOAuthError(await exchangeCode(app, issued, {}, later(601)), 400, 'invalid_grant', /expired/);
    expect((await exchangeCode(app, issued, {}, later(590))).status).toBe(200);
  });

  it('refuses a second use of a code and revokes everything issued from it', async () => {
    const issued = await approvedCode(app, await newRider());
    const first = await exchangeCode(app, issued);
    expect(first.status).toBe(200);
    expect(passedAuthorizer((await directionsWith(first.body.access_token)).status)).toBe(true);

    expectOAuthError(await exchangeCode(app, issued), 400, 'invalid_grant', /already used/);
    const afterReplay = await directionsWith(first.body.access_token);
    expect(afterReplay.status).toBe(401);
    expect(afterReplay.body).toEqual({ error: 'Invalid credentials' });
    expectOAuthError(await refreshTokens(app, first.body.refresh_token), 400, 'invalid_grant', /revoked/);
  });
});

describe('refresh tokens', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await registerApp();
  });

  it('rotate: each use returns a new one and the old one gives invalid_grant', async () => {
    const tokens = await tokensFor(app);
    const rotated = await refreshTokens(app, tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.body.access_token).not.toBe(tokens.access_token);
    expect(decodeJwt(rotated.body.access_token).sub).toBe(tokens.rider.sub);
    expect(passedAuthorizer((await directionsWith(rotated.body.access_token)).status)).toBe(true);

    expectOAuthError(await refreshTokens(app, tokens.refresh_token), 400, 'invalid_grant', /already used/);
  });

  it('reuse of a rotated token revokes the whole family', async () => {
    const tokens = await tokensFor(app);
    const rotated = (await refreshTokens(app, tokens.refresh_token)).body;
    expectOAuthError(await refreshTokens(app, tokens.refresh_token), 400, 'invalid_grant');
    // The newest refresh token and every access token of the family stop too.
    expectOAuthError(await refreshTokens(app, rotated.refresh_token), 400, 'invalid_grant', /revoked/);
    expect((await directionsWith(rotated.access_token)).status).toBe(401);
    expect((await directionsWith(tokens.access_token)).status).toBe(401);
  });

  it('may narrow the scope but never widen it', async () => {
    const exchanged = await exchangeCode(app, await approvedCode(app, await newRider(), 'openid email'));
    const widened = await postForm(TOKEN, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: app.clientId, scope: 'openid profile' });
    expectOAuthError(widened, 400, 'invalid_scope');
    const narrowed = await postForm(TOKEN, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: app.clientId, scope: 'email' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('email');
    expect(narrowed.body.id_token).toBeUndefined();
  });

  it("refuses another app's refresh token and one this platform never issued", async () => {
    const tokens = await tokensFor(app);
    const other = await registerApp();
    expectOAuthError(await refreshTokens(other, tokens.refresh_token), 400, 'invalid_grant');
    expectOAuthError(await refreshTokens(app, `${tokens.refresh_token.slice(0, -2)}xx`), 400, 'invalid_grant');
  });
});

describe('client authentication', () => {
  let confidential: TestApp;
  let issued: Awaited<ReturnType<typeof approvedCode>>;
  beforeAll(async () => {
    confidential = await registerApp('confidential');
    issued = await approvedCode(confidential, await newRider());
  });

  it('refuses a wrong client secret with 401 invalid_client', async () => {
    const call = await postForm(TOKEN, { grant_type: 'authorization_code', code: issued.code, redirect_uri: confidential.redirectUri, code_verifier: issued.verifier }, {
      basic: [confidential.clientId, `${confidential.secret}x`],
    });
    expectOAuthError(call, 401, 'invalid_client');
    expect(call.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('refuses a confidential app that sends only its client_id, or its secret in the body', async () => {
    const fields = { grant_type: 'authorization_code', code: issued.code, redirect_uri: confidential.redirectUri, code_verifier: issued.verifier, client_id: confidential.clientId };
    expectOAuthError(await postForm(TOKEN, fields), 401, 'invalid_client', /HTTP Basic/);
    expectOAuthError(await postForm(TOKEN, { ...fields, client_secret: confidential.secret! }), 401, 'invalid_client', /HTTP Basic/);
  });

  it('accepts the right secret with HTTP Basic', async () => {
    expect((await exchangeCode(confidential, issued)).status).toBe(200);
  });

  it('refuses an unknown client and a request naming no client', async () => {
    expectOAuthError(await postForm(TOKEN, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'spc_00000000000000000000' }), 401, 'invalid_client');
    expectOAuthError(await postForm(TOKEN, { grant_type: 'refresh_token', refresh_token: 'x' }), 401, 'invalid_client');
  });

  it('refuses a public app that presents a secret', async () => {
    const app = await registerApp();
    expectOAuthError(await postForm(TOKEN, { grant_type: 'refresh_token', refresh_token: 'x' }, { basic: [app.clientId, 'invented'] }), 401, 'invalid_client');
  });
});

describe('malformed token requests', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await registerApp();
  });

  it('answers an unknown grant type with unsupported_grant_type and forbidden ones with unauthorized_client', async () => {
    expectOAuthError(await postForm(TOKEN, { grant_type: 'urn:example:magic', client_id: app.clientId }), 400, 'unsupported_grant_type');
    expectOAuthError(await postForm(TOKEN, { grant_type: 'password', client_id: app.clientId, username: 'a', password: 'b' }), 400, 'unauthorized_client');
    expectOAuthError(await postForm(TOKEN, { grant_type: 'client_credentials', client_id: app.clientId }), 400, 'unauthorized_client');
  });

  it('answers a missing grant_type, a JSON body and a repeated parameter with invalid_request', async () => {
    expectOAuthError(await postForm(TOKEN, { client_id: app.clientId }), 400, 'invalid_request', /grant_type/);
    const json = await fetch(`${platform.base_url}${TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', client_id: app.clientId }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    const repeated = await fetch(`${platform.base_url}${TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&client_id=${app.clientId}&client_id=${app.clientId}`,
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toEqual({ error: 'invalid_request', error_description: 'Parameter client_id is repeated' });
  });

  it('answers GET with 405', async () => {
    const response = await fetch(`${platform.base_url}${TOKEN}`);
    expect(response.status).toBe(405);
  });
});

describe('token revocation (RFC 7009)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await registerApp();
  });

  it('revoking a refresh token stops the refresh token and the access tokens of its grant', async () => {
    const tokens = await tokensFor(app);
    const revoked = await postForm('/auth/v1/oauth/revoke', { token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: app.clientId });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('cache-control')).toBe('no-store');
    expectOAuthError(await refreshTokens(app, tokens.refresh_token), 400, 'invalid_grant');
    expect((await directionsWith(tokens.access_token)).status).toBe(401);
  });

  it('revoking an access token revokes its grant', async () => {
    const tokens = await tokensFor(app);
    expect((await postForm('/auth/v1/oauth/revoke', { token: tokens.access_token, client_id: app.clientId })).status).toBe(200);
    expect((await directionsWith(tokens.access_token)).status).toBe(401);
    expectOAuthError(await refreshTokens(app, tokens.refresh_token), 400, 'invalid_grant');
  });

  it("answers 200 for unknown tokens and another app's tokens, changing nothing", async () => {
    const tokens = await tokensFor(app);
    const other = await registerApp();
    expect((await postForm('/auth/v1/oauth/revoke', { token: 'not-a-token', client_id: app.clientId })).status).toBe(200);
    expect((await postForm('/auth/v1/oauth/revoke', { token: tokens.refresh_token, client_id: other.clientId })).status).toBe(200);
    expect((await refreshTokens(app, tokens.refresh_token)).status).toBe(200);
  });

  it('refuses an unauthenticated caller', async () => {
    expectOAuthError(await postForm('/auth/v1/oauth/revoke', { token: 'x' }), 401, 'invalid_client');
  });
});
