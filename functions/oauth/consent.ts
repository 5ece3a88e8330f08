import { nowSeconds } from '../../platform/clock.ts';
import { DomainError, type RefusalKind } from '../../platform/errors.ts';
import { logger } from '../../platform/logger.ts';
import { EmailSignInError, startEmailSignIn, verifyEmailCode } from '../riders/email-sign-in.ts';
import {
  completeIdentityProviderSignIn,
  IdentityProviderError,
  identityProviderSignInUrl,
  type RiderIdentity,
} from '../riders/identity-provider-client.ts';
import {
  getAuthorizationRequest,
  isExpired,
  updateOpenRequest,
  type AuthorizationRequestRecord,
  type SignedInRider,
} from './authorization-requests.ts';
import { getActiveClient, type OAuthClientRecord } from './clients.ts';
import { issueCode } from './codes.ts';
import { consentUrl, idpCallbackUrl, issuer, lifetimes } from './config.ts';
import { s256 } from './pkce.ts';
import { signInMeetsDemand } from './prompt.ts';
import { redirectWith } from './redirect-uris.ts';
import { scopeDescriptions } from './scopes.ts';
import { matchesHash, randomHandle, sameSecret, sha256 } from '../../platform/secrets.ts';
import type { ConsentPageModel } from './views.ts';

/**
 * The consent screen's behaviour (spec 3.2, 5.5): the rider signs in (identity provider, or a
 * code by email), then allows the app or cancels. Every step first establishes that the request
 * exists, is open, has not expired and belongs to this browser; every form post also carries the
 * request's CSRF token. The result of a step is a page to show or an address to send the browser
 * to; the handlers only translate.
 */

/** A step the consent screen refuses: a title and a sentence for the rider, shown as a page. */
export class ConsentRefusal extends DomainError {
  constructor(kind: RefusalKind, title: string, detail: string) {
    super(kind, title, detail);
  }
}

/** Messages the consent page can show after a step; the query names one by key, never by text. */
export const notices = {
  'code-sent': 'Check your email for the code.',
  'wrong-code': 'That code is not right, has been used, or has expired. Try again or ask for a new code.',
  'invalid-email': 'That does not look like an email address.',
  'too-many-codes': 'Too many codes were asked for that address. Wait a minute and try again.',
  'idp-cancelled': 'Sign-in was cancelled. You can try again.',
  'idp-failed': 'Sign-in with your Spoke account did not work. Try again, or use a code by email.',
  'idp-not-fresh': 'This app asks you to sign in again now, and your Spoke account reported an earlier sign-in. Sign in again, or use a code by email.',
} as const;
export type NoticeKey = keyof typeof notices;

export const BROWSER_COOKIE = 'spoke_consent_browser';
const BROWSER_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The browser's binding secret from its cookie, or a new one for a browser that has none. */
export function browserSecretFrom(cookieValue: string | undefined): string {
  return cookieValue && BROWSER_SECRET_PATTERN.test(cookieValue) ? cookieValue : randomHandle(32);
}

/**
 * `SameSite=Lax`, not `Strict`: the browser comes back from the identity provider's sign-in
 * page by a cross-site redirect, and must bring the cookie along.
 */
export function browserCookie(secret: string, secureTransport: boolean): string {
  return `${BROWSER_COOKIE}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=86400${secureTransport ? '; Secure' : ''}`;
}

interface OpenConsent {
  request: AuthorizationRequestRecord;
  client: OAuthClientRecord;
}

