import type { CityId } from '../cities/index.ts';

/**
 * Routing's refusals, in a module of their own so the HTTP boundary can map them
 * (functions/http/errors.ts) without loading the graph store.
 */

/** No graph can be loaded for the city right now; the cause stays in the error, out of any answer. */
export class GraphUnavailableError extends Error {
  constructor(readonly city: CityId, cause: unknown) {
    super(`No routing graph could be loaded for ${city}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'GraphUnavailableError';
  }
}

/** Which limit of a request's compute budget (planning/budget.ts) refused it. */
export type RouteBudgetLimit = 'route_length' | 'states_settled';

/**
 * A request would need more routing work than one request may do (planning/budget.ts): the
 * message names the limit and the figures; the answer tells the caller to split the trip.
 */
export class RouteBudgetExceededError extends Error {
  constructor(readonly limit: RouteBudgetLimit, message: string) {
    super(message);
    this.name = 'RouteBudgetExceededError';
  }
}
