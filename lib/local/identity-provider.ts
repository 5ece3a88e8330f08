import { createHash, randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { escapeHtml, NO_PAGE_ICON } from '../../functions/oauth/views.ts';

/**
 * The local identity provider: what Amazon Cognito is to the platform in AWS. An OpenID Connect
 * provider with a sign-in form, the authorization code flow with PKCE, a token endpoint, and a
 * JWKS, on its own loopback port. Its tokens have Cognito's shapes (RS256; access tokens with
 * `token_use: "access"` and `client_id`, id tokens with `token_use: "id"` and `aud`), so the
 * platform verifies them with the same code it uses for Cognito (functions/riders/identity-provider-client.ts).
 *
 * Users and the signing key live under `<state dir>/identity-provider/` (passwords as scrypt
 * hashes). Admin endpoints, guarded by a secret written to the local platform's info file, do
 * what Cognito's admin API does for the operator: create users (AdminCreateUser), list them
 * (ListUsers) and put them in or out of a group (AdminAddUserToGroup, AdminRemoveUserFromGroup);
 * a user's groups are in their tokens' `cognito:groups`, as in Cognito; and sign a user in for
 * an app client without the form (AdminInitiateAuth), for the operator CLI's
 * `riders token <email>`, so that a rider's endpoints can be tried with curl. The platform's own
 * code never calls them. Like a Cognito user pool, it runs a post-authentication trigger on every
 * sign-in (`onSignIn`), the admin one included; when the trigger fails, so does the sign-in.
 */

export const CONSENT_CLIENT_ID = 'spoke-consent';
export const RIDER_APP_CLIENT_ID = 'spoke-rider-app';
/** Where the local rider app would receive its code; tests read the code from the redirect. */
export const RIDER_APP_REDIRECT_URI = 'http://localhost:8977/rider-app/callback';

const TOKEN_SECONDS = 3_600;
/**
 * What a browser app may read from another origin, as from Cognito's hosted endpoints: the code
 * exchange of a single-page app (the playground) and the documents that verify its tokens.
 */
const CROSS_ORIGIN_ROUTES = new Set(['POST /oauth2/token', 'GET /.well-known/openid-configuration', 'GET /.well-known/jwks.json']);
const CODE_SECONDS = 300;

interface StoredUser {
  sub: string;
  email: string;
  name: string;
  password_hash: string;
  groups?: string[];
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce?: string;
  scope: string;
  sub: string;
  authTime: number;
  expiresAt: number;
}

export interface LocalUser {
  sub: string;
  email: string;
  name: string;
  groups: string[];
}

/** Called after every successful sign-in, before a code is issued (Cognito's PostAuthentication trigger). */
export type SignInTrigger = (user: LocalUser) => Promise<void>;

const GROUP_PATTERN = /^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u;

const localUser = (user: StoredUser): LocalUser => ({ sub: user.sub, email: user.email, name: user.name, groups: user.groups ?? [] });

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('base64url')}:${scryptSync(password, salt, 32).toString('base64url')}`;
}

function passwordMatches(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body, or null when the body is not one (the admin API answers 400). */
async function readJsonObject(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  try {
    const parsed: unknown = JSON.parse(await readBody(request));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Cache-Control': 'no-store', ...headers });
  response.end(body);
}

const sendJson = (response: ServerResponse, status: number, body: unknown) =>
  send(response, status, JSON.stringify(body), { 'Content-Type': 'application/json' });

function signInPage(parameters: URLSearchParams, error?: string): string {
  const hidden = [...parameters]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in · Spoke accounts (local)</title>${NO_PAGE_ICON}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:24rem;margin:3rem auto}label{display:block;margin-top:.8rem}input{width:100%;padding:.4rem}button{margin-top:1rem;padding:.5rem 1rem}</style>
</head><body>
<h1>Spoke accounts</h1>
<p>Local identity provider: sign in as a demo rider.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button>Sign in</button>
</form>
</body></html>
`;
}

export class LocalIdentityProvider {
  private readonly directory: string;
  private users: StoredUser[] = [];
  private readonly codes = new Map<string, PendingCode>();
  private readonly clients = new Map<string, readonly string[]>();
  private userWrites: Promise<void> = Promise.resolve();
  private signingKey!: { kid: string; privateJwk: JWK; publicJwk: JWK };
  private url = '';
  private signInTrigger: SignInTrigger | undefined;

