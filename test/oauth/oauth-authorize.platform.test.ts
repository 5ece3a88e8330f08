import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeQuery, ConsentSession, emailCodeFromLog, later, newRider, pkce, registerApp, type TestApp } from './oauth-support.ts';
import { platform } from '../support/running-platform.ts';

/** GET /auth/v1/oauth/authorize and the consent screen's own guards, over HTTP. */

async function authorize(query: URLSearchParams | string): Promise<{ status: number; location: string | null; html: string; headers: Headers }> {
  const response = await fetch(`${platform.base_url}/auth/v1/oauth/authorize?${query}`, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
}

describe('the authorization endpoint', () => {
  let app: TestApp;
  const { challenge } = pkce();
  beforeAll(async () => {
    app = await registerApp('public', ['http://localhost:8976/callback', 'com.example.rides:/oauth']);
  });

  it('opens the consent screen for a valid request, binding it to the browser', async () => {
    const answer = await authorize(authorizeQuery(app, challenge));
    expect(answer.status).toBe(302);
    expect(answer.location).toMatch(new RegExp(`^${platform.consent_url}\\?request=[A-Za-z0-9_-]{24}$`));
    expect(answer.headers.get('set-cookie')).toMatch(/^spoke_consent_browser=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('accepts every registered redirect URI, including an app scheme', async () => {
    expect((await authorize(authorizeQuery({ ...app, redirectUri: 'com.example.rides:/oauth' }, challenge))).status).toBe(302);
  });

  it.each([
    ['an unknown client', { client_id: 'spc_00000000000000000000' }, /not registered/],
    ['a missing client_id', { client_id: undefined }, /client_id is missing/],
    ['an unregistered redirect_uri', { redirect_uri: 'https://attacker.example/callback' }, /redirect_uri is not one the app registered/],
    ['a redirect_uri with an extra slash', { redirect_uri: 'http://localhost:8976/callback/' }, /redirect_uri is not one/],
    ['a redirect_uri on another port', { redirect_uri: 'http://localhost:8977/callback' }, /redirect_uri is not one/],
    ['a redirect_uri with a query', { redirect_uri: 'http://localhost:8976/callback?next=/admin' }, /redirect_uri is not one/],
    ['a redirect_uri differing in case', { redirect_uri: 'http://localhost:8976/Callback' }, /redirect_uri is not one/],
    ['a missing redirect_uri', { redirect_uri: undefined }, /no redirect_uri/],
    ['a missing PKCE challenge', { code_challenge: undefined, code_challenge_method: undefined }, /no PKCE code_challenge/],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, /must be S256; plain is not accepted/],
    ['a challenge without its method', { code_challenge_method: undefined }, /must be S256/],
    ['a malformed challenge', { code_challenge: 'short' }, /base64url SHA-256/],
    ['response_type token', { response_type: 'token' }, /response_type must be code/],
    ['a missing state', { state: undefined }, /no state/],
    ['an unknown scope', { scope: 'openid admin' }, /scope &#34;admin&#34; is not supported/],
  ])('answers %s with an error page and never redirects', async (_case, overrides, reason) => {
    const answer = await authorize(authorizeQuery(app, challenge, overrides));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.html).toContain('This app sent a sign-in request that cannot be accepted');
    expect(answer.html).toMatch(reason);
  });

  it('refuses a parameter sent twice', async () => {
    const answer = await authorize(`${authorizeQuery(app, challenge)}&redirect_uri=${encodeURIComponent('https://attacker.example/cb')}`);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.html).toContain('Parameter redirect_uri is repeated');
  });

  it('refuses an app the operator revoked', async () => {
    const revoked = await registerApp();
    const { revokeClient } = await import('../../functions/oauth/clients.ts');
    await revokeClient(revoked.clientId);
    const answer = await authorize(authorizeQuery(revoked, challenge));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
  });

  it('serves its pages unframeable, uncached, without referrer and without scripts', async () => {
    const answer = await authorize(authorizeQuery(app, challenge, { client_id: 'spc_00000000000000000000' }));
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('escapes what it shows', async () => {
    const answer = await authorize(authorizeQuery(app, challenge, { scope: '<script>alert(1)</script>' }));
    expect(answer.html).not.toContain('<script>');
    expect(answer.html).toContain('&#60;script&#62;');
  });
});

describe('the consent screen', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await registerApp();
  });

  it("shows the app's registered name and the sign-in choices", async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    const { status, html } = await session.page();
    expect(status).toBe(200);
    expect(html).toMatch(/Sign in to continue to Test public app/);
    expect(html).toContain('Sign in with your Spoke account');
    expect(html).toContain('Email me a code');
  });

  it('refuses a request opened in another browser (no or another binding cookie)', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    for (const cookie of ['', 'spoke_consent_browser=' + 'A'.repeat(43)]) {
      const response = await fetch(session.consentUrl, { headers: { Cookie: cookie } });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('started in another browser');
    }
  });

  it('refuses a form post without the right CSRF token', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    const forged = await session.post({ action: 'cancel', csrf: 'forged-token' });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeNull();
  });

  it('will not approve before the rider signs in', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    const early = await session.post({ action: 'approve' });
    expect(early.status).toBe(400);
    expect(early.location).toBeNull();
  });

  it('cancels with access_denied, the state and iss', async () => {
    const query = authorizeQuery(app, pkce().challenge);
    const session = await new ConsentSession().start(query);
    const cancelled = await session.post({ action: 'cancel' });
    expect(cancelled.status).toBe(303);
    const redirect = new URL(cancelled.location!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(app.redirectUri);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The rider cancelled the sign-in',
      state: query.get('state'),
      iss: platform.base_url,
    });
    // Decided requests stay decided.
    expect((await session.page()).status).toBe(409);
  });

  it('expires after 3 minutes: the page says so and nothing can be approved', async () => {
    const rider = await newRider();
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    await session.signInWithIdentityProvider(rider);
    expect((await session.page(later(170))).status).toBe(200);
    const expired = await session.page(later(181));
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This sign-in request has expired');
    const approve = await session.post({ action: 'approve', csrf: 'x' }, later(181));
    expect(approve.status).toBe(410);
    expect(approve.location).toBeNull();
  });

  it('answers an unknown request with the expired page', async () => {
    const response = await fetch(`${platform.consent_url}?request=${'x'.repeat(24)}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('has expired or does not exist');
  });

  it('signs a rider in with an emailed code, and refuses a wrong code', async () => {
    const rider = await newRider();
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    expect((await session.post({ action: 'send-code', email: rider.email })).status).toBe(303);
    const { html } = await session.page();
    expect(html).toMatch(/we have sent it a sign-in code \(reference [A-Z0-9]{6}\)/);
    expect(html).not.toContain(rider.email);
    const code = await emailCodeFromLog(/reference ([A-Z0-9]{6})\)/.exec(html)![1]!);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await session.post({ action: 'verify-code', code: wrongCode });
    expect(new URL(wrong.location!).searchParams.get('notice')).toBe('wrong-code');
    expect((await session.post({ action: 'verify-code', code })).location).toBe(session.consentUrl);
    expect((await session.page()).html).toContain(`Signed in as ${rider.name} (${rider.email})`);
  });

  it('says the same for an address without an account, and sends no code', async () => {
    const session = await new ConsentSession().start(authorizeQuery(app, pkce().challenge));
    expect((await session.post({ action: 'send-code', email: 'nobody-here@riders.test' })).status).toBe(303);
    const { html } = await session.page();
    expect(html).toMatch(/If n\*+@riders\.test belongs to a Spoke account, we have sent it a sign-in code/);
    const verify = await session.post({ action: 'verify-code', code: '123456' });
    expect(new URL(verify.location!).searchParams.get('notice')).toBe('wrong-code');
  });
});
