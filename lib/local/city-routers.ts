import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { CityId } from '../../core/cities/index.ts';
import { straightLineMetres } from '../../core/routing/planning/budget.ts';
import type { CityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { routedPointsOf } from '../../functions/dispatch/routed-city.ts';
import { authorizedEndpointAt, CITY_ROUTER_TIMEOUT_SECONDS, cityRouterEntry } from '../../platform/endpoints.ts';
import type { ModuleLoader } from './gateway.ts';
import { asInvokePayload, invoke } from './invocations.ts';
import { lambdaContext } from './queue.ts';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The cities' routing functions on the local platform: the routing endpoints' dispatch (the same
 * code as in AWS, functions/dispatch/) invokes them in this process, each call its own invocation
 * of `router-<city>`. The event and the answer pass as a Lambda invoke's JSON payloads do (`asInvokePayload`),
 * so the city's function sees what it would see in AWS. One process holds every city's graph.
 */
export function inProcessCityInvoker(load: ModuleLoader): CityInvoker {
  let router: Promise<ProxyHandler> | undefined;
  return async (city, event) => {
    router ??= load(cityRouterEntry).then((module) => module.handler as ProxyHandler);
    const route = await router;
    const context = lambdaContext(`router-${city}`, CITY_ROUTER_TIMEOUT_SECONDS);
    const forwarded = asInvokePayload(event);
    return asInvokePayload(await invoke(context, () => route(forwarded, context)));
  };
}

/**
 * The longest directions request (the straight lines between its coordinates, added up) that may
 * run in the platform's own thread. Planning 5 km takes milliseconds of CPU in any profile
 * (docs/benchmarks.md, "Compute budget per request": 25 coordinates over 19 km take 10 to 50 ms),
 * so a request another city's caller might wait behind stays far under issue 34's 100 ms.
 */
export const SHORT_TRIP_METRES = 5_000;

/** Whether the event is a valid directions request whose legs cover at most `SHORT_TRIP_METRES` in a straight line. */
export function isShortTrip(event: APIGatewayProxyEvent): boolean {
  const endpoint = authorizedEndpointAt(event.resource);
  if (endpoint?.id !== 'directions') return false;
  const points = routedPointsOf(endpoint.id, event);
  return points !== null && straightLineMetres(points) <= SHORT_TRIP_METRES;
}

/**
 * The cities' functions in worker threads (`threads`), except that a short trip
 * (`isShortTrip`) asked while no routing invocation is running anywhere runs in this thread
 * (`inProcess`). One request at a time, a call to a thread is the larger part of a request's
 * latency: two messages between threads and the rate limit's DynamoDB call from the thread back
 * to this one, each waking a thread on the other core; in this thread the same function answers
 * with none of them. Whenever another routing invocation is running, or the trip is longer, the
 * call goes to its city's thread as before, so a heavy request never holds this thread and the
 * requests beside it are spread over the cores. A city whose request runs here has its thread
 * started all the same (`startThread`), so that the first request sent to it beside another does
 * not wait for the thread's cold start.
 */
export function shortTripsWhileIdleInProcess(threads: CityInvoker, inProcess: CityInvoker, startThread: (city: CityId) => void): CityInvoker {
  let running = 0;
  return async (city, event) => {
    const here = running === 0 && isShortTrip(event);
    if (here) startThread(city);
    running++;
    try {
      return await (here ? inProcess : threads)(city, event);
    } finally {
      running--;
    }
  };
}
