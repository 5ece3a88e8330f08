import { describe, expect, it } from 'vitest';
import { ROUTE_BUDGET } from '../../core/routing/planning/budget.ts';
import { awayFromWindowEdge, call, londonPair, newKey } from '../support/running-platform.ts';

/**
 * The compute budget per request (core/routing/planning/budget.ts; README, "Limits on what a
 * request may be") over HTTP on the local platform: a route request longer in a straight line
 * than its profile may cover is refused 422 `ROUTE_BUDGET_EXCEEDED` before the rate limit charges
 * it, by every endpoint that plans routes; one whose searches reach the states a request may
 * settle is refused while it runs, and has spent its tokens.
 */

const key = () => newKey({ name: 'route budget', plan: 'enterprise', limits: { perMinute: 1000, perHour: 10_000, perDay: 100_000 } });
const remaining = (response: { headers: Headers }) => Number(response.headers.get('x-ratelimit-remaining'));

/** Lower Manhattan and Midtown, 4.9 km apart in a straight line; Flatiron, 3.7 km from the first. */
const FINANCIAL_DISTRICT = [-74.0088, 40.7075];
const MIDTOWN = [-73.9857, 40.7484];
const FLATIRON = [-73.9935, 40.739];
/** Late evening, dark in New York in June: the states the heavy requests below settle were measured for it. */
const NIGHT_DEPARTURE = '2026-06-15T22:30';
const backAndForth = (count: number, a: number[], b: number[]) => Array.from({ length: count }, (_, index) => (index % 2 ? b : a));

function expectRefusal(response: { status: number; body: any }, limit: RegExp): void {
  expect(response.status).toBe(422);
  expect(response.body.code).toBe('ROUTE_BUDGET_EXCEEDED');
  expect(response.body.error).toMatch(/split the trip/);
  expect(response.body.details).toMatch(limit);
}

describe('the compute budget of a route request', () => {
  it('refuses a route longer in a straight line than its profile may cover before any token is spent, on every endpoint that plans routes', async () => {
    await awayFromWindowEdge(60, 20);
    const walking = await key();
    // Eight points back and forth: 34.6 km, over the 30 km a walk may cover.
    const walk = await call('/directions/v2/', { key: walking, body: { coordinates: backAndForth(8, FINANCIAL_DISTRICT, MIDTOWN), profile: 'walking' } });
    expectRefusal(walk, new RegExp(`34\\.\\d km in a straight line, more than the ${ROUTE_BUDGET.routeMetres.walking / 1000}\\.0 km a walking request may cover`));
    expect(remaining(walk)).toBe(Number(walk.headers.get('x-ratelimit-limit')));
    const next = await call('/directions/v2/', { key: walking, body: { coordinates: londonPair } });
    expect(next.status).toBe(200);
    expect(remaining(next)).toBe(remaining(walk) - 1);

    // 25 points back and forth: 119 km, over a ride's 100 km.
    const ride = backAndForth(25, FINANCIAL_DISTRICT, MIDTOWN);
    const cycling = new RegExp(`more than the ${ROUTE_BUDGET.routeMetres.cycling / 1000}\\.0 km a cycling request may cover`);
    const explaining = await key();
    const explain = await call('/explain-supersafe/', { key: explaining, body: { coordinates: ride } });
    expectRefusal(explain, cycling);
    expect(remaining(explain)).toBe(Number(explain.headers.get('x-ratelimit-limit')));

    const trips = await key();
    const trip = await call('/multi-modal/v2/', { key: trips, body: { start: ride[0], end: ride[24], stops: ride.slice(1, 24) } });
    expectRefusal(trip, cycling);
    const after = await call('/multi-modal/v2/', { key: trips, body: { start: londonPair[0], end: londonPair[1] } });
    expect(after.status).toBe(200);
    expect(remaining(after)).toBe(remaining(trip) - 1);
  });

  it('refuses a request whose searches reach the states one request may settle, and charges it: the work was done', async () => {
    await awayFromWindowEdge(60, 20);
    // 25 points back and forth between the Financial District and Flatiron, 89.6 km, ridden at a
    // graded safety in the dark with the hill preference: within a ride's length, but a graded
    // costing weighs two metrics, so no hierarchy bounds it (the landmarks do), and night's
    // unlit-way costs lie above the landmarks' daytime bound: its searches settle over the budget.
    // (Supersafe and direct at night no longer come near it since their night hierarchies, nor does
    // a walk: walking's hierarchy keeps a 29.7 km walk of seven points to about 2,100 states.)
    const riding = await key();
    const ride = await call('/directions/v2/', {
      key: riding,
      body: { coordinates: backAndForth(25, FINANCIAL_DISTRICT, FLATIRON), safety: 'balanced', avoid_hills: true, nighttime: true, departure_time: NIGHT_DEPARTURE },
    });
    expectRefusal(ride, new RegExp(`reached ${ROUTE_BUDGET.statesSettled.toLocaleString('en')} settled states, the most one request may settle`));
    expect(remaining(ride)).toBe(Number(ride.headers.get('x-ratelimit-limit')) - 24);

    // The same points explained with the hill preference in the dark: its supersafe and direct routes together.
    const explaining = await key();
    const explain = await call('/explain-supersafe/', { key: explaining, body: { coordinates: backAndForth(25, FINANCIAL_DISTRICT, FLATIRON), safety: 'balanced', avoid_hills: true, nighttime: true, departure_time: NIGHT_DEPARTURE } });
    expectRefusal(explain, /settled states/);
    expect(remaining(explain)).toBe(Number(explain.headers.get('x-ratelimit-limit')) - 24);
  });

  it('still answers a request in no covered city with CROSS_CITY_ROUTE, however long', async () => {
    const response = await call('/directions/v2/', { key: await key(), body: { coordinates: [FINANCIAL_DISTRICT, londonPair[0]] } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('CROSS_CITY_ROUTE');
  });
});
