import { endpoint } from '../http/endpoint.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { riderOf } from '../riders/principal.ts';
import { getRider, RiderNotFoundError } from '../riders/profiles.ts';
import { getRide } from './records.ts';
import { rideRecord } from './response.ts';

/**
 * GET {app_base_url}/user/routes/{id}/: one of the rider's rides with its event in full (spec
 * 4.6). Rides are read under the caller's own key, so another rider's ride is not found, the
 * same as one that does not exist.
 */
const RIDE_ID = /^[1-9]\d{0,15}$/;

export const handler = endpoint({ id: 'user-ride', response: rideRecord }, async ({ principal, pathParameters }) => {
  const rider = riderOf(principal);
  if (!(await getRider(rider.sub))) throw new RiderNotFoundError();
  const id = pathParameters.id ?? '';
  const ride = RIDE_ID.test(id) && Number.isSafeInteger(Number(id)) ? await getRide(rider.sub, Number(id)) : null;
  if (!ride) throw new NotFoundError('Route not found');
  return { body: ride };
});
