import { endpoint } from '../http/endpoint.ts';
import { crossCityRoute } from '../http/errors.ts';
import { planDirections } from '../routing/directions.ts';
import { directionsCost, directionsRequest } from '../routing/request.ts';

/** POST /directions/v2/ (and /directions/): spec 4.1. No graph for the city is a 503 (http/errors.ts). */
export const handler = endpoint(
  { id: 'directions', body: directionsRequest, cost: ({ body }) => directionsCost(body) },
  async ({ body }) => {
    const outcome = await planDirections(body);
    if (outcome.kind === 'cross-city') throw crossCityRoute(outcome.searchId);
    return { body: outcome.body };
  },
);
