import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admission } from '../../functions/auth/admission.ts';
import { fromAuthorizerContext, oauthPrincipal, riderPrincipal, toAuthorizerContext, type Principal } from '../../functions/auth/principal.ts';
import { derToJoseSignature } from '../../functions/oauth/kms-custody.ts';
import { isWellFormedChallenge, s256, verifierMatches } from '../../functions/oauth/pkce.ts';
import { AUTH_TIME_LEEWAY_SECONDS, signInDemand, signInMeetsDemand } from '../../functions/oauth/prompt.ts';
import { checkRedirectUri, redirectWith, registeredRedirectUri } from '../../functions/oauth/redirect-uris.ts';
import { parseScope, scopeDescriptions } from '../../functions/oauth/scopes.ts';
import { endpoints, type EndpointDefinition } from '../../platform/endpoints.ts';

describe('redirect URI registration rules (spec 5.5)', () => {
  it.each([
    'https://rides.example/callback',
    'https://rides.example/callback?app=1',
    'https://rides.example:8443/oauth/done',
    'http://localhost:8976/callback',
    'http://127.0.0.1:8976/callback',
    'http://[::1]:8976/callback',
    'com.example.rides:/oauth',
    'com.example.rides://callback',
  ])('accepts %s', (uri) => {
    expect(() => checkRedirectUri(uri)).not.toThrow();
  });

  it.each([
    ['http://rides.example/callback', /allowed only for http:\/\/localhost/],
    ['http://localhost/callback', /explicit port/],
    ['http://localhost.rides.example:80/callback', /allowed only for http:\/\/localhost/],
    ['https://*.rides.example/callback', /wildcards/],
    ['https://rides.example/*', /wildcards/],
    ['https://rides.example/callback#done', /fragment/],
    ['https://user:pass@rides.example/callback', /user info/],
    ['myapp:/callback', /reverse-domain form/],
    ['javascript:alert(1)', /reverse-domain form/],
    ['data:text/html,hi', /reverse-domain form/],
    ['file:///etc/passwd', /reverse-domain form/],
    ['https://rides.example', /canonical form; register "https:\/\/rides.example\/"/],
    ['HTTPS://rides.example/callback', /canonical form/],
    ['https://rides.example/a/../callback', /canonical form/],
    ['/callback', /not an absolute URI/],
    [' https://rides.example/callback', /spaces/],
    ['', /1 to 2000 characters/],
  ])('refuses %s', (uri, reason) => {
    expect(() => checkRedirectUri(uri)).toThrow(reason);
  });

  it('matches requested URIs exactly, character for character', () => {
    const registered = ['http://localhost:8976/callback', 'com.example.rides:/oauth'];
    expect(registeredRedirectUri(registered, 'http://localhost:8976/callback')).toBe('http://localhost:8976/callback');
    for (const nearMiss of ['http://localhost:8976/callback/', 'http://localhost:8977/callback', 'http://localhost:8976/callback?x=1', 'http://127.0.0.1:8976/callback', 'com.example.rides:/oauth/']) {
      expect(registeredRedirectUri(registered, nearMiss)).toBeNull();
    }
  });

  it('adds response parameters to a redirect URI, keeping its own query', () => {
    expect(redirectWith('https://rides.example/cb?app=1', { code: 'a b', state: 'x&y' })).toBe('https://rides.example/cb?app=1&code=a+b&state=x%26y');
  });
});

describe('PKCE', () => {
  it('checks S256 against RFC 7636 appendix B', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifierMatches(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    // The plain method would pass the challenge itself as the verifier.
    expect(verifierMatches('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifierMatches('short', s256('short'))).toBe(false);
    expect(isWellFormedChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isWellFormedChallenge('plain-verifier')).toBe(false);
  });
});

describe('scopes', () => {
  it('knows openid, email and profile and nothing else', () => {
    expect(parseScope('openid  email openid')).toEqual({ scopes: ['openid', 'email'] });
    expect(parseScope(undefined)).toEqual({ scopes: [] });
    expect(parseScope('openid admin')).toEqual({ unknown: 'admin' });
    expect(scopeDescriptions('profile openid')).toEqual(['confirm who you are', 'see your name']);
  });
});

describe('KMS signatures', () => {
  it('turn DER-encoded ECDSA into the JWS form that verifies', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (let round = 0; round < 50; round++) {
      const message = Buffer.from(`signing input ${round}`);
      const der = sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
      const jose = derToJoseSignature(der);
      expect(jose).toHaveLength(64);
      expect(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose)).toBe(true);
    }
    expect(() => derToJoseSignature(Buffer.from([0x31, 0x00]))).toThrow(/Malformed/);
  });
});

