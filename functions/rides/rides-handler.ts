import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';
import { riderOf } from '../riders/principal.ts';
import { getRider, RiderNotFoundError } from '../riders/profiles.ts';
import { createRide, listRides } from './records.ts';
import { newRideBody, rideHistoryQuery } from './request.ts';
import { rideRecord, ridePage } from './response.ts';

/**
 * GET {app_base_url}/user/routes/?page=&limit=: the rider's history, newest first (spec 4.6).
 * POST {app_base_url}/user/routes/: records a ride, with the weather at its start captured now;
 * with an `Idempotency-Key` a retry gets the first answer. docs/riders.md has both shapes.
 */

export const handler = endpoint({ id: 'user-rides', body: newRideBody.optional(), query: rideHistoryQuery, response: z.union([ridePage, rideRecord]) }, async ({ principal, body, query: { page, limit }, repeatable }) => {
  const rider = riderOf(principal);
  if (!(await getRider(rider.sub))) throw new RiderNotFoundError();
  // GET carries no body (endpoint() parses none); POST always has one.
  if (body === undefined) return { body: await listRides(rider.sub, page, limit) };
  // An event id that names no event is refused by createRide (RideEventNotFoundError, a 400).
  return { status: 201, body: await createRide(rider.sub, body, { repeatable }) };
});
