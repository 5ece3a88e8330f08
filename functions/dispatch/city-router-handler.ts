import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { handler as directions } from '../directions/directions-handler.ts';
import { handler as explainSupersafe } from '../explain/explain-supersafe-handler.ts';
import type { ApiHandler } from '../http/endpoint.ts';
import { handler as multiModal } from '../multimodal/multi-modal-handler.ts';
import { authorizedEndpointAt } from '../../platform/endpoints.ts';

/**
 * A city's routing function (one per city, endpoints.ts `cityRouterEntry`): serves every routing
 * endpoint for the requests the dispatch sends it, by the event's API Gateway resource, through
 * the endpoint's usual handler. Its warm containers hold that one city's graph.
 */

/** The handler of each endpoint that is `routedByCity`, by endpoint id. */
export const routingHandlers: Readonly<Record<string, ApiHandler>> = {
  directions,
  'multi-modal': multiModal,
  'explain-supersafe': explainSupersafe,
};

export const handler: ApiHandler = (event: APIGatewayProxyEvent, context: Context) => {
  const endpoint = authorizedEndpointAt(event.resource);
  const route = endpoint?.routedByCity ? routingHandlers[endpoint.id] : undefined;
  if (!route) throw new Error(`No routing endpoint at resource ${event.resource}`);
  return route(event, context);
};
