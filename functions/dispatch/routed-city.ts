import type { APIGatewayProxyEvent } from 'aws-lambda';
import { cityForCoordinates, cityIds, type CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { explainRequest } from '../explain/request.ts';
import { rawBody } from '../http/forms.ts';
import { multiModalRequest } from '../multimodal/request.ts';
import { directionsBody } from '../directions/request.ts';

/**
 * Which city's routing function answers a routing request: the city of its coordinates, as the
 * planners decide it (`cityForCoordinates`), read from the body through the endpoint's own schema.
 * Pure; the dispatch handler forwards the event to that city's function.
 */

/** The points a valid request of each routing endpoint routes between, by endpoint id; null when the body is not valid. */
export const routedPoints: Readonly<Record<string, (body: unknown) => readonly LonLat[] | null>> = {
  directions: (body) => {
    const parsed = directionsBody.safeParse(body);
    return parsed.success ? parsed.data.coordinates : null;
  },
  'multi-modal': (body) => {
    const parsed = multiModalRequest.safeParse(body);
    // A custom route's points (event_id) must lie in the same city; its city's function checks them.
    return parsed.success ? [parsed.data.start, parsed.data.end, ...parsed.data.stops] : null;
  },
  'explain-supersafe': (body) => {
    const parsed = explainRequest.safeParse(body);
    return parsed.success ? parsed.data.coordinates : null;
  },
};

/**
 * Where a request whose city cannot be told goes (a body that does not parse or validate, points
 * outside every city or across two): any city's function gives such a request the answer the
 * single routing function gave it (the validation problem, or `CROSS_CITY_ROUTE`), loading no graph.
 */
export const UNROUTED_REQUEST_CITY: CityId = cityIds[0];

function jsonOf(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The points a request of the routing endpoint `endpointId` routes between, read from its body by the endpoint's schema; null when the body is not valid. */
export function routedPointsOf(endpointId: string, event: APIGatewayProxyEvent): readonly LonLat[] | null {
  const pointsOf = routedPoints[endpointId];
  if (!pointsOf) throw new Error(`${endpointId} is not a routing endpoint (functions/dispatch/routed-city.ts)`);
  return pointsOf(jsonOf(rawBody(event)));
}

/** The city whose routing function serves this request of the routing endpoint `endpointId`. */
export function routedCity(endpointId: string, event: APIGatewayProxyEvent): CityId {
  const points = routedPointsOf(endpointId, event);
  return (points && cityForCoordinates(points)?.id) ?? UNROUTED_REQUEST_CITY;
}
