import { endpoint } from '../http/endpoint.ts';
import { crossCityRoute } from '../http/errors.ts';
import { now } from '../../platform/clock.ts';
import { checkRequestedRoute } from '../directions/route-planner.ts';
import { explainSupersafe } from './explain.ts';
import { directionsCost } from '../directions/request.ts';
import { explainRequest } from './request.ts';
import { explainResponse } from './response.ts';

/**
 * POST /explain-supersafe/: spec 4.3, docs/explain.md. No graph for the city is a 503
 * (http/errors.ts); routes beyond the compute budget a 422, as directions.
 */
export const handler = endpoint(
  {
    id: 'explain-supersafe',
    body: explainRequest,
    response: explainResponse,
    cost: ({ body }) => directionsCost(body),
    checkBudget: ({ body }) => checkRequestedRoute('cycling', body.coordinates),
  },
  async ({ body }) => {
    const outcome = await explainSupersafe(body, now());
    if (outcome.kind === 'cross-city') throw crossCityRoute(outcome.searchId);
    return { body: outcome.body };
  },
);
