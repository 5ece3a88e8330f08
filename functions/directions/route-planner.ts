import { cityForCoordinates, type City } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import type { Profile } from '../../core/graph/profiles.ts';
import { checkRouteLength } from '../../core/routing/planning/budget.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import { RoutePlanner, type PlannedRoute, type RoutePreferences } from '../../core/routing/planning/planner.ts';
import { recordMetric } from '../../platform/metrics.ts';

/**
 * The route planner (core/routing/planning/planner.ts) as the endpoints that plan routes
 * (directions, explain-supersafe, multi-modal) make it for a request: every route it plans is
 * recorded in the platform's metrics, whichever endpoint asked.
 */

/**
 * The compute budget's check before any work (core/routing/planning/budget.ts), as the endpoints
 * that plan routes make it before the rate limit charges a token: the straight-line length of the
 * route a request names. Coordinates that do not lie in one covered city are left to planning,
 * which answers them `CROSS_CITY_ROUTE`.
 */
export function checkRequestedRoute(profile: Profile, coordinates: readonly LonLat[]): void {
  if (cityForCoordinates(coordinates)) checkRouteLength(profile, coordinates);
}

export function routePlanner(context: RoutingContext, preferences: RoutePreferences, start: LonLat): RoutePlanner {
  return new RoutePlanner(context, preferences, start, { onPlanned: (route) => recordPlannedRoute(context.city, route) });
}

/**
 * What a route's planning tells operators: legs planned, their search effort and time; or why
 * the route is null, as the answer tells the rider (`metadata.no_route_reason`: one of
 * core/routing/planning/leg.ts `NO_ROUTE_REASONS`).
 */
function recordPlannedRoute(city: City, { costing, snaps, legs, noRoute, milliseconds }: PlannedRoute): void {
  const unsnapped = snaps.filter((snap) => snap === null).length;
  if (unsnapped > 0) recordMetric('SnapFailures', unsnapped, { City: city.id });
  if (!legs) {
    // Planning gives a null route its reason; only a planner that broke that rule would leave it out.
    if (noRoute) recordMetric('RoutesNull', 1, { City: city.id, Reason: noRoute.reason });
    return;
  }
  const dimensions = { City: city.id, Costing: costing.metric };
  recordMetric('SearchTime', milliseconds, dimensions);
  for (const leg of legs) {
    recordMetric('RoutesPlanned', 1, dimensions);
    recordMetric('StatesSettled', leg.statesSettled, dimensions);
  }
}
