import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { cities, cityIds, type CityId } from '../../core/cities/index.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { lambdaCityInvoker, useCityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { handler as cityRouter, routingHandlers } from '../../functions/dispatch/city-router-handler.ts';
import { handler as dispatch } from '../../functions/dispatch/dispatch-handler.ts';
import { routedCity, routedPoints, UNROUTED_REQUEST_CITY } from '../../functions/dispatch/routed-city.ts';
import { endpoints } from '../../platform/endpoints.ts';

/** The routing endpoints' dispatch: which city's function a request reaches, and that it passes the event and the answer through untouched. */

const context = { awsRequestId: 'dispatch-test', functionName: 'directions', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;

function request(resource: string, body: unknown, base64 = false): APIGatewayProxyEvent {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    resource,
    path: resource,
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'gateway-request', authorizer: { principalId: 'key-1' } } as unknown as APIGatewayProxyEvent['requestContext'],
    body: base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: base64,
  };
}

const near = (city: CityId, east = 0): [number, number] => [cities[city].center[0] + east, cities[city].center[1]];
const routing = endpoints.filter((endpoint) => endpoint.routedByCity);

describe('which city routes a request', () => {
  it('every routing endpoint has its points and its handler in the city function, and no other endpoint does', () => {
    expect(Object.keys(routedPoints).sort()).toEqual(routing.map((endpoint) => endpoint.id).sort());
    expect(Object.keys(routingHandlers).sort()).toEqual(routing.map((endpoint) => endpoint.id).sort());
  });

  it.each(routing.map((endpoint) => endpoint.routedByCity!))('the city function runs %s itself', async (module) => {
    const endpoint = routing.find((candidate) => candidate.routedByCity === module)!;
    expect(routingHandlers[endpoint.id]).toBe(((await import(pathToFileURL(join(projectRoot, module)).href)) as { handler: unknown }).handler);
  });

  it.each(cityIds)('directions and explain-supersafe in %s go to its function', (city) => {
    const body = { coordinates: [near(city), near(city, 0.01)], profile: 'cycling' };
    expect(routedCity('directions', request('/directions/v2', body))).toBe(city);
    expect(routedCity('explain-supersafe', request('/explain-supersafe', body))).toBe(city);
  });

  it('multi-modal by its start, end and stops, under either name of each', () => {
    expect(routedCity('multi-modal', request('/multi-modal/v2', { start: near('sf-bay'), end: near('sf-bay', 0.01) }))).toBe('sf-bay');
    expect(routedCity('multi-modal', request('/multi-modal', { origin: near('new-york'), destination: near('new-york', 0.01) }))).toBe('new-york');
    // A stop in another city makes it cross-city: any city's function answers that.
    const crossing = { start: near('los-angeles'), end: near('los-angeles', 0.01), stops: [near('sf-bay')] };
    expect(routedCity('multi-modal', request('/multi-modal/v2', crossing))).toBe(UNROUTED_REQUEST_CITY);
  });

  it('reads a base64 body as API Gateway passes binary ones', () => {
    expect(routedCity('directions', request('/directions/v2', { coordinates: [near('los-angeles'), near('los-angeles', 0.01)] }, true))).toBe('los-angeles');
  });

  it('sends what it cannot place to one city, whose function answers as the single one did', () => {
    const unplaced = ['not json', { coordinates: 'here' }, { coordinates: [[0, 0], [0.01, 0]] }, { coordinates: [near('london'), near('new-york')] }];
    for (const body of unplaced) expect(routedCity('directions', request('/directions/v2', body))).toBe(UNROUTED_REQUEST_CITY);
    expect(routedCity('directions', { ...request('/directions/v2', {}), body: null })).toBe(UNROUTED_REQUEST_CITY);
    expect(() => routedCity('reports-submit', request('/reports', {}))).toThrow(/not a routing endpoint/);
  });
});

describe('the dispatch', () => {
  afterEach(() => useCityInvoker(lambdaCityInvoker));

  it('hands the event unchanged to the city\'s function and returns its answer as it is', async () => {
    const calls: { city: CityId; event: APIGatewayProxyEvent }[] = [];
    const answer = { statusCode: 429, headers: { 'Retry-After': '12', 'x-custom': 'kept' }, body: '{"error":"Rate limit exceeded"}' };
    useCityInvoker(async (city, event) => {
      calls.push({ city, event });
      return answer;
    });
    const event = request('/directions/v2', { coordinates: [near('new-york'), near('new-york', 0.01)] });
    const original = structuredClone(event);
    expect(await dispatch(event, context)).toBe(answer);
    expect(calls).toEqual([{ city: 'new-york', event: original }]);
  });

  it('fails as a handler that throws (API Gateway\'s 502) when the city\'s function fails', async () => {
    useCityInvoker(async () => {
      throw new Error('The routing function of london failed (Unhandled: Error)');
    });
    await expect(dispatch(request('/explain-supersafe', { coordinates: [near('london'), near('london', 0.01)] }), context)).rejects.toThrow(/london failed/);
  });

  it('in AWS needs the stack to name each city\'s function', async () => {
    await expect(lambdaCityInvoker('london', request('/directions/v2', {}))).rejects.toThrow(/ROUTER_FUNCTION_LONDON is not set/);
  });

  it('the city function refuses an event of another endpoint', async () => {
    expect(() => cityRouter(request('/reports', {}), context)).toThrow(/No routing endpoint/);
  });
});
