import { z } from 'zod';
import { page } from '../http/page.ts';
import { BROWSER_COOKIE, finishIdentityProviderSignIn } from './consent.ts';
import { errorPage } from './views.ts';

/** GET {consent_url}/idp-callback: the identity provider returns the rider here after signing in. */

export const callbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2_000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2_000).optional(),
});

export const handler = page({ id: 'oauth-consent-idp-callback', query: callbackQuery, errorPage }, async ({ query, cookies }) => ({
  redirectTo: await finishIdentityProviderSignIn(query, cookies[BROWSER_COOKIE]),
}));
