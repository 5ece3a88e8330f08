import { page } from '../http/page.ts';
import { authorizeQuery, openAuthorizationRequest } from './authorize.ts';
import { BROWSER_COOKIE, browserCookie, browserSecretFrom, consentPageAddress } from './consent.ts';
import { errorPage } from './views.ts';

/**
 * GET /auth/v1/oauth/authorize (spec 4.5): checks the app's request and opens the consent
 * screen, or shows an error page (an `AuthorizeRefusal`); it never redirects a request it cannot
 * accept.
 */
export const handler = page({ id: 'oauth-authorize', query: authorizeQuery, errorPage }, async ({ query, cookies, secureTransport }) => {
  const browserSecret = browserSecretFrom(cookies[BROWSER_COOKIE]);
  const request = await openAuthorizationRequest(query, browserSecret);
  return { redirectTo: consentPageAddress(request.request_id), setCookie: browserCookie(browserSecret, secureTransport) };
});
