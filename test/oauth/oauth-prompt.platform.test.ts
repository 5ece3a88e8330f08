import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeQuery, ConsentSession, exchangeCode, later, newRider, pkce, registerApp, type TestApp, type TestRider } from './oauth-support.ts';
import { platform } from '../support/running-platform.ts';

/**
 * `prompt` and `max_age` at the authorization endpoint (OIDC Core 3.1.2.1): silent sign-in answers
 * `login_required` once the request is otherwise valid; `prompt=login` and `max_age` make the
 * consent screen ask the identity provider for a fresh sign-in and check its `auth_time`. The
 * app's side is oauth4webapi, which checks `state` and `iss` of the redirect and `auth_time`
 * against `max_age`.
 */

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const issuer = new URL(platform.base_url);

let as: oauth.AuthorizationServer;
let app: TestApp;
let client: oauth.Client;
let rider: TestRider;

beforeAll(async () => {
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  app = await registerApp();
  client = { client_id: app.clientId, id_token_signed_response_alg: 'ES256' };
  rider = await newRider();
});

async function authorize(query: URLSearchParams, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.base_url}/auth/v1/oauth/authorize?${query}`, { redirect: 'manual', headers });
  return { status: response.status, location: response.headers.get('location'), cookie: response.headers.get('set-cookie'), html: await response.text() };
}

/** Posts "Sign in with your Spoke account" and signs in at the local identity provider's form: where the provider sends the browser back. */
async function signInAtIdentityProvider(session: ConsentSession): Promise<{ signInUrl: URL; callback: string }> {
  const started = await session.post({ action: 'sign-in-idp' });
  expect(started.status).toBe(303);
  const signInUrl = new URL(started.location!);
  const form = new URLSearchParams(signInUrl.searchParams);
  form.set('email', rider.email);
  form.set('password', rider.password);
  const signedIn = await fetch(`${signInUrl.origin}${signInUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(signedIn.status).toBe(302);
  return { signInUrl, callback: signedIn.headers.get('location')! };
}

/** The identity provider's redirect followed in the consent browser: where the consent screen sends it next. */
async function backFromIdentityProvider(session: ConsentSession, callback: string, headers: Record<string, string> = {}): Promise<string> {
  const back = await fetch(callback, { redirect: 'manual', headers: { Cookie: session.cookie, ...headers } });
  expect(back.status).toBe(302);
  return back.headers.get('location')!;
}

describe('prompt=none (silent sign-in)', () => {
  it('answers a valid request with the login_required error redirect, carrying state and iss', async () => {
    const state = oauth.generateRandomState();
    const answer = await authorize(authorizeQuery(app, pkce().challenge, { prompt: 'none', state }));
    expect(answer.status).toBe(302);
    expect(answer.cookie).toBeNull();
    const redirect = new URL(answer.location!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(app.redirectUri);
    expect([...redirect.searchParams.keys()].sort()).toEqual(['error', 'error_description', 'iss', 'state']);
    // The app's library checks state and iss (RFC 9207) and reads the error.
    let refused: unknown;
    try {
      oauth.validateAuthResponse(as, client, redirect, state);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect(refused).toMatchObject({ error: 'login_required' });
    expect((refused as oauth.AuthorizationResponseError).error_description).toMatch(/sign in/);
  });

  it.each([
    ['an unknown client', { client_id: 'spc_00000000000000000000' }, /not registered/],
    ['an unregistered redirect_uri', { redirect_uri: 'https://attacker.example/callback' }, /redirect_uri is not one the app registered/],
    ['a missing PKCE challenge', { code_challenge: undefined, code_challenge_method: undefined }, /no PKCE code_challenge/],
    ['a missing state', { state: undefined }, /no state/],
    ['an unknown scope', { scope: 'openid admin' }, /is not supported/],
  ])('still answers %s with the error page, never a redirect', async (_case, overrides, reason) => {
    const answer = await authorize(authorizeQuery(app, pkce().challenge, { prompt: 'none', ...overrides }));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.html).toMatch(reason);
  });
});

describe('prompt values and max_age the endpoint refuses', () => {
  it.each([
    ['none with another value', { prompt: 'none login' }, 'prompt=none cannot be combined with other prompt values.'],
    ['select_account', { prompt: 'select_account' }, 'The prompt value &#34;select_account&#34; is not supported (supported: none, login, consent).'],
    ['an unknown value', { prompt: 'login sideways' }, 'The prompt value &#34;sideways&#34; is not supported'],
    ['a negative max_age', { max_age: '-1' }, 'max_age must be a whole number of seconds.'],
    ['a max_age in words', { max_age: 'soon' }, 'max_age must be a whole number of seconds.'],
  ])('answers %s with the error page', async (_case, overrides, reason) => {
    const answer = await authorize(authorizeQuery(app, pkce().challenge, overrides));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.html).toContain(reason);
  });

  it('publishes the prompt values it honours in both metadata documents', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const metadata = (await (await fetch(`${platform.base_url}${path}`)).json()) as Record<string, unknown>;
      expect(metadata.prompt_values_supported, path).toEqual(['none', 'login', 'consent']);
    }
    expect(as.prompt_values_supported).toEqual(['none', 'login', 'consent']);
  });
});

