import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { createClient, type ClientType } from '../../functions/oauth/clients.ts';
import { createRider } from '../../functions/riders/profiles.ts';
import { RIDER_APP_CLIENT_ID, RIDER_APP_REDIRECT_URI } from '../../lib/local/identity-provider.ts';
import { platform, useLocalAws } from '../support/running-platform.ts';

/**
 * Helpers for the rider-login tests: registering apps and riders, signing riders in at the local
 * identity provider, and a small cookie-keeping HTTP client that walks the consent screen's
 * forms the way a browser would (the Chromium tests drive the real page).
 */

export const APP_REDIRECT_URI = 'http://localhost:8976/callback';

/** Headers that run one request as if the clock read `seconds` later (test-only; see platform/clock.ts). */
export const later = (seconds: number): Record<string, string> => ({ 'X-Spoke-Test-Clock-Offset': String(seconds) });

export interface TestApp {
  clientId: string;
  secret?: string;
  redirectUri: string;
  type: ClientType;
}

export async function registerApp(type: ClientType = 'public', redirectUris = [APP_REDIRECT_URI]): Promise<TestApp> {
  useLocalAws();
  const { record, secret } = await createClient({ name: `Test ${type} app ${randomUUID().slice(0, 6)}`, type, redirectUris });
  return { clientId: record.client_id, ...(secret ? { secret } : {}), redirectUri: redirectUris[0]!, type };
}

export interface TestRider {
  sub: string;
  email: string;
  password: string;
  name: string;
}

/** A rider at the identity provider, with a platform profile unless `profile` is false. */
export async function newRider(options: { profile?: boolean } = {}): Promise<TestRider> {
  useLocalAws();
  const email = `rider-${randomUUID()}@riders.test`;
  const password = randomBytes(12).toString('base64url');
  const name = `Rider ${email.slice(6, 12)}`;
  const response = await fetch(`${platform.identity_provider.url}/admin/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${platform.identity_provider.admin_secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, name, password }),
  });
  expect(response.status).toBe(201);
  const { sub } = (await response.json()) as { sub: string };
  if (options.profile ?? true) await createRider({ idpUserId: sub, email, name });
  return { sub, email, password, name };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Signs in at the local identity provider's form; returns where it redirects. */
async function identityProviderSignIn(authorizeUrl: URL, rider: TestRider): Promise<string> {
  const form = new URLSearchParams(authorizeUrl.searchParams);
  form.set('email', rider.email);
  form.set('password', rider.password);
  const response = await fetch(`${authorizeUrl.origin}${authorizeUrl.pathname}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return response.headers.get('location')!;
}

/** A rider's own access token from the identity provider, as the platform's rider app gets it. */
export async function riderAccessToken(rider: TestRider): Promise<string> {
  return (await riderTokens(rider)).access_token;
}

/** The identity provider's tokens for the platform's rider app. */
export async function riderTokens(rider: TestRider): Promise<{ access_token: string; id_token: string }> {
  const { verifier, challenge } = pkce();
  const authorize = new URL(`${platform.identity_provider.url}/oauth2/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: RIDER_APP_CLIENT_ID,
    redirect_uri: RIDER_APP_REDIRECT_URI,
    scope: 'openid email',
    state: 'rider-app',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const code = new URL(await identityProviderSignIn(authorize, rider)).searchParams.get('code')!;
  const response = await fetch(`${platform.identity_provider.url}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: RIDER_APP_CLIENT_ID,
      code,
      redirect_uri: RIDER_APP_REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  return (await response.json()) as { access_token: string; id_token: string };
}

export function authorizeQuery(app: TestApp, challenge: string, overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const parameters: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    scope: 'openid email profile',
    ...overrides,
  };
  return new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The email sign-in code the local platform logged for `reference`. */
export async function emailCodeFromLog(reference: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const log = await readFile(platform.logFile, 'utf8');
    const line = log.split('\n').find((candidate) => candidate.includes('"local mail: sign-in code"') && candidate.includes(`"reference":"${reference}"`));
    if (line) return (JSON.parse(line) as { code: string }).code;
    await sleep(100);
  }
  throw new Error(`No sign-in code for reference ${reference} in the platform log`);
}

/** Walks the consent screen's forms over HTTP, keeping the browser-binding cookie like a browser. */
export class ConsentSession {
  cookie = '';
  consentUrl = '';
  requestId = '';

  /** `target`: the shared test platform unless a test started its own. */
  constructor(private readonly target: Pick<typeof platform, 'base_url' | 'consent_url'> = platform) {}

  /** Opens an authorization request; expects the authorize endpoint to send the browser to the consent screen. */
  async start(query: URLSearchParams, headers: Record<string, string> = {}): Promise<this> {
    const response = await fetch(`${this.target.base_url}/auth/v1/oauth/authorize?${query}`, {
      redirect: 'manual',
      headers: { ...headers, ...(this.cookie ? { Cookie: this.cookie } : {}) },
    });
    expect(response.status, await response.clone().text()).toBe(302);
    this.cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    this.consentUrl = response.headers.get('location')!;
    expect(this.consentUrl.startsWith(this.target.consent_url)).toBe(true);
    this.requestId = new URL(this.consentUrl).searchParams.get('request')!;
    return this;
  }

  async page(headers: Record<string, string> = {}): Promise<{ status: number; html: string }> {
    const response = await fetch(this.consentUrl, { headers: { Cookie: this.cookie, ...headers } });
    return { status: response.status, html: await response.text() };
  }

  private async csrf(): Promise<string> {
    const { html } = await this.page();
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`No consent form on the page:\n${html}`);
    return token;
  }

  /** Posts one of the page's forms; returns the answer's status and where it sends the browser. */
  async post(
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; location: string | null; html: string; headers: Headers }> {
    const csrf = fields.csrf ?? (await this.csrf());
    const response = await fetch(this.consentUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: this.cookie, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ request: this.requestId, csrf, ...fields }),
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
  }

  async signInWithIdentityProvider(rider: TestRider): Promise<void> {
    const started = await this.post({ action: 'sign-in-idp' });
    expect(started.status).toBe(303);
    const callback = await identityProviderSignIn(new URL(started.location!), rider);
    const back = await fetch(callback, { redirect: 'manual', headers: { Cookie: this.cookie } });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(this.consentUrl);
  }

  async signInWithEmail(rider: TestRider): Promise<void> {
    expect((await this.post({ action: 'send-code', email: rider.email })).status).toBe(303);
    const reference = /reference ([A-Z0-9]+)\)/.exec((await this.page()).html)![1]!;
    const verified = await this.post({ action: 'verify-code', code: await emailCodeFromLog(reference) });
    expect(verified.location).toBe(this.consentUrl);
  }

  /** Allows the app; returns the redirect to the app with `code`, `state` and `iss`. */
  async approve(headers: Record<string, string> = {}): Promise<URL> {
    const decided = await this.post({ action: 'approve' }, headers);
    expect(decided.status, decided.html).toBe(303);
    return new URL(decided.location!);
  }
}

