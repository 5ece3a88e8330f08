import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  approvedCode,
  authorizeQuery,
  directionsWith,
  exchangeCode,
  later,
  newRider,
  pkce,
  refreshTokens,
  registerApp,
  tokensFor,
  type TestApp,
} from './oauth-support.ts';
import { platform, runAdmin } from '../support/running-platform.ts';

/** The operator CLI's OAuth commands (spec 5.5), run against the running local platform. */

const admin = (...args: string[]) => runAdmin(args);

async function createApp(type: 'public' | 'confidential', ...redirectUris: string[]): Promise<TestApp & { output: string }> {
  const created = await admin('clients', 'create', '--name', `CLI ${type} app`, '--type', type, ...redirectUris.flatMap((uri) => ['--redirect-uri', uri]));
  expect(created.code, created.stderr).toBe(0);
  const clientId = /client_id: (spc_[0-9a-f]{20})/.exec(created.stdout)![1]!;
  const secret = /client_secret \(shown once; only its hash is stored\): (spcs_\S+)/.exec(created.stdout)?.[1];
  return { clientId, ...(secret ? { secret } : {}), redirectUri: redirectUris[0]!, type, output: created.stdout };
}

const authorizeStatus = async (app: TestApp, redirectUri: string) =>
  (await fetch(`${platform.base_url}/auth/v1/oauth/authorize?${authorizeQuery({ ...app, redirectUri }, pkce().challenge)}`, { redirect: 'manual' })).status;

// Each test has its own app; they run side by side to share the CLI's start-up time.
describe.concurrent('operator CLI: OAuth apps', () => {
  it('registers an app, shows its secret once, and lists it without secrets or hashes', async () => {
    const app = await createApp('confidential', 'https://rides.example/callback', 'com.example.rides:/oauth');
    expect(app.secret).toMatch(/^spcs_/);
    const listed = await admin('clients', 'list');
    expect(listed.stdout).toMatch(new RegExp(`${app.clientId}\\s+active\\s+confidential`));
    expect(listed.stdout).toContain('https://rides.example/callback com.example.rides:/oauth');
    expect(listed.stdout).not.toContain(app.secret!);
    expect(`${listed.stdout}${app.output}`).not.toMatch(/[0-9a-f]{64}/);
  });

  it('refuses to register a redirect URI that breaks the rules (all rules: test/oauth/oauth.test.ts)', async () => {
    const refused = await admin('clients', 'create', '--name', 'Bad URIs', '--type', 'public', '--redirect-uri', 'https://*.rides.example/callback');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/must not contain spaces or wildcards/);
  });

  it('replaces redirect URIs, effective for the next request', async () => {
    const app = await registerApp('public', ['http://localhost:8976/callback']);
    expect(await authorizeStatus(app, 'http://localhost:8976/callback')).toBe(302);
    const updated = await admin('clients', 'update-redirects', app.clientId, '--redirect-uri', 'https://rides.example/new');
    expect(updated.code, updated.stderr).toBe(0);
    expect(await authorizeStatus(app, 'http://localhost:8976/callback')).toBe(400);
    expect(await authorizeStatus(app, 'https://rides.example/new')).toBe(302);
  });

  it('rotates a secret: the old one stops at once, the new one works', async () => {
    const app = await registerApp('confidential');
    const issued = await approvedCode(app, await newRider());
    const rotated = await admin('clients', 'rotate-secret', app.clientId);
    expect(rotated.code, rotated.stderr).toBe(0);
    const secret = /client_secret \(shown once; the old one no longer works\): (spcs_\S+)/.exec(rotated.stdout)![1]!;
    expect((await exchangeCode(app, issued)).body.error).toBe('invalid_client');
    expect((await exchangeCode({ ...app, secret }, issued)).status).toBe(200);
  });

  it('rotates a secret and, when asked, revokes every rider grant of the app', async () => {
    const app = await registerApp('confidential');
    const tokens = await tokensFor(app);
    const rotated = await admin('clients', 'rotate-secret', app.clientId, '--revoke-grants');
    expect(rotated.stdout).toContain('Revoked 1 rider grants');
    const secret = /client_secret \(shown once; the old one no longer works\): (spcs_\S+)/.exec(rotated.stdout)![1]!;
    expect((await refreshTokens({ ...app, secret }, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await directionsWith(tokens.access_token)).status).toBe(401);
  });

  it('revokes an app for all riders: refresh tokens stop at once, and so do access tokens', async () => {
    const app = await registerApp();
    const first = await tokensFor(app);
    const second = await tokensFor(app);
    const revoked = await admin('clients', 'revoke', app.clientId);
    expect(revoked.stdout).toContain(`Revoked ${app.clientId} for every rider (2 grants)`);
    for (const tokens of [first, second]) {
      expect((await refreshTokens(app, tokens.refresh_token)).status).toBe(401);
      expect((await directionsWith(tokens.access_token)).status).toBe(401);
    }
    expect(await authorizeStatus(app, app.redirectUri)).toBe(400);
  });
});

describe('operator CLI: signing keys', () => {
  it('rotates: both keys are published, old tokens keep working, new tokens use the new key after its lead time', async () => {
    const app = await registerApp();
    const before = await tokensFor(app);
    const oldKid = decodeProtectedHeader(before.access_token).kid;

    const rotated = await admin('signing-keys', 'rotate');
    expect(rotated.code, rotated.stderr).toBe(0);
    const newKid = /New current signing key (\S+);/.exec(rotated.stdout)![1]!;
    const { keys } = (await (await fetch(`${platform.base_url}/auth/v1/oauth/jwks`)).json()) as { keys: { kid: string }[] };
    expect(keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    expect((await admin('signing-keys', 'list')).stdout).toMatch(new RegExp(`${newKid}\\s+current[\\s\\S]*${oldKid}\\s+previous`));

    expect((await directionsWith(before.access_token)).status).not.toBe(401);
    // A new key is published a minute before it signs, so no verifier meets it unannounced.
    const soon = await refreshTokens(app, before.refresh_token);
    expect(decodeProtectedHeader(soon.body.access_token).kid).toBe(oldKid);
    const issued = await approvedCode(app, await newRider());
    const afterLead = await exchangeCode(app, issued, {}, later(62));
    expect(decodeProtectedHeader(afterLead.body.access_token).kid).toBe(newKid);
    expect((await directionsWith(afterLead.body.access_token, later(62))).status).not.toBe(401);
  });
});
