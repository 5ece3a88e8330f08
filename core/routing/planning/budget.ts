import { haversineMetres, type LonLat } from '../../geo.ts';
import type { Profile } from '../../graph/profiles.ts';
import { RouteBudgetExceededError } from '../errors.ts';
import { SearchLimitReached } from '../search/search.ts';

/**
 * The compute budget of one request that plans routes (directions, explain-supersafe,
 * multi-modal, and the custom routes and events planned as directions): what one request may ask
 * of a router before it is refused with `ROUTE_BUDGET_EXCEEDED` (README, "Limits"), so that no
 * request holds a router for seconds. Two limits, checked at two moments:
 *
 * - Before any work, the straight-line length of the legs a request names (`checkRouteLength`):
 *   a cheap bound the endpoints check before the rate limit charges a token, and the planner
 *   again for every route it plans (a custom route's stops are known only once loaded).
 * - During the work, the states all of a request's searches settle together (`RouteBudget`):
 *   the bound on the work itself, since a search's effort grows with the network between its
 *   ends and not with their distance alone. A search that would settle more stops, and the
 *   request is refused; the work done is spent, so its tokens stay spent.
 *
 * The figures were sized by measurement (docs/benchmarks.md, "Compute budget per request"): a
 * request within them answers in well under 250 ms at p95 on New York, the largest served city,
 * in every profile, and so does a request refused during its searches.
 */
export const ROUTE_BUDGET = {
  /** Straight-line metres a request's legs may cover in all, by profile: a ride's day, a walk's afternoon. */
  routeMetres: { cycling: 100_000, walking: 30_000 } satisfies Record<Profile, number>,
  /** States all of a request's searches may settle together (every route it plans, every leg of each). */
  statesSettled: 150_000,
} as const;

/** The straight-line metres of the legs through `coordinates` in order. */
export function straightLineMetres(coordinates: readonly LonLat[]): number {
  let metres = 0;
  for (let index = 1; index < coordinates.length; index++) {
    const [fromLon, fromLat] = coordinates[index - 1]!;
    const [toLon, toLat] = coordinates[index]!;
    metres += haversineMetres(fromLon, fromLat, toLon, toLat);
  }
  return metres;
}

const kilometres = (metres: number) => `${(metres / 1000).toFixed(1)} km`;

/** Refuses a route through `coordinates` whose legs are longer in a straight line than a `profile` request may cover. */
export function checkRouteLength(profile: Profile, coordinates: readonly LonLat[]): void {
  const metres = straightLineMetres(coordinates);
  const allowed = ROUTE_BUDGET.routeMetres[profile];
  if (metres > allowed) {
    throw new RouteBudgetExceededError(
      'route_length',
      `The legs cover ${kilometres(metres)} in a straight line, more than the ${kilometres(allowed)} a ${profile} request may cover`,
    );
  }
}

/** States a request's searches may still settle: each search is limited to them and takes off what it settles. */
export interface SearchAllowance {
  states: number;
}

/**
 * The states one request's searches may still settle: made once per request and shared by every
 * route it plans (the route planner's `budget`). Each search is limited to what is left and
 * spends what it settles (leg.ts `searchLeg`).
 */
export class RouteBudget {
  readonly allowance: SearchAllowance;

  constructor(readonly statesSettled: number = ROUTE_BUDGET.statesSettled) {
    this.allowance = { states: statesSettled };
  }

  /** Runs a request's searches (`plan`) within the budget: a search that reaches the limit refuses the request. */
  within<T>(plan: () => T): T {
    try {
      return plan();
    } catch (error) {
      if (!(error instanceof SearchLimitReached)) throw error;
      throw new RouteBudgetExceededError(
        'states_settled',
        `The request's route searches reached ${this.statesSettled.toLocaleString('en')} settled states, the most one request may settle`,
      );
    }
  }
}
