import type { BicycleType } from '../../core/routing/costing/bicycle-types.ts';
import { randomUUID } from 'node:crypto';
import { cityForCoordinates, type City } from '../../core/cities/index.ts';
import { type Position } from '../../core/geo.ts';
import { DIRECT_SAFETY, plannedSafety, SUPERSAFE_SAFETY } from '../../core/routing/costing/safety.ts';
import type { AlternativeLeg } from '../../core/routing/planning/alternatives.ts';
import type { NoRouteReason } from '../../core/routing/planning/leg.ts';
import type { RoutePlanner } from '../../core/routing/planning/planner.ts';
import type { Disruption } from '../../core/routing/disruptions/disruptions.ts';
import { waypointOf } from '../../core/routing/planning/leg.ts';
import { elevationProfile, routeBody, safetyBreakdown, type ElevationProfile, type RouteBody, type SafetyBreakdown } from '../../core/routing/planning/route-body.ts';
import { now as platformNow } from '../../platform/clock.ts';
import { routingContext } from '../graphs/context-loader.ts';
import { noRouteMessage } from './no-route.ts';
import { routePlanner } from './route-planner.ts';
import { alternativeCount, requestedSafety, routePreferencesOf, type DirectionsRequest } from './request.ts';

/**
 * Directions as domain logic: from a validated request to the spec 4.1 response body. Knows
 * nothing of HTTP; the handler maps the outcomes to status codes. It loads the routing context,
 * asks the route planner (core/routing/planning/planner.ts, through ./planner.ts, which records
 * the route's metrics) for the one route, as multi-modal options and the explanation do, and
 * shapes the answer; events and custom routes plan their routes here too.
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
  alternatives?: AlternativeBody[];
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
    /** Beyond the spec, with `route: null`: why (no-route.ts). */
    no_route_reason?: NoRouteReason;
    no_route_message?: string;
    /** Beyond the spec: the graded safety the cycling route was planned at, when the request gave `safety`. */
    safety?: number;
    /** Beyond the spec: the bicycle type the cycling route was planned for, when the request gave `bicycle_type`. */
    bicycle_type?: BicycleType;
  };
}

/** Beyond the spec: an alternative route (`alternatives`), with what the answer's metadata and disruptions say of the route. */
export interface AlternativeBody extends RouteBody {
  cost_ratio: number;
  shared_share: number;
  safety_breakdown: SafetyBreakdown;
  elevation_profile?: ElevationProfile;
  disruptions?: Disruption[];
}

export type DirectionsOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'routed'; body: DirectionsBody };

/** `now` fills in a missing departure: the platform clock's (platform/clock.ts) unless the caller passes its own. */
export async function planDirections(request: DirectionsRequest, now: Date = platformNow()): Promise<DirectionsOutcome> {
  const searchId = randomUUID();
  const city: City | null = cityForCoordinates(request.coordinates);
  if (!city) return { kind: 'cross-city', searchId };

  const cycling = request.profile === 'cycling';
  const context = await routingContext(city, request.departure_time, now, { cycling });
  const planner = routePlanner(context, routePreferencesOf(request), request.coordinates[0]!);
  const nighttime = cycling && planner.night;
  // `safety` (beyond the spec) grades the route asked as supersafe; 0 is the direct route itself.
  const safety = requestedSafety(request);
  const variant = { profile: request.profile, supersafe: safety > DIRECT_SAFETY };
  const planned = planner.route(variant, request.coordinates);
  const { costing, snaps, legs, noRoute } = planned;
  const body: DirectionsBody = {
    route: null,
    waypoints: request.coordinates.map((coordinate, index) => waypointOf(costing, snaps[index] ?? null, coordinate)),
    search_id: searchId,
    graph_version: cycling ? context.loaded.version : null,
    sublabel: nighttime ? NIGHT_SUBLABEL : null,
    metadata: { profile: request.profile, supersafe: cycling && safety === SUPERSAFE_SAFETY, nighttime, waypoint_count: request.coordinates.length, avoid_hills: costing.avoidsHills },
  };
  if (cycling && request.safety !== undefined) body.metadata.safety = plannedSafety(safety);
  if (cycling && request.bicycle_type !== undefined) body.metadata.bicycle_type = request.bicycle_type;
  if (!legs) {
    if (noRoute) Object.assign(body.metadata, { no_route_reason: noRoute.reason, no_route_message: noRouteMessage(request.language, noRoute) });
    return { kind: 'routed', body };
  }

  const legBodies = legs.map(({ path, steps }) => ({ ...routeBody(steps, [path]), mode: request.profile }));
  body.route = routeBody(legs.flatMap((leg) => leg.steps), legs.map((leg) => leg.path));
  if (legs.length > 1) body.legs = legBodies;
  const profile = elevationProfile(context.loaded.network, legs.map((leg) => leg.path));
  if (profile) body.metadata.elevation_profile = profile;
  if (cycling) {
    body.metadata.safety_breakdown = safetyBreakdown(legs.map((leg) => leg.path));
    const disruptions = planner.disruptionsAlong(body.route.geometry.coordinates);
    if (disruptions.length) body.disruptions = disruptions;
  }
  const count = alternativeCount(request);
  if (count > 0) {
    // `directionsBody` allows alternatives between two coordinates only.
    const [from, to] = request.coordinates;
    body.alternatives = planner.alternatives(variant, [from!, to!], planned, count).map((alternative) => alternativeBody(planner, alternative));
  }
  return { kind: 'routed', body };
}

/** An alternative as the answer lists it: its route body, its cost and sharing, and its own breakdown, heights and disruptions. */
function alternativeBody(planner: RoutePlanner, { leg, costRatio, sharedShare }: AlternativeLeg): AlternativeBody {
  const body: AlternativeBody = {
    ...routeBody(leg.steps, [leg.path]),
    cost_ratio: Math.round(costRatio * 1000) / 1000,
    shared_share: Math.round(sharedShare * 1000) / 1000,
    safety_breakdown: safetyBreakdown([leg.path]),
  };
  const profile = elevationProfile(planner.context.loaded.network, [leg.path]);
  if (profile) body.elevation_profile = profile;
  const disruptions = planner.disruptionsAlong(body.geometry.coordinates);
  if (disruptions.length) body.disruptions = disruptions;
  return body;
}
