import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cities } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import { RouteBudgetExceededError } from '../../core/routing/errors.ts';
import { checkRouteLength, ROUTE_BUDGET, RouteBudget, straightLineMetres } from '../../core/routing/planning/budget.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import { RoutePlanner, type PlannedRoute, type RouteVariant } from '../../core/routing/planning/planner.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { realGraph } from './real-graphs.ts';

/**
 * The compute budget per request (core/routing/planning/budget.ts) on New York's real graph: the
 * straight-line length refused before any search, and the states all of a request's searches
 * settle counted against one limit that stops the search exactly where it is reached.
 */

const WALKING: RouteVariant = { profile: 'walking', supersafe: false };
const DIRECT: RouteVariant = { profile: 'cycling', supersafe: false };
/** Lower Manhattan to Midtown and back down to the Village: three walks of a few kilometres. */
const TRIP: LonLat[] = [
  [-74.0088, 40.7075],
  [-73.9857, 40.7484],
  [-74.0007, 40.7336],
];

/** A trip straight north from Lower Manhattan covering `metres` in a straight line. */
const northwards = (metres: number): LonLat[] => [
  [-74.0, 40.7],
  [-74.0, 40.7 + metres / 111_195],
];

let context: RoutingContext;
beforeAll(() => {
  const city = cities['new-york'];
  context = { city, loaded: realGraph('new-york'), departure: departureIn(city.timeZone, '2026-06-15T12:00', new Date(0)), reports: null };
});

const planner = (budget: RouteBudget) => new RoutePlanner(context, { language: 'en', avoidHills: false }, TRIP[0]!, { budget });
const statesOf = (route: PlannedRoute) => route.legs!.reduce((sum, leg) => sum + leg.statesSettled, 0);
const refusalOf = (plan: () => unknown): RouteBudgetExceededError => {
  try {
    plan();
  } catch (error) {
    if (error instanceof RouteBudgetExceededError) return error;
    throw error;
  }
  throw new Error('The plan was not refused');
};

describe('the compute budget per request', () => {
  it("refuses legs longer in a straight line than the profile's limit, naming the figures", () => {
    for (const profile of ['cycling', 'walking'] as const) {
      const allowed = ROUTE_BUDGET.routeMetres[profile];
      expect(() => checkRouteLength(profile, northwards(allowed * 0.99))).not.toThrow();
      const refusal = refusalOf(() => checkRouteLength(profile, northwards(allowed * 1.1)));
      expect(refusal.limit).toBe('route_length');
      expect(refusal.message).toContain(`${(allowed / 1000).toFixed(1)} km a ${profile} request may cover`);
      expect(refusal.message).toContain(`${((allowed * 1.1) / 1000).toFixed(1)} km in a straight line`);
    }
    // Every leg counts: the sum of the legs, not the distance from the first point to the last.
    const there = northwards(ROUTE_BUDGET.routeMetres.walking * 0.6);
    expect(straightLineMetres([...there, there[0]!])).toBeCloseTo(ROUTE_BUDGET.routeMetres.walking * 1.2, -2);
    expect(refusalOf(() => checkRouteLength('walking', [...there, there[0]!])).limit).toBe('route_length');
  });

  it('checks the length before any search when the planner plans a route', () => {
    const budget = new RouteBudget();
    const refusal = refusalOf(() => planner(budget).route(WALKING, northwards(ROUTE_BUDGET.routeMetres.walking * 1.1)));
    expect(refusal.limit).toBe('route_length');
    expect(budget.allowance.states).toBe(ROUTE_BUDGET.statesSettled);
  });

  it('answers a request whose searches settle exactly the budget, and refuses one state less, where the search reaches it', () => {
    const unlimited = planner(new RouteBudget(Infinity)).route(WALKING, TRIP);
    const states = statesOf(unlimited);
    // A search of hundreds of states (walking's hierarchy bound keeps it near the route), so the
    // budget one state short stops it well inside.
    expect(states).toBeGreaterThan(200);

    const exact = new RouteBudget(states);
    const answered = planner(exact).route(WALKING, TRIP);
    expect(answered.legs!.map((leg) => leg.path.coordinates)).toEqual(unlimited.legs!.map((leg) => leg.path.coordinates));
    expect(exact.allowance.states).toBe(0);

    const short = new RouteBudget(states - 1);
    const refusal = refusalOf(() => planner(short).route(WALKING, TRIP));
    expect(refusal.limit).toBe('states_settled');
    expect(refusal.message).toContain(`reached ${(states - 1).toLocaleString('en')} settled states`);
    expect(short.allowance.states).toBe(0);

    // The refused search left the shared workspace as a finished one: the next request plans as before.
    const again = planner(new RouteBudget(Infinity)).route(WALKING, TRIP);
    expect(statesOf(again)).toBe(states);
    expect(again.legs!.map((leg) => leg.path.coordinates)).toEqual(unlimited.legs!.map((leg) => leg.path.coordinates));
  });

  it("counts every route of a request against one budget, a direct leg's two searches and a planner with other preferences included", () => {
    const budget = new RouteBudget();
    const first = planner(budget);
    const direct = first.route(DIRECT, TRIP);
    const walk = first.withPreferences({ language: 'es', avoidHills: true }).route(WALKING, TRIP);
    expect(budget.allowance.states).toBe(ROUTE_BUDGET.statesSettled - statesOf(direct) - statesOf(walk));

    // A budget spent by earlier routes refuses the next one.
    const spent = new RouteBudget(statesOf(direct) + statesOf(walk) - 1);
    const request = planner(spent);
    request.route(DIRECT, TRIP);
    expect(refusalOf(() => request.withPreferences(request.preferences).route(WALKING, TRIP)).limit).toBe('states_settled');
  });
});

describe("the README's Limits", () => {
  it("state the budget's own figures, with its code", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const row = (starting: string) => readme.split('\n').find((line) => line.startsWith(`| ${starting}`)) ?? '';
    const length = row("Straight-line length of a route request's legs");
    expect(length).toContain(`${ROUTE_BUDGET.routeMetres.cycling / 1000} km cycling, ${ROUTE_BUDGET.routeMetres.walking / 1000} km walking`);
    expect(length).toContain('`code: ROUTE_BUDGET_EXCEEDED`');
    const states = row("States all of a request's route searches may settle");
    expect(states).toContain(`| ${ROUTE_BUDGET.statesSettled.toLocaleString('en')},`);
    expect(states).toContain('`code: ROUTE_BUDGET_EXCEEDED`');
    for (const line of [length, states]) expect(line).toContain('split the trip into several requests');
  });
});
