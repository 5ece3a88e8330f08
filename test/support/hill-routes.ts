import { cities, type CityId } from '../../core/cities/index.ts';
import { haversineMetres, type LonLat } from '../../core/geo.ts';
import { NODE_ELEVATION_KNOWN } from '../../core/graph/flags.ts';
import { costingFor, type RoutingContext } from '../../core/routing/planning/context.ts';
import { planWaypoints } from '../../core/routing/planning/leg.ts';
import { elevationProfile, routeBody, type RouteBody } from '../../core/routing/planning/route-body.ts';
import { departureIn } from '../../core/routing/time/departure.ts';
import { realGraph, seededRandom } from '../routing/real-graphs.ts';

/**
 * Routes for the hill preference, shared by test/routing/hills.test.ts and test/bench/hills.ts:
 * the real graph of a city at a Monday 10:30 departure, routes planned as the directions
 * endpoint plans them, and seeded pairs of nodes whose heights the model measured.
 */

export function hillContext(city: CityId): RoutingContext {
  return { city: cities[city], loaded: realGraph(city), departure: departureIn(cities[city].timeZone, '2026-06-15T10:30', new Date(0)), reports: null };
}

export interface HillRoute {
  body: RouteBody;
  profile: ReturnType<typeof elevationProfile>;
}

/** The route through `coordinates` as the directions endpoint plans it, with its elevation profile; null where there is none. */
export function planHillRoute(context: RoutingContext, coordinates: readonly LonLat[], options: { supersafe: boolean; avoidHills: boolean }): HillRoute | null {
  const costing = costingFor(context, { profile: 'cycling', night: false, ...options });
  const { legs } = planWaypoints(costing, context, coordinates, { language: 'en' });
  if (!legs) return null;
  const paths = legs.map((leg) => leg.path);
  return { body: routeBody(legs.flatMap((leg) => leg.steps), paths), profile: elevationProfile(context.loaded.network, paths) };
}

/**
 * Seeded pairs of graph nodes 1 to 5 km apart whose heights the model measured, that a supersafe
 * route joins (San Francisco's graph is two networks that do not meet).
 */
export function seededHillPairs(context: RoutingContext, count: number, seed: number): [LonLat, LonLat][] {
  const network = context.loaded.network;
  const graph = network.graph;
  const random = seededRandom(seed);
  const pairs: [LonLat, LonLat][] = [];
  while (pairs.length < count) {
    const [a, b] = [Math.floor(random() * graph.nodeCount), Math.floor(random() * graph.nodeCount)];
    if (!(graph.nodeFlags[a]! & graph.nodeFlags[b]! & NODE_ELEVATION_KNOWN)) continue;
    const pair: [LonLat, LonLat] = [[network.nodeLon(a), network.nodeLat(a)], [network.nodeLon(b), network.nodeLat(b)]];
    const metres = haversineMetres(pair[0][0], pair[0][1], pair[1][0], pair[1][1]);
    if (metres < 1000 || metres > 5000 || !planHillRoute(context, pair, { supersafe: true, avoidHills: false })) continue;
    pairs.push(pair);
  }
  return pairs;
}
