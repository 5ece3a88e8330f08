import { endpoint } from '../http/endpoint.ts';
import { NotFoundError } from '../platform/errors.ts';
import { getRider, profileView } from './profiles.ts';

/** GET {app_base_url}/user/ (spec 4.6): the signed-in rider's own profile. */
export const handler = endpoint({ id: 'user-profile' }, async ({ principal }) => {
  // The chain admits only rider principals here (functions/auth/admission.ts).
  if (principal?.kind !== 'rider') throw new Error('user-profile reached without a rider principal');
  const profile = await getRider(principal.sub);
  if (!profile) throw new NotFoundError('User not found');
  return { body: profileView(profile) };
});
