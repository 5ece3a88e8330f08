import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser.ts';
import { directionsWith, emailCodeFromLog, later, newRider, passedAuthorizer, registerApp, type TestApp } from './oauth-support.ts';
import { platform } from '../support/running-platform.ts';

/**
 * Rider login as a third-party app and a rider live it: an independent OAuth client library
 * (oauth4webapi) on the app's side, the consent screen in headless Chromium on the rider's.
 */

const insecure = { [oauth.allowInsecureRequests]: true } as const;
const issuer = new URL(platform.base_url);

let context: BrowserContext;
let userDataDir: string;
let page: Page;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'spoke-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  // The apps' redirect URIs: nothing listens there, so the browser's arrival is answered here.
  await context.route(/^(http:\/\/localhost:8976\/|com\.example)/, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' }));
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
});

afterAll(async () => {
  await context?.close();
  await rm(userDataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await context.clearCookies();
  await context.setExtraHTTPHeaders({});
  page = await context.newPage();
});

interface Attempt {
  url: URL;
  state: string;
  nonce: string;
  verifier: string;
}

/** What a well-built app does at the start of every login: fresh verifier, state and nonce. */
async function startLogin(client: oauth.Client, redirectUri: string, scope = 'openid email profile'): Promise<Attempt> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { url, state, nonce, verifier };
}

async function signInAtIdentityProvider(email: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in with your Spoke account' }).click();
  await page.getByLabel('Email').fill(email);
  expect(await declaredIcon()).toBe('data:,');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href.startsWith(platform.consent_url));
}

/**
 * The page names its icon, so the browser does not ask the origin for /favicon.ico (which no API
 * serves: a 404 in the console on every page). Headless Chromium fetches no icons, so the page's
 * own declaration is what is checked.
 */
async function declaredIcon(): Promise<string | null> {
  return page.locator('head link[rel="icon"]').getAttribute('href');
}

async function heading(): Promise<string | undefined> {
  return (await page.locator('h1').textContent())?.trim();
}

async function backInTheApp(): Promise<URL> {
  await page.waitForURL((url) => url.href.startsWith('http://localhost:8976/callback'));
  return new URL(page.url());
}

describe('rider login in a browser', () => {
  it('signs in at the identity provider, approves, and the app gets working tokens (demo app and rider)', async () => {
    const client: oauth.Client = { client_id: platform.demo.oauth_client_id, id_token_signed_response_alg: 'ES256' };
    const attempt = await startLogin(client, platform.demo.oauth_redirect_uri);
    await page.goto(attempt.url.href);
    expect(await heading()).toBe('Sign in to continue to Demo Ride Planner');
    expect(await declaredIcon()).toBe('data:,');

    await signInAtIdentityProvider(platform.demo.rider_email, platform.demo.rider_password);
    expect(await heading()).toBe('Demo Ride Planner wants to use your Spoke account');
    await page.getByText('Signed in as Demo Rider (demo.rider@spoke.test).').waitFor();
    expect(await declaredIcon()).toBe('data:,');
    await page.getByRole('button', { name: 'Allow' }).click();

    // The library checks state and the RFC 9207 iss parameter.
    const parameters = oauth.validateAuthResponse(as, client, await backInTheApp(), attempt.state);
    const exchanged = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), parameters, platform.demo.oauth_redirect_uri, attempt.verifier, insecure),
      { expectedNonce: attempt.nonce, requireIdToken: true },
    );
    expect(exchanged.token_type).toBe('bearer');
    expect(exchanged.expires_in).toBe(3600);
    expect(oauth.getValidatedIdTokenClaims(exchanged)).toMatchObject({
      sub: platform.demo.rider_idp_user_id,
      email: platform.demo.rider_email,
      name: 'Demo Rider',
      nonce: attempt.nonce,
    });
    expect(passedAuthorizer((await directionsWith(exchanged.access_token)).status)).toBe(true);

    // Refresh rotates; the library sees the old token refused with invalid_grant.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), exchanged.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(exchanged.refresh_token);
    const reused = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), exchanged.refresh_token!, insecure),
    );
    await expect(reused).rejects.toMatchObject({ error: 'invalid_grant' });

    // That reuse revoked the family: the app signs the rider out, the tokens are dead anyway.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure));
    expect((await directionsWith(refreshed.access_token)).status).toBe(401);
  });

  it('signs in with a code sent by email and approves, as a confidential app', async () => {
    const app: TestApp = await registerApp('confidential');
    const rider = await newRider();
    const client: oauth.Client = { client_id: app.clientId, id_token_signed_response_alg: 'ES256' };
    const attempt = await startLogin(client, app.redirectUri, 'openid email');
    await page.goto(attempt.url.href);
    await page.getByLabel('Email address').fill(rider.email);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const notice = await page.getByText(/we have sent it a sign-in code/).textContent();
    const reference = /reference ([A-Z0-9]{6})/.exec(notice!)![1]!;
    await page.getByLabel('Code from the email').fill(await emailCodeFromLog(reference));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(`Signed in as ${rider.name} (${rider.email}).`).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();

    const parameters = oauth.validateAuthResponse(as, client, await backInTheApp(), attempt.state);
    const exchanged = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(app.secret!), parameters, app.redirectUri, attempt.verifier, insecure),
      { expectedNonce: attempt.nonce, requireIdToken: true },
    );
    expect(oauth.getValidatedIdTokenClaims(exchanged)).toMatchObject({ sub: rider.sub, email: rider.email });
    expect(oauth.getValidatedIdTokenClaims(exchanged)!.name).toBeUndefined();
  });

  it('cancels: the app hears access_denied with its state', async () => {
    const app = await registerApp();
    const client: oauth.Client = { client_id: app.clientId };
    const attempt = await startLogin(client, app.redirectUri);
    await page.goto(attempt.url.href);
    await page.getByRole('button', { name: 'Cancel' }).click();
    const back = await backInTheApp();
    expect(back.searchParams.get('state')).toBe(attempt.state);
    expect(() => oauth.validateAuthResponse(as, client, back, attempt.state)).toThrow(
      expect.objectContaining({ error: 'access_denied', error_description: 'The rider cancelled the sign-in' }),
    );
  });

  it('expires after 3 minutes: the page says so and the app never hears from it', async () => {
    const app = await registerApp();
    const rider = await newRider();
    const attempt = await startLogin({ client_id: app.clientId }, app.redirectUri);
    await page.goto(attempt.url.href);
    await signInAtIdentityProvider(rider.email, rider.password);
    await page.getByRole('button', { name: 'Allow' }).waitFor();

    await context.setExtraHTTPHeaders(later(181));
    await page.getByRole('button', { name: 'Allow' }).click();
    expect(await heading()).toBe('This sign-in request has expired');
    await page.getByText('Sign-in requests are valid for 3 minutes.', { exact: false }).waitFor();
    expect(page.url().startsWith(platform.consent_url)).toBe(true);
    await page.reload();
    expect(await heading()).toBe('This sign-in request has expired');
  });
});
