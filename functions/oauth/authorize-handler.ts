import { page, pageError } from '../http/page.ts';
import { AuthorizeRefusal, authorizeQuery, openAuthorizationRequest } from './authorize.ts';
import { BROWSER_COOKIE, browserCookie, browserSecretFrom, consentPageAddress } from './consent.ts';
import { errorPage } from './views.ts';

/**
 * GET /auth/v1/oauth/authorize (spec 4.5): checks the app's request and opens the consent
 * screen, or shows an error page; it never redirects a request it cannot accept.
 */
export const handler = page({ id: 'oauth-authorize', query: authorizeQuery, errorPage }, async ({ query, cookies, secureTransport }) => {
  const browserSecret = browserSecretFrom(cookies[BROWSER_COOKIE]);
  try {
    const request = await openAuthorizationRequest(query, browserSecret);
    return { redirectTo: consentPageAddress(request.request_id), setCookie: browserCookie(browserSecret, secureTransport) };
  } catch (error) {
    if (error instanceof AuthorizeRefusal) throw pageError(400, 'This app sent a sign-in request that cannot be accepted', error.reason);
    throw error;
  }
});
