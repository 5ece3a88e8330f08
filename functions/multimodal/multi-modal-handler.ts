import { endpoint } from '../http/endpoint.ts';
import { crossCityRoute } from '../http/errors.ts';
import { now } from '../../platform/clock.ts';
import { checkRequestedRoute } from '../directions/route-planner.ts';
import { multiModalScope } from './limits.ts';
import { planMultiModal } from './plan.ts';
import { multiModalCost, multiModalRequest } from './request.ts';
import { multiModalResponse } from './response.ts';

/**
 * POST /multi-modal/v2/ (and /multi-modal/): spec 4.2, docs/multimodal.md. A request that fails
 * validation costs nothing; a valid one costs a token per hop, from the caller's limits and from
 * multi-modal's own stricter ones (limits.ts). No graph for the city is a 503 (http/errors.ts);
 * a trip beyond the compute budget a 422: its ride through the stops is checked before any token
 * is spent (a custom route's legs, once loaded, by the route planner).
 */
export const handler = endpoint(
  {
    id: 'multi-modal',
    body: multiModalRequest,
    response: multiModalResponse,
    cost: ({ body }) => multiModalCost(body),
    rateScope: ({ principal }) => multiModalScope(principal),
    checkBudget: ({ body }) => checkRequestedRoute('cycling', [body.start, ...body.stops, body.end]),
  },
  async ({ body }) => {
    const outcome = await planMultiModal(body, now());
    if (outcome.kind === 'cross-city') throw crossCityRoute(outcome.searchId);
    return { body: outcome.body };
  },
);