describe('who may call what', () => {
  const definition = (overrides: Partial<EndpointDefinition>): EndpointDefinition => ({
    id: 'x',
    api: 'base',
    paths: ['/x'],
    methods: ['GET'],
    entry: 'x.ts',
    auth: 'credential',
    access: {},
    ...overrides,
  });
  const oauth = oauthPrincipal({ sub: 'rider-1', clientId: 'spc_00000000000000000000', scope: 'openid', grantId: 'g' });
  const rider = riderPrincipal('rider-1');
  const key: Principal = { kind: 'apikey', keyId: 'k', plan: 'free', source: null, limits: { perMinute: 1, perHour: 1, perDay: 1 }, rateBucket: 'key:k' };

  it('admits OAuth tokens only where the endpoint says so: 401 elsewhere on {base_url}, 403 on {app_base_url}', () => {
    expect(admission(definition({ oauthAccess: true }), oauth)).toEqual({ admit: true });
    expect(admission(definition({}), oauth)).toEqual({ admit: false, status: 401, error: 'OAuth access tokens are not accepted by this endpoint' });
    expect(admission(definition({ api: 'app', auth: 'rider' }), oauth)).toMatchObject({ admit: false, status: 403 });
  });

  it('admits rider tokens on rider endpoints and, in place of a key, on every credential endpoint; API keys on keyed endpoints only', () => {
    expect(admission(definition({ api: 'app', auth: 'rider' }), rider)).toEqual({ admit: true });
    expect(admission(definition({ api: 'app', auth: 'rider' }), key)).toMatchObject({ admit: false, status: 401 });
    expect(admission(definition({}), key)).toEqual({ admit: true });
    // Spec 5.1: a rider's session on routing and reports, whether or not OAuth tokens are also accepted there.
    expect(admission(definition({}), rider)).toEqual({ admit: true });
    expect(admission(definition({ oauthAccess: true, paths: ['/reports'], methods: ['POST'] }), rider)).toEqual({ admit: true });
  });

  it('accepts OAuth tokens on directions, multi-modal (both paths), explain-supersafe and reports, and nowhere else yet', () => {
    const accepting = endpoints.filter((candidate) => candidate.oauthAccess).flatMap((candidate) => candidate.paths);
    expect(accepting.sort()).toEqual(['/directions', '/directions/v2', '/explain-supersafe', '/multi-modal', '/multi-modal/v2', '/reports', '/reports/{id}']);
  });

  it("admits a rider's own session on the report endpoints", () => {
    for (const id of ['reports-submit', 'reports-status']) {
      expect(admission(endpoints.find((candidate) => candidate.id === id)!, rider)).toEqual({ admit: true });
    }
  });

  it('gives every authorized resource path to one endpoint only, across both APIs', () => {
    const paths = endpoints.filter((candidate) => candidate.auth !== 'public').flatMap((candidate) => candidate.paths);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('round-trips OAuth and rider principals through the authorizer context', () => {
    for (const principal of [oauth, rider]) {
      const delivered = Object.fromEntries(Object.entries(toAuthorizerContext(principal)).map(([name, value]) => [name, String(value)]));
      expect(fromAuthorizerContext(delivered)).toEqual(principal);
    }
    expect(oauth.rateBucket).toBe('oauth:spc_00000000000000000000:rider-1');
  });
});

describe('prompt and max_age (OIDC Core 3.1.2.1)', () => {
  it('reads what the request demands of the sign-in', () => {
    expect(signInDemand(undefined, undefined)).toEqual({ silent: false, fresh: false });
    expect(signInDemand('none', undefined)).toEqual({ silent: true, fresh: false });
    expect(signInDemand('login', undefined)).toEqual({ silent: false, fresh: true });
    expect(signInDemand('consent  login', '300')).toEqual({ silent: false, fresh: true, maxAgeSeconds: 300 });
    expect(signInDemand(undefined, '0')).toEqual({ silent: false, fresh: true, maxAgeSeconds: 0 });
    expect(signInDemand('consent', undefined)).toEqual({ silent: false, fresh: false });
  });

  it('says what is wrong with a demand it cannot meet or read', () => {
    expect(signInDemand('none consent', undefined)).toBe('prompt=none cannot be combined with other prompt values.');
    expect(signInDemand('select_account', undefined)).toMatch(/"select_account" is not supported \(supported: none, login, consent\)/);
    expect(signInDemand('LOGIN', undefined)).toMatch(/"LOGIN" is not supported/);
    for (const maxAge of ['-5', '1.5', '', ' 60', '1e3', '12345678901']) expect(signInDemand(undefined, maxAge), maxAge).toBe('max_age must be a whole number of seconds.');
  });

  it('judges a sign-in by its auth_time: not before a fresh one was asked for, within max_age, with the leeway for two clocks', () => {
    const opened = 1_800_000_000;
    expect(signInMeetsDemand(opened - 3_600, {}, opened)).toBe(true);
    expect(signInMeetsDemand(opened + 5, { authenticate_after: opened }, opened + 10)).toBe(true);
    expect(signInMeetsDemand(opened - AUTH_TIME_LEEWAY_SECONDS, { authenticate_after: opened }, opened)).toBe(true);
    expect(signInMeetsDemand(opened - AUTH_TIME_LEEWAY_SECONDS - 1, { authenticate_after: opened }, opened)).toBe(false);
    expect(signInMeetsDemand(opened, { max_age: 60 }, opened + 60 + AUTH_TIME_LEEWAY_SECONDS)).toBe(true);
    expect(signInMeetsDemand(opened, { max_age: 60 }, opened + 61 + AUTH_TIME_LEEWAY_SECONDS)).toBe(false);
    expect(signInMeetsDemand(opened - 7_200, { authenticate_after: opened - 7_300, max_age: 3_600 }, opened)).toBe(false);
  });
});
