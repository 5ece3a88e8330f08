import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { CityId } from '../../core/cities/index.ts';
import type { CityInvoker } from '../../functions/dispatch/city-invoker.ts';
import { isShortTrip, SHORT_TRIP_METRES, shortTripsWhileIdleInProcess } from '../../lib/local/city-routers.ts';
import { asInvokePayload } from '../../lib/local/invocations.ts';

type Coordinates = [number, number][];

const directions = (coordinates: Coordinates, options: Partial<APIGatewayProxyEvent> = {}) =>
  ({ resource: '/directions/v2', body: JSON.stringify({ coordinates }), isBase64Encoded: false, ...options }) as APIGatewayProxyEvent;

/** Real places in New York: Washington Square to Union Square is 0.8 km in a straight line, City Hall to the north end of Central Park 10 km. */
const WASHINGTON_SQUARE: [number, number] = [-73.9973, 40.7308];
const UNION_SQUARE: [number, number] = [-73.9903, 40.7359];
const CITY_HALL: [number, number] = [-74.006, 40.7128];
const GRAND_CENTRAL: [number, number] = [-73.9772, 40.7527];
const CENTRAL_PARK_NORTH: [number, number] = [-73.9497, 40.7969];

describe('a short trip, which the local platform may run in its own thread', () => {
  it('is a valid directions request whose legs cover at most 5 km in a straight line', () => {
    expect(SHORT_TRIP_METRES).toBe(5_000);
    expect(isShortTrip(directions([WASHINGTON_SQUARE, UNION_SQUARE]))).toBe(true);
    expect(isShortTrip(directions([WASHINGTON_SQUARE, UNION_SQUARE, WASHINGTON_SQUARE, UNION_SQUARE]))).toBe(true);
    // The legs are added up: each under 5 km, together over.
    expect(isShortTrip(directions([CITY_HALL, WASHINGTON_SQUARE, GRAND_CENTRAL, UNION_SQUARE]))).toBe(false);
    expect(isShortTrip(directions([CITY_HALL, CENTRAL_PARK_NORTH]))).toBe(false);
  });

  it('reads a base64 body as API Gateway passes one', () => {
    const body = Buffer.from(JSON.stringify({ coordinates: [WASHINGTON_SQUARE, UNION_SQUARE] })).toString('base64');
    expect(isShortTrip(directions([], { body, isBase64Encoded: true }))).toBe(true);
  });

  it('is never a request of another routing endpoint, nor one that does not validate', () => {
    expect(isShortTrip(directions([WASHINGTON_SQUARE, UNION_SQUARE], { resource: '/explain/supersafe' }))).toBe(false);
    expect(isShortTrip(directions([WASHINGTON_SQUARE]))).toBe(false);
    expect(isShortTrip(directions([], { body: '{"coordinates": [[' }))).toBe(false);
    expect(isShortTrip(directions([], { body: null }))).toBe(false);
  });
});

describe('the cities’ routing functions in threads, short trips in this thread while idle', () => {
  /** Stand-in invokers that record where each call went and answer when released. */
  function placements() {
    const calls: { where: 'thread' | 'in-process'; release: (answer: APIGatewayProxyResult) => void; fail: (error: Error) => void }[] = [];
    const started: CityId[] = [];
    const stand = (where: 'thread' | 'in-process'): CityInvoker => () =>
      new Promise((resolve, reject) => calls.push({ where, release: resolve, fail: reject }));
    const invoker = shortTripsWhileIdleInProcess(stand('thread'), stand('in-process'), (city) => started.push(city));
    return { calls, started, invoker };
  }
  const city: CityId = 'new-york';
  const ok = { statusCode: 200, body: '{}' };
  const short = directions([WASHINGTON_SQUARE, UNION_SQUARE]);
  const long = directions([CITY_HALL, CENTRAL_PARK_NORTH]);

  it("runs a short trip in this thread when no routing invocation is running, and starts the city's thread for later", async () => {
    const { calls, started, invoker } = placements();
    const answered = invoker(city, short);
    expect(calls.map((call) => call.where)).toEqual(['in-process']);
    expect(started).toEqual([city]);
    calls[0]!.release(ok);
    expect(await answered).toEqual(ok);
  });

  it("sends a longer trip and another endpoint's request to the city's thread", () => {
    const { calls, invoker } = placements();
    void invoker(city, long);
    void invoker(city, directions([WASHINGTON_SQUARE, UNION_SQUARE], { resource: '/explain/supersafe' }));
    expect(calls.map((call) => call.where)).toEqual(['thread', 'thread']);
  });

  it("sends a short trip to the city's thread while any routing invocation runs, and runs the next one here once none does", async () => {
    const { calls, invoker } = placements();
    const heavy = invoker(city, long);
    const beside = invoker('london', short);
    const besideInProcess = invoker(city, short);
    expect(calls.map((call) => call.where)).toEqual(['thread', 'thread', 'thread']);
    calls.forEach((call) => call.release(ok));
    await Promise.all([heavy, beside, besideInProcess]);
    void invoker(city, short);
    expect(calls[3]!.where).toBe('in-process');
  });

  it('counts a short trip in this thread as running until it answers, and one that fails as finished', async () => {
    const { calls, invoker } = placements();
    const first = invoker(city, short);
    void invoker(city, short);
    expect(calls.map((call) => call.where)).toEqual(['in-process', 'thread']);
    calls[1]!.release(ok);
    calls[0]!.fail(new TypeError('the function threw'));
    await expect(first).rejects.toThrow('the function threw');
    void invoker(city, short);
    expect(calls[2]!.where).toBe('in-process');
  });
});

describe("the payloads between the platform's functions", () => {
  const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

  it('are what a JSON round trip gives, with a string body kept as the same text', () => {
    // An answer's body is JSON text: quotes, escapes, non-ASCII and a lone surrogate all come back unchanged.
    const answer = {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'X-Skipped': undefined },
      body: JSON.stringify({ name: 'Calle "Mayor" \\ Señor', lone: '\ud800', line: 'a\nb' }),
      isBase64Encoded: false,
    };
    const carried = asInvokePayload(answer);
    expect(carried).toEqual(roundTrip(answer));
    expect(carried.body).toBe(answer.body);
    expect('X-Skipped' in carried.headers).toBe(false);
  });

  it('carry a body that is not a string as JSON does: null stays null, an object is copied, undefined is dropped', () => {
    const when = new Date('2026-06-15T08:30:00Z');
    for (const body of [null, { at: when, kept: [1, undefined] }, undefined]) {
      const event = { resource: '/directions/v2', body, requestContext: { requestTimeEpoch: 1, at: when } };
      const carried = asInvokePayload(event);
      expect(carried).toEqual(roundTrip(event));
      expect(Object.keys(carried).sort()).toEqual(Object.keys(roundTrip(event)).sort());
    }
  });
});
