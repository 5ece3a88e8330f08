import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { authorizedEndpointAt } from '../../platform/endpoints.ts';
import { withInvocationLogging } from '../../platform/invocation-logging.ts';
import { invokeCity } from './city-invoker.ts';
import { routedCity } from './routed-city.ts';

/**
 * The function of each routing endpoint (directions, multi-modal, explain-supersafe): finds the
 * request's city and hands the API Gateway event, unchanged, to that city's routing function,
 * whose answer it returns as it is. Admission, validation and the rate limit run there, once.
 */
async function dispatch(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const endpoint = authorizedEndpointAt(event.resource);
  if (!endpoint?.routedByCity) throw new Error(`No routing endpoint at resource ${event.resource}`);
  return invokeCity(routedCity(endpoint.id, event), event);
}

export const handler = withInvocationLogging(dispatch);