async function openConsent(requestId: string, browserSecret: string | undefined): Promise<OpenConsent> {
  const request = await getAuthorizationRequest(requestId);
  if (!request) {
    throw new ConsentRefusal('not-found', 'This sign-in request has expired or does not exist', 'Go back to the app and start again.');
  }
  const client = await getActiveClient(request.client_id);
  if (!client) throw new ConsentRefusal('invalid', 'This app can no longer sign you in', 'Its registration has been revoked.');
  if (request.status !== 'open') {
    throw new ConsentRefusal('conflict', 'This sign-in request is already finished', `Go back to ${client.name} to continue.`);
  }
  if (isExpired(request)) {
    throw new ConsentRefusal(
      'expired',
      'This sign-in request has expired',
      `Sign-in requests are valid for ${lifetimes.authorizationRequestSeconds / 60} minutes. Go back to ${client.name} and start again.`,
    );
  }
  if (!browserSecret || !matchesHash(browserSecret, request.browser_hash)) {
    throw new ConsentRefusal(
      'forbidden',
      'This sign-in request was started in another browser',
      `For your safety it can only be completed there. Go back to ${client.name} and start again in this browser.`,
    );
  }
  return { request, client };
}

/** The consent page of a request, with a notice to show after a step. */
export const consentPageAddress = (requestId: string, notice?: NoticeKey): string => {
  const url = new URL(consentUrl());
  url.searchParams.set('request', requestId);
  if (notice) url.searchParams.set('notice', notice);
  return url.href;
};

export async function showConsent(requestId: string, browserSecret: string | undefined, notice?: NoticeKey): Promise<ConsentPageModel> {
  const { request, client } = await openConsent(requestId, browserSecret);
  return {
    appName: client.name,
    requestId: request.request_id,
    csrfToken: request.csrf_token,
    abilities: ['plan cycling routes and compare them for you', 'submit road reports as you and read them back', ...scopeDescriptions(request.scope)],
    ...(request.rider ? { rider: { name: request.rider.name, email: request.rider.email } } : {}),
    ...(request.email_challenge
      ? { emailChallenge: { reference: request.email_challenge.reference, maskedEmail: request.email_challenge.masked_email } }
      : {}),
    ...(notice ? { notice: notices[notice] } : {}),
    expiresAt: new Date(request.expires_at * 1000),
  };
}

export type ConsentAction =
  | { action: 'sign-in-idp' }
  | { action: 'send-code'; email: string }
  | { action: 'verify-code'; code: string }
  | { action: 'approve' }
  | { action: 'cancel' };

/** A form post from the consent page; the answer is where the browser goes next. */
export async function act(
  requestId: string,
  csrfToken: string,
  browserSecret: string | undefined,
  step: ConsentAction,
): Promise<string> {
  const { request } = await openConsent(requestId, browserSecret);
  if (!sameSecret(csrfToken, request.csrf_token)) {
    throw new ConsentRefusal('forbidden', 'This form is out of date', 'Reload the sign-in page and try again.');
  }
  switch (step.action) {
    case 'sign-in-idp': {
      const secret = randomHandle(24);
      const codeVerifier = randomHandle(32);
      const nonce = randomHandle(24);
      stillOpen(await updateOpenRequest(requestId, { idp_sign_in: { state_hash: sha256(secret), nonce, code_verifier: codeVerifier } }));
      return identityProviderSignInUrl({
        redirectUri: idpCallbackUrl(),
        state: `${requestId}.${secret}`,
        nonce,
        codeChallenge: s256(codeVerifier),
        reauthenticate: request.authenticate_after !== undefined || request.max_age !== undefined,
      });
    }
    case 'send-code': {
      try {
        const challenge = await startEmailSignIn(step.email);
        stillOpen(
          await updateOpenRequest(requestId, {
            email_challenge: { challenge_id: challenge.challengeId, reference: challenge.reference, masked_email: challenge.maskedEmail },
          }),
        );
        return consentPageAddress(requestId, 'code-sent');
      } catch (error) {
        if (error instanceof EmailSignInError) return consentPageAddress(requestId, error.reason);
        throw error;
      }
    }
    case 'verify-code': {
      const identity = request.email_challenge ? await verifyEmailCode(request.email_challenge.challenge_id, step.code.trim()) : null;
      if (!identity) return consentPageAddress(requestId, 'wrong-code');
      stillOpen(await updateOpenRequest(requestId, { rider: signedIn(identity, 'email') }, ['email_challenge']));
      return consentPageAddress(requestId);
    }
    case 'approve': {
      if (!request.rider) throw new ConsentRefusal('invalid', 'Sign in first', 'Sign in to your Spoke account before allowing the app.');
      const code = await issueCode({
        client_id: request.client_id,
        redirect_uri: request.redirect_uri,
        code_challenge: request.code_challenge,
        scope: request.scope,
        ...(request.nonce ? { nonce: request.nonce } : {}),
        sub: request.rider.sub,
        rider_claims: { ...(request.rider.email ? { email: request.rider.email } : {}), ...(request.rider.name ? { name: request.rider.name } : {}) },
        auth_time: request.rider.auth_time,
      });
      // If the request was decided or expired meanwhile, the code is never revealed.
      stillOpen(await updateOpenRequest(requestId, { status: 'approved' }));
      return redirectWith(request.redirect_uri, { code, state: request.state, iss: issuer() });
    }
    case 'cancel': {
      stillOpen(await updateOpenRequest(requestId, { status: 'cancelled' }));
      return redirectWith(request.redirect_uri, {
        error: 'access_denied',
        error_description: 'The rider cancelled the sign-in',
        state: request.state,
        iss: issuer(),
      });
    }
  }
}

