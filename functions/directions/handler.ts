import { endpoint } from '../http/endpoint.ts';
import { badRequest } from '../http/errors.ts';
import { planDirections } from './plan.ts';
import { directionsCost, directionsRequest } from './request.ts';

/** POST /directions/v2/ (and /directions/): spec 4.1. No graph for the city is a 503 (http/errors.ts). */
export const handler = endpoint(
  { id: 'directions', body: directionsRequest, cost: ({ body }) => directionsCost(body) },
  async ({ body }) => {
    const outcome = await planDirections(body);
    if (outcome.kind === 'cross-city') {
      throw badRequest('Cross-city routing is not supported: every coordinate must lie in one covered city', {
        code: 'CROSS_CITY_ROUTE',
        search_id: outcome.searchId,
      });
    }
    return { body: outcome.body };
  },
);
