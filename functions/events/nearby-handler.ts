import { endpoint } from '../http/endpoint.ts';
import { nowMs } from '../../platform/clock.ts';
import { eventsNearby } from './nearby.ts';
import { eventsNearbyQuery } from './request.ts';
import { eventsNearbyResponse } from './response.ts';

/** GET {app_base_url}/events/nearby/ (spec 4.8): public. */

export const handler = endpoint({ id: 'events-nearby', query: eventsNearbyQuery, response: eventsNearbyResponse }, async ({ query }) => ({
  body: await eventsNearby(query, nowMs()),
}));