  constructor(
    stateDir: string,
    /** Guards the admin endpoint; the local platform writes it to its info file. */
    readonly adminSecret: string,
  ) {
    this.directory = join(stateDir, 'identity-provider');
  }

  get issuer(): string {
    return this.url;
  }

  async load(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    try {
      this.users = JSON.parse(await readFile(join(this.directory, 'users.json'), 'utf8')) as StoredUser[];
    } catch {
      this.users = [];
    }
    const keyFile = join(this.directory, 'signing-key.json');
    try {
      this.signingKey = JSON.parse(await readFile(keyFile, 'utf8')) as typeof this.signingKey;
    } catch {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      this.signingKey = { kid: randomUUID(), privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
      await writeFile(keyFile, JSON.stringify(this.signingKey), { mode: 0o600 });
    }
  }

  /** Called once the listener has its address: the issuer is the provider's own URL. */
  setUrl(url: string): void {
    this.url = url;
  }

  /** The post-authentication trigger, run on every sign-in. */
  onSignIn(trigger: SignInTrigger): void {
    this.signInTrigger = trigger;
  }

  /** Registers an app client (public, PKCE) and the redirect URIs it may use. */
  allowClient(clientId: string, redirectUris: readonly string[]): void {
    this.clients.set(clientId, redirectUris);
  }

  checkPassword(email: string, password: string): LocalUser | null {
    const user = this.users.find((candidate) => candidate.email === email.trim().toLowerCase());
    return user && passwordMatches(password, user.password_hash) ? localUser(user) : null;
  }

  findUser(email: string): LocalUser | null {
    const user = this.users.find((candidate) => candidate.email === email.trim().toLowerCase());
    return user ? localUser(user) : null;
  }

  listUsers(): LocalUser[] {
    return this.users.map(localUser);
  }

  /** Puts a user in a group or takes them out; tokens issued from then on say so. Null for an unknown user. */
  async setGroupMembership(email: string, group: string, member: boolean): Promise<LocalUser | null> {
    const user = this.users.find((candidate) => candidate.email === email.trim().toLowerCase());
    if (!user) return null;
    const groups = new Set(user.groups ?? []);
    if (member) groups.add(group);
    else groups.delete(group);
    const updated: StoredUser = { ...user, groups: [...groups].sort() };
    this.users = this.users.map((candidate) => (candidate === user ? updated : candidate));
    await this.persistUsers();
    return localUser(updated);
  }

  /** Creates a user, or sets the password and name of an existing one. */
  async saveUser(input: { email: string; name: string; password: string }): Promise<LocalUser> {
    const email = input.email.trim().toLowerCase();
    const existing = this.users.find((candidate) => candidate.email === email);
    const user: StoredUser = {
      sub: existing?.sub ?? randomUUID(),
      email,
      name: input.name,
      password_hash: hashPassword(input.password),
      ...(existing?.groups?.length ? { groups: existing.groups } : {}),
    };
    this.users = [...this.users.filter((candidate) => candidate.email !== email), user];
    await this.persistUsers();
    return localUser(user);
  }

  /** Writes the user file atomically, one write at a time (concurrent saves would race on the temporary file). */
  private persistUsers(): Promise<void> {
    const file = join(this.directory, 'users.json');
    const write = async () => {
      await writeFile(`${file}.tmp`, JSON.stringify(this.users, null, 2), { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    };
    this.userWrites = this.userWrites.then(write, write);
    return this.userWrites;
  }

  readonly listener = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const url = new URL(request.url ?? '/', this.url);
      const route = `${request.method} ${url.pathname}`;
      if (CROSS_ORIGIN_ROUTES.has(route)) response.setHeader('Access-Control-Allow-Origin', '*');
      switch (route) {
        case 'GET /.well-known/openid-configuration':
          return sendJson(response, 200, this.discovery());
        case 'GET /.well-known/jwks.json':
          return sendJson(response, 200, { keys: [{ ...this.signingKey.publicJwk, kid: this.signingKey.kid, alg: 'RS256', use: 'sig' }] });
        case 'GET /oauth2/authorize':
          return this.showSignIn(url.searchParams, response);
        case 'POST /oauth2/authorize':
          return await this.signIn(new URLSearchParams(await readBody(request)), response);
        case 'POST /oauth2/token':
          return await this.token(new URLSearchParams(await readBody(request)), response);
        case 'POST /admin/users':
          return await this.adminCreateUser(request, response);
        case 'GET /admin/users':
          if (this.adminAuthorized(request, response)) sendJson(response, 200, { users: this.listUsers() });
          return;
        case 'POST /admin/group-membership':
          return await this.adminGroupMembership(request, response);
        case 'POST /admin/initiate-auth':
          return await this.adminInitiateAuth(request, response);
        default:
          return sendJson(response, 404, { error: 'not_found' });
      }
    } catch {
      if (!response.headersSent) sendJson(response, 500, { error: 'server_error' });
    }
  };

  private discovery() {
    return {
      issuer: this.url,
      authorization_endpoint: `${this.url}/oauth2/authorize`,
      token_endpoint: `${this.url}/oauth2/token`,
      jwks_uri: `${this.url}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
    };
  }

  /** The authorization request's own problems, checked before anything is shown. */
  private requestProblem(parameters: URLSearchParams): string | null {
    const redirectUris = this.clients.get(parameters.get('client_id') ?? '');
    if (!redirectUris) return 'unknown client_id';
    if (!redirectUris.includes(parameters.get('redirect_uri') ?? '')) return 'redirect_uri not registered';
    if (parameters.get('response_type') !== 'code') return 'response_type must be code';
    if (parameters.get('code_challenge_method') !== 'S256' || !parameters.get('code_challenge')) return 'PKCE S256 required';
    return null;
  }

  private showSignIn(parameters: URLSearchParams, response: ServerResponse): void {
    const problem = this.requestProblem(parameters);
    if (problem) return send(response, 400, `Invalid request: ${escapeHtml(problem)}`, { 'Content-Type': 'text/plain' });
    send(response, 200, signInPage(parameters), { 'Content-Type': 'text/html; charset=utf-8', 'X-Frame-Options': 'DENY' });
  }

  private async signIn(form: URLSearchParams, response: ServerResponse): Promise<void> {
    const email = form.get('email') ?? '';
    const password = form.get('password') ?? '';
    form.delete('email');
    form.delete('password');
    const problem = this.requestProblem(form);
    if (problem) return send(response, 400, `Invalid request: ${escapeHtml(problem)}`, { 'Content-Type': 'text/plain' });
    const user = this.checkPassword(email, password);
    if (!user) {
      return send(response, 401, signInPage(form, 'Incorrect email or password.'), { 'Content-Type': 'text/html; charset=utf-8' });
    }
    if (!(await this.runSignInTrigger(user))) {
      // Cognito answers a failing trigger with "PostAuthentication failed with error ..." and no tokens.
      return send(response, 500, signInPage(form, 'Sign-in failed: the post-authentication trigger failed. Try again.'), {
        'Content-Type': 'text/html; charset=utf-8',
      });
    }
    const code = randomBytes(24).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    this.codes.set(code, {
      clientId: form.get('client_id')!,
      redirectUri: form.get('redirect_uri')!,
      codeChallenge: form.get('code_challenge')!,
      ...(form.get('nonce') ? { nonce: form.get('nonce')! } : {}),
      scope: form.get('scope') ?? 'openid',
      sub: user.sub,
      authTime: now,
      expiresAt: now + CODE_SECONDS,
    });
    const target = new URL(form.get('redirect_uri')!);
    target.searchParams.set('code', code);
    if (form.get('state')) target.searchParams.set('state', form.get('state')!);
    send(response, 302, '', { Location: target.href });
  }

  /** Runs the post-authentication trigger, if any; false when it failed. */
  private async runSignInTrigger(user: LocalUser): Promise<boolean> {
    if (!this.signInTrigger) return true;
    try {
      await this.signInTrigger(user);
      return true;
    } catch {
      return false;
    }
  }

  private async token(form: URLSearchParams, response: ServerResponse): Promise<void> {
    const code = form.get('code') ?? '';
    const pending = this.codes.get(code);
    this.codes.delete(code);
    const now = Math.floor(Date.now() / 1000);
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !pending ||
      pending.expiresAt <= now ||
      pending.clientId !== form.get('client_id') ||
      pending.redirectUri !== form.get('redirect_uri') ||
      s256(form.get('code_verifier') ?? '') !== pending.codeChallenge
    ) {
      return sendJson(response, 400, { error: 'invalid_grant' });
    }
    const user = this.users.find((candidate) => candidate.sub === pending.sub);
    if (!user) return sendJson(response, 400, { error: 'invalid_grant' });
    sendJson(response, 200, await this.issueTokens(user, pending));
  }

  /** The id and access tokens of a sign-in, in Cognito's shapes. */
  private async issueTokens(
    user: StoredUser,
    grant: { clientId: string; scope: string; authTime: number; nonce?: string },
  ): Promise<{ id_token: string; access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const now = Math.floor(Date.now() / 1000);
    const key = await importJWK(this.signingKey.privateJwk, 'RS256');
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: this.signingKey.kid })
        .setIssuer(this.url)
        .setSubject(user.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + TOKEN_SECONDS)
        .sign(key);
    const idToken = await sign({
      aud: grant.clientId,
      token_use: 'id',
      auth_time: grant.authTime,
      email: user.email,
      email_verified: true,
      name: user.name,
      'cognito:username': user.sub,
      ...(user.groups?.length ? { 'cognito:groups': user.groups } : {}),
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    });
    const accessToken = await sign({
      client_id: grant.clientId,
      token_use: 'access',
      scope: grant.scope,
      auth_time: grant.authTime,
      username: user.sub,
      jti: randomUUID(),
      ...(user.groups?.length ? { 'cognito:groups': user.groups } : {}),
    });
    return { id_token: idToken, access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_SECONDS };
  }

  /** Whether the request carries the admin secret; answers 401 when it does not. */
  private adminAuthorized(request: IncomingMessage, response: ServerResponse): boolean {
    const presented = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${this.adminSecret}`);
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) return true;
    sendJson(response, 401, { error: 'unauthorized' });
    return false;
  }

