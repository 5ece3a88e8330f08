import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { MAX_QUERY_CHARACTERS, MIN_QUERY_CHARACTERS, normaliseName, searchRidersByName } from './name-search.ts';
import { riderOf } from './principal.ts';
import { profileView, publicProfileView } from './profiles.ts';
import { riderSearchResponse } from './response.ts';

/**
 * GET {app_base_url}/api/users/search/?q= (spec 4.6): riders whose name contains `q`, ignoring
 * case and accents, at most 50, in name order. Admins (the identity provider's `admin` group)
 * get full profiles; everyone else the public subset.
 */
export const query = z.object({
  q: z
    .string({ error: 'required: the text to look for in riders\' names' })
    .refine((value) => Array.from(normaliseName(value)).length >= MIN_QUERY_CHARACTERS, `must be at least ${MIN_QUERY_CHARACTERS} characters`)
    .refine((value) => Array.from(value).length <= MAX_QUERY_CHARACTERS, `must be at most ${MAX_QUERY_CHARACTERS} characters`),
});

export const handler = endpoint({ id: 'user-search', query, response: riderSearchResponse }, async ({ principal, query: { q } }) => {
  const rider = riderOf(principal);
  const found = await searchRidersByName(q);
  const users = rider.admin ? found.map(profileView) : found.map(publicProfileView);
  return { body: { count: users.length, users } };
});
