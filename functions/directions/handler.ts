import { randomUUID } from 'node:crypto';
import { endpoint } from '../http/endpoint.ts';
import { badRequest, routingUnavailable } from '../http/errors.ts';
import { GraphUnavailableError } from '../routing/graph-store.ts';
import { planDirections } from './plan.ts';
import { directionsCost, directionsRequest } from './request.ts';

/** POST /directions/v2/ (and /directions/): spec 4.1. */
export const handler = endpoint(
  { id: 'directions', body: directionsRequest, cost: ({ body }) => directionsCost(body) },
  async ({ body }) => {
    let outcome;
    try {
      outcome = await planDirections(body);
    } catch (error) {
      if (error instanceof GraphUnavailableError) throw routingUnavailable(`No routing graph is available for ${error.city}`, randomUUID());
      throw error;
    }
    if (outcome.kind === 'cross-city') {
      throw badRequest('Cross-city routing is not supported: every coordinate must lie in one covered city', {
        code: 'CROSS_CITY_ROUTE',
        search_id: outcome.searchId,
      });
    }
    return { body: outcome.body };
  },
);
