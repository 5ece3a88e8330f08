import { randomUUID } from 'node:crypto';
import { cityForCoordinates, type City } from '../../core/cities/index.ts';
import { type Position } from '../../core/geo.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import { costingFor, disruptionsAlong, nightFor } from '../../core/routing/planning/context.ts';
import { planWaypoints, waypointOf, type PlannedLeg } from '../../core/routing/planning/leg.ts';
import { elevationProfile, routeBody, safetyBreakdown, type ElevationProfile, type RouteBody, type SafetyBreakdown } from '../../core/routing/planning/route-body.ts';
import { now as platformNow } from '../../platform/clock.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { routingContext } from '../graphs/context-loader.ts';
import type { DirectionsRequest } from './request.ts';

/**
 * Directions as domain logic: from a validated request to the spec 4.1 response body. Knows
 * nothing of HTTP; the handler maps the outcomes to status codes. The legs are planned by the
 * engine's leg planning (core/routing/planning/leg.ts), as multi-modal options and the
 * explanation are; events and custom routes plan their routes here too.
 */

export type { RouteBody };

export const NIGHT_SUBLABEL = 'Prefers well-lit roads';

export interface LegBody extends RouteBody {
  mode: DirectionsRequest['profile'];
}

export interface DirectionsBody {
  route: RouteBody | null;
  legs?: LegBody[];
  waypoints: { name: string; location: Position }[];
  search_id: string;
  graph_version: string | null;
  sublabel: string | null;
  disruptions?: Disruption[];
  metadata: {
    profile: DirectionsRequest['profile'];
    supersafe: boolean;
    nighttime: boolean;
    waypoint_count: number;
    /** Beyond the spec: whether the hill preference shaped the route (cycling with `avoid_hills`). */
    avoid_hills: boolean;
    /**
     * Beyond the spec (cycling): metres of the route ridden per safety class, and the metres where
     * the rider pushes the bike (a footway, steps), which belong to no class.
     */
    safety_breakdown?: SafetyBreakdown;
    /** Beyond the spec: the route's height along it, where an elevation model covers it (route-body.ts `elevationProfile`). */
    elevation_profile?: ElevationProfile;
  };
}

export type DirectionsOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'routed'; body: DirectionsBody };

/**
 * What a request's planning tells operators: legs planned, their search effort and time; or why
 * its route is null (a coordinate too far from any usable way, or no way between them).
 */
function recordPlanning(city: City, costing: string, snaps: readonly (unknown | null)[], legs: readonly PlannedLeg[] | null, milliseconds: number): void {
  const unsnapped = snaps.filter((snap) => snap === null).length;
  if (unsnapped > 0) recordMetric('SnapFailures', unsnapped, { City: city.id });
  if (!legs) {
    recordMetric('RoutesNull', 1, { City: city.id, Reason: unsnapped > 0 ? 'unsnappable' : 'unreachable' });
    return;
  }
  const dimensions = { City: city.id, Costing: costing };
  recordMetric('SearchTime', milliseconds, dimensions);
  for (const leg of legs) {
    recordMetric('RoutesPlanned', 1, dimensions);
    recordMetric('StatesSettled', leg.statesSettled, dimensions);
  }
}

/** `now` fills in a missing departure: the platform clock's (platform/clock.ts) unless the caller passes its own. */
export async function planDirections(request: DirectionsRequest, now: Date = platformNow()): Promise<DirectionsOutcome> {
  const searchId = randomUUID();
  const city: City | null = cityForCoordinates(request.coordinates);
  if (!city) return { kind: 'cross-city', searchId };

  const cycling = request.profile === 'cycling';
  const context = await routingContext(city, request.departure_time, now, { cycling });
  const nighttime = cycling && nightFor(context, request.coordinates[0]!, request.nighttime);
  const costing = costingFor(context, { profile: request.profile, supersafe: request.supersafe, night: nighttime, avoidHills: request.avoid_hills });

  // `bearing` constrains how a cycling route leaves the first coordinate (spec 4.1: cycling only).
  const planningStarted = performance.now();
  const { snaps, legs } = planWaypoints(costing, context, request.coordinates, { language: request.language, bearing: cycling ? request.bearing : undefined });
  recordPlanning(city, costing.metric, snaps, legs, performance.now() - planningStarted);
  const body: DirectionsBody = {
    route: null,
    waypoints: request.coordinates.map((coordinate, index) => waypointOf(costing, snaps[index] ?? null, coordinate)),
    search_id: searchId,
    graph_version: cycling ? context.loaded.version : null,
    sublabel: nighttime ? NIGHT_SUBLABEL : null,
    metadata: { profile: request.profile, supersafe: cycling && request.supersafe, nighttime, waypoint_count: request.coordinates.length, avoid_hills: costing.avoidsHills },
  };
  if (!legs) return { kind: 'routed', body };

  const legBodies = legs.map(({ path, steps }) => ({ ...routeBody(steps, [path]), mode: request.profile }));
  body.route = routeBody(legs.flatMap((leg) => leg.steps), legs.map((leg) => leg.path));
  if (legs.length > 1) body.legs = legBodies;
  const profile = elevationProfile(context.loaded.network, legs.map((leg) => leg.path));
  if (profile) body.metadata.elevation_profile = profile;
  if (cycling) {
    body.metadata.safety_breakdown = safetyBreakdown(legs.map((leg) => leg.path));
    const disruptions = disruptionsAlong(context, body.route.geometry.coordinates);
    if (disruptions.length) body.disruptions = disruptions;
  }
  return { kind: 'routed', body };
}
