import { endpoint } from '../http/endpoint.ts';
import { bikeShareNear } from './loader.ts';
import { bikesNearby } from './nearby.ts';
import { bikesNearbyQuery } from './request.ts';
import { bikesNearbyResponse } from './response.ts';

/** GET {app_base_url}/bikes/nearby/ (spec 4.7), for a signed-in rider. */

export const handler = endpoint({ id: 'bikes-nearby', query: bikesNearbyQuery, response: bikesNearbyResponse }, async ({ query }) => {
  const view = await bikeShareNear([query.longitude, query.latitude], query.radius);
  return { body: bikesNearby(view, query) };
});
