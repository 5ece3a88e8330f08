/**
 * What an OpenID Connect authorization request asks about signing in (OIDC Core 3.1.2.1):
 * `prompt` and `max_age`. This server keeps no sign-in session of its own: the consent screen has
 * every rider sign in for every request, and always asks for consent. So:
 *
 * - `prompt=none` can never be met without a page: the answer is the `login_required` error
 *   redirect (3.1.2.6), once the rest of the request has passed every check;
 * - `prompt=consent` is what always happens;
 * - `prompt=login` and `max_age` concern the identity provider, which may keep a session of its
 *   own (Cognito does): the consent screen asks it to authenticate afresh (`prompt=login`), and
 *   does not rely on it doing so: the `auth_time` of its id token must show a sign-in after the
 *   request was opened (`prompt=login`, or `max_age=0`) and within `max_age` seconds.
 *
 * Other prompt values (`select_account`, or any not defined) are refused with the error page, as
 * Initiating User Registration via OpenID Connect 1.0 (which defines `prompt_values_supported`)
 * advises for a value an authorization server does not publish there.
 */

export const supportedPromptValues = ['none', 'login', 'consent'] as const;

/** The identity provider's clock against ours, when comparing its `auth_time` with our times. */
export const AUTH_TIME_LEEWAY_SECONDS = 30;

const MAX_AGE = /^\d{1,10}$/;

/** What the request demands of the rider's sign-in. */
export interface SignInDemand {
  /** `prompt=none`: no page may be shown. */
  silent: boolean;
  /** `prompt=login` or `max_age=0`: a sign-in after the request was opened. */
  fresh: boolean;
  /** `max_age`: a sign-in at most this many seconds old. */
  maxAgeSeconds?: number;
}

/** Reads `prompt` and `max_age`; a string is the problem to show on the error page. */
export function signInDemand(prompt: string | undefined, maxAge: string | undefined): SignInDemand | string {
  const values = prompt === undefined ? [] : prompt.split(' ').filter(Boolean);
  const unsupported = values.find((value) => !(supportedPromptValues as readonly string[]).includes(value));
  if (unsupported !== undefined) {
    return `The prompt value ${JSON.stringify(unsupported)} is not supported (supported: ${supportedPromptValues.join(', ')}).`;
  }
  if (values.includes('none') && values.length > 1) return 'prompt=none cannot be combined with other prompt values.';
  if (maxAge !== undefined && !MAX_AGE.test(maxAge)) return 'max_age must be a whole number of seconds.';
  const maxAgeSeconds = maxAge === undefined ? undefined : Number(maxAge);
  return {
    silent: values.includes('none'),
    fresh: values.includes('login') || maxAgeSeconds === 0,
    ...(maxAgeSeconds !== undefined ? { maxAgeSeconds } : {}),
  };
}

/**
 * Whether a sign-in at `authTime` (Unix seconds) meets what the request asked: not before
 * `authenticate_after` when it asked for a fresh one, at most `max_age` seconds before `now`.
 */
export function signInMeetsDemand(authTime: number, demand: { authenticate_after?: number; max_age?: number }, now: number): boolean {
  if (demand.authenticate_after !== undefined && authTime < demand.authenticate_after - AUTH_TIME_LEEWAY_SECONDS) return false;
  if (demand.max_age !== undefined && now - authTime > demand.max_age + AUTH_TIME_LEEWAY_SECONDS) return false;
  return true;
}