export interface TokenCall {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs the token endpoint (or another form endpoint) with optional HTTP Basic client credentials. */
export async function postForm(
  path: string,
  fields: Record<string, string>,
  options: { basic?: [string, string]; headers?: Record<string, string> } = {},
): Promise<TokenCall> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', ...options.headers };
  if (options.basic) {
    const [id, secret] = options.basic.map((part) => encodeURIComponent(part));
    headers.Authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  }
  const response = await fetch(`${platform.base_url}${path}`, { method: 'POST', headers, body: new URLSearchParams(fields) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** Client authentication for a token request: Basic for confidential apps, client_id for public ones. */
export function clientAuth(app: TestApp): { fields: Record<string, string>; basic?: [string, string] } {
  return app.type === 'confidential' ? { fields: {}, basic: [app.clientId, app.secret!] } : { fields: { client_id: app.clientId } };
}

export interface IssuedCode {
  code: string;
  verifier: string;
  state: string;
  redirect: URL;
}

/** A rider signs in (identity provider) and approves: the code the app receives. */
export async function approvedCode(app: TestApp, rider: TestRider, scope = 'openid email profile'): Promise<IssuedCode> {
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(app, challenge, { scope });
  const session = await new ConsentSession().start(query);
  await session.signInWithIdentityProvider(rider);
  const redirect = await session.approve();
  expect(redirect.searchParams.get('state')).toBe(query.get('state'));
  return { code: redirect.searchParams.get('code')!, verifier, state: query.get('state')!, redirect };
}

export async function exchangeCode(app: TestApp, issued: IssuedCode, overrides: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<TokenCall> {
  const auth = clientAuth(app);
  return postForm(
    '/auth/v1/oauth/token',
    { grant_type: 'authorization_code', code: issued.code, redirect_uri: app.redirectUri, code_verifier: issued.verifier, ...auth.fields, ...overrides },
    { ...(auth.basic ? { basic: auth.basic } : {}), headers },
  );
}

export async function refreshTokens(app: TestApp, refreshToken: string): Promise<TokenCall> {
  const auth = clientAuth(app);
  return postForm('/auth/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, ...auth.fields }, auth.basic ? { basic: auth.basic } : {});
}

/** Tokens for a fresh rider of `app`: the whole flow over HTTP. */
export async function tokensFor(app: TestApp, rider?: TestRider): Promise<{ access_token: string; refresh_token: string; id_token?: string; rider: TestRider }> {
  const signedIn = rider ?? (await newRider());
  const exchanged = await exchangeCode(app, await approvedCode(app, signedIn));
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { ...exchanged.body, rider: signedIn };
}

/** A directions request as an app makes it with a rider's access token. */
export async function directionsWith(token: string, headers: Record<string, string> = {}, path = '/directions/v2/'): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${platform.base_url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ coordinates: [[-0.1337, 51.5246], [-0.1246, 51.5219]] }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** The answer came from past the authorizer. */
export const passedAuthorizer = (status: number): boolean => status !== 401 && status !== 403;
