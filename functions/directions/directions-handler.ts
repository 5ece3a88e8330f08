import { endpoint } from '../http/endpoint.ts';
import { crossCityRoute } from '../http/errors.ts';
import { now } from '../../platform/clock.ts';
import { checkRequestedRoute } from './route-planner.ts';
import { planDirections } from './directions.ts';
import { gpxAnswer, requestedFormat } from './gpx-answer.ts';
import { directionsBody, directionsCost } from './request.ts';
import { directionsResponse } from './response.ts';

/**
 * POST /directions/v2/ (and /directions/): spec 4.1. No graph for the city is a 503
 * (http/errors.ts); a route beyond the compute budget a 422, refused before any token is spent
 * when its straight-line length is. "Now", for a request without a departure, is the platform clock's.
 * Beyond the spec, the answer is a GPX file when the request asks for one (gpx-answer.ts).
 */
export const handler = endpoint(
  {
    id: 'directions',
    body: directionsBody,
    response: directionsResponse,
    cost: ({ body }) => directionsCost(body),
    checkBudget: ({ body }) => checkRequestedRoute(body.profile, body.coordinates),
  },
  async ({ body, headers, baseUrl }) => {
    const plannedAt = now();
    const outcome = await planDirections(body, plannedAt);
    if (outcome.kind === 'cross-city') throw crossCityRoute(outcome.searchId);
    if (requestedFormat(body.format, headers) === 'gpx') return gpxAnswer(body, outcome.body, plannedAt, baseUrl);
    return { body: outcome.body };
  },
);