/** A code by email is a sign-in now; the identity provider's sign-in happened when its id token says. */
function signedIn(identity: RiderIdentity, method: SignedInRider['method']): SignedInRider {
  return {
    sub: identity.sub,
    ...(identity.email ? { email: identity.email } : {}),
    ...(identity.name ? { name: identity.name } : {}),
    method,
    auth_time: method === 'identity-provider' && identity.authTime !== undefined ? identity.authTime : nowSeconds(),
  };
}

/** The identity provider sends the browser back here after sign-in (or after the rider gave up). */
export async function finishIdentityProviderSignIn(
  input: { state?: string; code?: string; error?: string },
  browserSecret: string | undefined,
): Promise<string> {
  const [requestId, secret] = (input.state ?? '').split('.');
  if (!requestId || !secret) throw new ConsentRefusal('invalid', 'This sign-in did not come from this service', 'Go back to the app and start again.');
  const { request } = await openConsent(requestId, browserSecret);
  const pending = request.idp_sign_in;
  if (!pending || !matchesHash(secret, pending.state_hash)) {
    throw new ConsentRefusal('invalid', 'This sign-in did not come from this service', 'Go back to the app and start again.');
  }
  if (input.error || !input.code) {
    await updateOpenRequest(requestId, {}, ['idp_sign_in']);
    return consentPageAddress(requestId, 'idp-cancelled');
  }
  let identity: RiderIdentity;
  try {
    identity = await completeIdentityProviderSignIn({
      code: input.code,
      codeVerifier: pending.code_verifier,
      redirectUri: idpCallbackUrl(),
      nonce: pending.nonce,
    });
  } catch (error) {
    if (!(error instanceof IdentityProviderError)) throw error;
    logger.warn('identity provider sign-in failed', { reason: error.message });
    return consentPageAddress(requestId, 'idp-failed');
  }
  const rider = signedIn(identity, 'identity-provider');
  if (!signInMeetsDemand(rider.auth_time, request, nowSeconds())) {
    logger.warn('identity provider sign-in older than the request allows', { prompt_login: request.authenticate_after !== undefined, max_age: request.max_age });
    await updateOpenRequest(requestId, {}, ['idp_sign_in']);
    return consentPageAddress(requestId, 'idp-not-fresh');
  }
  stillOpen(await updateOpenRequest(requestId, { rider }, ['idp_sign_in', 'email_challenge']));
  return consentPageAddress(requestId);
}

/** A change to the request was refused by its open-and-unexpired condition: someone decided it, or time ran out. */
function stillOpen(changed: boolean): void {
  if (!changed) throw new ConsentRefusal('conflict', 'This sign-in request is already finished or has expired', 'Go back to the app and start again.');
}
