import { z } from 'zod';
import { page } from '../http/page.ts';
import { act, BROWSER_COOKIE, notices, showConsent, type NoticeKey } from './consent.ts';
import { consentPage, errorPage } from './views.ts';

/** GET and POST {consent_url} (spec 3.2): the consent screen and its forms; a `ConsentRefusal` is shown as an error page. */

export const consentQuery = z.object({
  request: z.string().max(64),
  notice: z.enum(Object.keys(notices) as [NoticeKey, ...NoticeKey[]]).optional(),
});

const formBase = { request: z.string().max(64), csrf: z.string().max(128) };
export const consentForm = z.discriminatedUnion('action', [
  z.object({ ...formBase, action: z.literal('sign-in-idp') }),
  z.object({ ...formBase, action: z.literal('send-code'), email: z.string().max(320) }),
  z.object({ ...formBase, action: z.literal('verify-code'), code: z.string().max(20) }),
  z.object({ ...formBase, action: z.literal('approve') }),
  z.object({ ...formBase, action: z.literal('cancel') }),
]);

export const handler = page(
  { id: 'oauth-consent', query: consentQuery, form: consentForm, errorPage },
  async ({ method, query, form, cookies }) => {
    const browserSecret = cookies[BROWSER_COOKIE];
    if (method === 'GET') return { html: consentPage(await showConsent(query.request, browserSecret, query.notice)) };
    return { redirectTo: await act(form.request, form.csrf, browserSecret, form) };
  },
);
