import { cities, type CityId } from '../../core/cities/index.ts';
import type { LonLat } from '../../core/geo.ts';
import type { RoutingContext } from '../../core/routing/planning/context.ts';
import { RoutePlanner } from '../../core/routing/planning/planner.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { coordinatePairs } from '../bench/routino.ts';
import { realGraph } from '../routing/real-graphs.ts';

/**
 * Alternative routes on the real graphs, shared by test/routing/alternatives.test.ts and
 * test/bench/alternatives.ts: a city's graph at a weekday noon (daylight everywhere, no reports),
 * a planner per request as directions makes one, and seeded coordinate pairs 1 to 6 km apart
 * (the Routino comparison's, `coordinatePairs`).
 */

export const ALTERNATIVES_DEPARTURE = '2026-06-17T12:00';

export function alternativesContext(city: CityId): RoutingContext {
  return { city: cities[city], loaded: realGraph(city), departure: departureIn(cities[city].timeZone, ALTERNATIVES_DEPARTURE, new Date(0)), reports: null };
}

/** A request's planner, by day, in English, without the hill preference. */
export const plannerFor = (context: RoutingContext, pair: readonly [LonLat, LonLat]): RoutePlanner =>
  new RoutePlanner(context, { language: 'en', avoidHills: false, nighttime: false }, pair[0]);

export function seededPairs(context: RoutingContext, count: number, seed: number): [LonLat, LonLat][] {
  return coordinatePairs(context.loaded, count, seed);
}
