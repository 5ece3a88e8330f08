import { endpoint } from '../http/endpoint.ts';
import { searchRidersByName } from './name-search.ts';
import { riderOf } from './principal.ts';
import { profileView, publicProfileView } from './profiles.ts';
import { riderSearchQuery } from './request.ts';
import { riderSearchResponse } from './response.ts';

/**
 * GET {app_base_url}/api/users/search/?q= (spec 4.6): riders whose name contains `q`, ignoring
 * case and accents, at most 50, in name order. Admins (the identity provider's `admin` group)
 * get full profiles; everyone else the public subset.
 */
export const handler = endpoint({ id: 'user-search', query: riderSearchQuery, response: riderSearchResponse }, async ({ principal, query: { q } }) => {
  const rider = riderOf(principal);
  const found = await searchRidersByName(q);
  const users = rider.admin ? found.map(profileView) : found.map(publicProfileView);
  return { body: { count: users.length, users } };
});
