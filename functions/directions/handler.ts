import { randomUUID } from 'node:crypto';
import { endpoint } from '../http/endpoint.ts';
import { routingUnavailable } from '../http/errors.ts';
import { directionsCost, directionsRequest } from './request.ts';

/**
 * POST /directions/v2/ (and /directions/). Until a compiled city graph is loaded the honest
 * answer is the spec's 503 ROUTING_UNAVAILABLE; the router plugs in behind this handler.
 */
export const handler = endpoint(
  { id: 'directions', body: directionsRequest, cost: ({ body }) => directionsCost(body) },
  async () => {
    throw routingUnavailable('No routing graph is loaded on this deployment yet', randomUUID());
  },
);