describe('prompt=login and max_age (re-authentication)', () => {
  it('prompt=login asks the identity provider for a fresh sign-in, and the flow completes', async () => {
    const { verifier, challenge } = pkce();
    const query = authorizeQuery(app, challenge, { prompt: 'login consent' });
    const session = await new ConsentSession().start(query);
    const { signInUrl, callback } = await signInAtIdentityProvider(session);
    expect(signInUrl.searchParams.get('prompt')).toBe('login');
    expect(await backFromIdentityProvider(session, callback)).toBe(session.consentUrl);
    const redirect = await session.approve();
    const exchanged = await exchangeCode(app, { code: redirect.searchParams.get('code')!, verifier, state: query.get('state')!, redirect });
    expect(exchanged.status).toBe(200);
  });

  it('without prompt or max_age, the identity provider is asked for nothing more', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    const { signInUrl } = await signInAtIdentityProvider(session);
    expect(signInUrl.searchParams.has('prompt')).toBe(false);
  });

  it('max_age: a fresh sign-in at the provider, and an id_token whose auth_time the app checks against max_age', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const query = authorizeQuery(app, await oauth.calculatePKCECodeChallenge(verifier), { max_age: '600', nonce });
    const session = await new ConsentSession().start(query);
    const { signInUrl, callback } = await signInAtIdentityProvider(session);
    expect(signInUrl.searchParams.get('prompt')).toBe('login');
    expect(await backFromIdentityProvider(session, callback)).toBe(session.consentUrl);
    const parameters = oauth.validateAuthResponse(as, client, await session.approve(), query.get('state')!);
    const exchanged = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, app.redirectUri, verifier, insecure),
      { expectedNonce: nonce, requireIdToken: true, maxAge: 600 },
    );
    const claims = oauth.getValidatedIdTokenClaims(exchanged)!;
    expect(claims.sub).toBe(rider.sub);
    expect(typeof claims.auth_time).toBe('number');
  });

  it('prompt=login: an identity-provider sign-in from before the request was opened does not count', async () => {
    // The request is opened ten minutes ahead of the provider's clock, so the provider's
    // sign-in now is one made before the request: what a provider session that skipped the
    // re-authentication would report.
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge, { prompt: 'login' }), later(600));
    const { callback } = await signInAtIdentityProvider(session);
    const next = new URL(await backFromIdentityProvider(session, callback));
    expect(next.searchParams.get('notice')).toBe('idp-not-fresh');
    const html = await (await fetch(next, { headers: { Cookie: session.cookie } })).text();
    expect(html).toContain('This app asks you to sign in again now, and your Spoke account reported an earlier sign-in.');
    expect(html).not.toContain(`Signed in as ${rider.name}`);
    const early = await session.post({ action: 'approve' });
    expect(early.status).toBe(400);
    expect(early.location).toBeNull();
  });

  it('max_age: a sign-in older than max_age (and its leeway) when the provider answers does not count', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge, { max_age: '60' }));
    const { callback } = await signInAtIdentityProvider(session);
    // Back from the provider two and a half minutes after its sign-in, the request still open.
    const next = new URL(await backFromIdentityProvider(session, callback, later(150)));
    expect(next.searchParams.get('notice')).toBe('idp-not-fresh');
    expect((await session.page()).html).not.toContain(`Signed in as ${rider.name}`);
  });
});
