/**
 * Signing a rider in at the identity provider, as the platform's own rider app does: the
 * authorization code flow with PKCE (S256), a fresh `state` and `nonce` per attempt, the page's
 * own address as the redirect URI, and the code exchanged at the provider's token endpoint from
 * the browser. The rider's access token is then the bearer credential of `{app_base_url}`'s
 * rider endpoints (spec 4.7). It lives in this tab's session storage only.
 */

import { t } from './i18n.js';

const PENDING = 'spoke-playground-sign-in';
const SESSION = 'spoke-playground-rider';

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

function claimsOf(jwt) {
  const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (character) => character.charCodeAt(0))));
}

const redirectUri = () => `${location.origin}/`;

/** The signed-in rider ({name, email, token, expiresAt}), or null. */
export function currentRider() {
  const stored = sessionStorage.getItem(SESSION);
  if (!stored) return null;
  const rider = JSON.parse(stored);
  if (rider.expiresAt <= Date.now()) {
    sessionStorage.removeItem(SESSION);
    return null;
  }
  return rider;
}

export function signOut() {
  sessionStorage.removeItem(SESSION);
}

/** Leaves for the identity provider's sign-in page; the page comes back with a code. */
export async function startSignIn(signIn) {
  const verifier = randomString();
  const state = randomString();
  const nonce = randomString();
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, nonce }));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const url = new URL(signIn.authorize_url);
  url.search = new URLSearchParams({
    client_id: signIn.client_id,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
}

/**
 * On the way back from the identity provider: checks `state`, exchanges the code, checks the
 * id token's `nonce`, keeps the session. Returns null when the page was not opened by a sign-in,
 * else `{rider}` or `{error}`.
 */
export async function completeSignIn(signIn) {
  const parameters = new URLSearchParams(location.search);
  if (!parameters.has('code') && !parameters.has('error')) return null;
  history.replaceState(null, '', `/${location.hash}`);
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null');
  sessionStorage.removeItem(PENDING);
  if (!pending || parameters.get('state') !== pending.state) return { error: t('signIn.state') };
  if (parameters.has('error')) return { error: t('signIn.refused', { error: parameters.get('error') }) };
  let response;
  try {
    response = await fetch(signIn.token_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: signIn.client_id,
        code: parameters.get('code'),
        redirect_uri: redirectUri(),
        code_verifier: pending.verifier,
      }),
    });
  } catch {
    return { error: t('signIn.noAnswer', { origin: new URL(signIn.token_url).origin }) };
  }
  const tokens = await response.json().catch(() => ({}));
  if (!response.ok || !tokens.access_token) return { error: t('signIn.noTokens', { error: tokens.error ?? `HTTP ${response.status}` }) };
  const claims = claimsOf(tokens.id_token);
  if (claims.nonce !== pending.nonce) return { error: t('signIn.nonce') };
  const rider = { name: claims.name, email: claims.email, token: tokens.access_token, expiresAt: Date.now() + tokens.expires_in * 1000 };
  sessionStorage.setItem(SESSION, JSON.stringify(rider));
  return { rider };
}
