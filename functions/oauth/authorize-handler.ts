import { page } from '../http/page.ts';
import { authorizeQuery, openAuthorizationRequest } from './authorize.ts';
import { BROWSER_COOKIE, browserCookie, browserSecretFrom, consentPageAddress } from './consent.ts';
import { errorPage } from './views.ts';

/**
 * GET /auth/v1/oauth/authorize (spec 4.5): checks the app's request and opens the consent
 * screen, or shows an error page (an `AuthorizeRefusal`); it never redirects a request it cannot
 * accept. A request it accepts with `prompt=none` goes back to the app with `login_required`.
 */
export const handler = page({ id: 'oauth-authorize', query: authorizeQuery, errorPage }, async ({ query, cookies, secureTransport }) => {
  const browserSecret = browserSecretFrom(cookies[BROWSER_COOKIE]);
  const outcome = await openAuthorizationRequest(query, browserSecret);
  if ('redirectTo' in outcome) return outcome;
  return { redirectTo: consentPageAddress(outcome.consent.request_id), setCookie: browserCookie(browserSecret, secureTransport) };
});