  private async adminGroupMembership(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.adminAuthorized(request, response)) return;
    const body = await readJsonObject(request);
    if (!body || typeof body.email !== 'string' || typeof body.group !== 'string' || !GROUP_PATTERN.test(body.group) || typeof body.member !== 'boolean') {
      return sendJson(response, 400, { error: 'email, group and member (true or false) are required' });
    }
    const user = await this.setGroupMembership(body.email, body.group, body.member);
    if (!user) return sendJson(response, 404, { error: 'UserNotFoundException' });
    sendJson(response, 200, user);
  }

  /**
   * Cognito's AdminInitiateAuth for the operator: signs a user in for one of the app clients
   * without the form, running the post-authentication trigger as any sign-in does, and answers the
   * tokens that sign-in would have given. Only for the holder of the admin secret.
   */
  private async adminInitiateAuth(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.adminAuthorized(request, response)) return;
    const body = JSON.parse(await readBody(request)) as { email?: unknown; client_id?: unknown };
    if (typeof body.email !== 'string' || typeof body.client_id !== 'string') return sendJson(response, 400, { error: 'email and client_id are required' });
    if (!this.clients.has(body.client_id)) return sendJson(response, 400, { error: 'ResourceNotFoundException', message: 'unknown client_id' });
    const user = this.users.find((candidate) => candidate.email === (body.email as string).trim().toLowerCase());
    if (!user) return sendJson(response, 404, { error: 'UserNotFoundException' });
    if (!(await this.runSignInTrigger(localUser(user)))) return sendJson(response, 500, { error: 'UnexpectedLambdaException', message: 'the post-authentication trigger failed' });
    sendJson(response, 200, await this.issueTokens(user, { clientId: body.client_id, scope: 'openid email profile', authTime: Math.floor(Date.now() / 1000) }));
  }

  private async adminCreateUser(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.adminAuthorized(request, response)) return;
    const body = await readJsonObject(request);
    if (!body || typeof body.email !== 'string' || typeof body.name !== 'string' || typeof body.password !== 'string' || body.password.length < 8) {
      return sendJson(response, 400, { error: 'email, name and a password of at least 8 characters are required' });
    }
    sendJson(response, 201, await this.saveUser({ email: body.email, name: body.name, password: body.password }));
  }
}
