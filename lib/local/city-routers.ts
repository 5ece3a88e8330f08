import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { CityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { CITY_ROUTER_TIMEOUT_SECONDS, cityRouterEntry } from '../../platform/endpoints.ts';
import type { ModuleLoader } from './gateway.ts';
import { invoke } from './invocations.ts';
import { lambdaContext } from './queue.ts';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The cities' routing functions on the local platform: the routing endpoints' dispatch (the same
 * code as in AWS, functions/dispatch/) invokes them in this process, each call its own invocation
 * of `router-<city>`. The event and the answer pass through JSON as a Lambda invoke's payloads do,
 * so the city's function sees what it would see in AWS. One process holds every city's graph.
 */
export function inProcessCityInvoker(load: ModuleLoader): CityInvoker {
  let router: Promise<ProxyHandler> | undefined;
  return async (city, event) => {
    router ??= load(cityRouterEntry).then((module) => module.handler as ProxyHandler);
    const route = await router;
    const context = lambdaContext(`router-${city}`, CITY_ROUTER_TIMEOUT_SECONDS);
    const forwarded = JSON.parse(JSON.stringify(event)) as APIGatewayProxyEvent;
    const answer = await invoke(context, () => route(forwarded, context));
    return JSON.parse(JSON.stringify(answer)) as APIGatewayProxyResult;
  };
}
