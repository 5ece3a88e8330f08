import { randomUUID } from 'node:crypto';
import { cityForCoordinates, type City } from '../../core/cities/index.ts';
import { Costing } from '../../core/routing/costing.ts';
import { departureIn, isNight } from '../routing/departure.ts';
import { disruptionsNear, reportDisruptions, type Disruption } from '../routing/disruptions.ts';
import { SAFETY_CLASSES, type SafetyClass } from '../../core/graph/flags.ts';
import { cityGraph, type LoadedGraph } from '../routing/graph-store.ts';
import { cityOverlay } from '../routing/report-overlay.ts';
import { buildSteps, type Step } from '../routing/guidance/steps.ts';
import { appendPositions, buildPath, type RoutedPath, type Stop } from '../routing/path.ts';
import { type Position } from '../../core/geo.ts';
import { findRoute } from '../routing/search.ts';
import { positionsAt, segmentLabel, snapForCosting, type Snap } from '../routing/snap.ts';
import type { DirectionsRequest } from './request.ts';

/**
 * Directions as domain logic: from a validated request to the spec 4.1 response body. Knows
 * nothing of HTTP; the handler maps the outcomes to status codes.
 */

export const NIGHT_SUBLABEL = 'Prefers well-lit roads';

export interface RouteBody {
  distance: number;
  duration: number;
  elevation_gain: number;
  elevation_loss: number;
  safety_code: number;
  geometry: { type: 'LineString'; coordinates: Position[] };
  steps: Step[];
  stops: Stop[];
}

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
    /**
     * Beyond the spec (cycling): metres of the route ridden per safety class, and the metres where
     * the rider pushes the bike (a footway, steps), which belong to no class.
     */
    safety_breakdown?: Record<SafetyClass | 'pushed', number>;
  };
}

export type DirectionsOutcome = { kind: 'cross-city'; searchId: string } | { kind: 'routed'; body: DirectionsBody };

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The deprecated `safety_code` of a route or leg (spec 4.1: the mean of its steps' codes), over
 * the steps that carry a safety classification: the ridden steps. Arrive steps and steps where
 * the bike is pushed (walking steps) have none and do not count; a route with no ridden step
 * (walking) has 0.
 */
export function meanSafetyCode(steps: readonly Step[]): number {
  const ridden = steps.filter((step) => step.safety_classification !== undefined);
  return ridden.length ? ridden.reduce((sum, step) => sum + step.safety_code, 0) / ridden.length : 0;
}

function routeBody(steps: Step[], paths: RoutedPath[]): RouteBody {
  const coordinates: Position[] = [];
  for (const path of paths) appendPositions(coordinates, path.coordinates);
  if (coordinates.length === 1) coordinates.push(coordinates[0]!);
  const distance = paths.reduce((sum, path) => sum + path.distance, 0);
  return {
    distance: round1(distance),
    duration: round1(paths.reduce((sum, path) => sum + path.duration, 0)),
    elevation_gain: round1(paths.reduce((sum, path) => sum + path.ascent, 0)),
    elevation_loss: round1(paths.reduce((sum, path) => sum + path.descent, 0)),
    safety_code: meanSafetyCode(steps),
    geometry: { type: 'LineString', coordinates },
    steps,
    stops: paths.flatMap((path) => path.stops),
  };
}

export async function planDirections(request: DirectionsRequest, now: Date = new Date()): Promise<DirectionsOutcome> {
  const searchId = randomUUID();
  const city: City | null = cityForCoordinates(request.coordinates);
  if (!city) return { kind: 'cross-city', searchId };

  const cycling = request.profile === 'cycling';
  const departure = departureIn(city.timeZone, request.departure_time, now);
  const [firstLon, firstLat] = request.coordinates[0]!;
  const nighttime = cycling && city.lightingData && (request.nighttime ?? isNight(departure.instant, firstLon, firstLat));
  const loaded: LoadedGraph = await cityGraph(city.id);
  const network = loaded.network;
  // Accepted road reports (closures, one-way, removed turns, hazards) bend cycling routes only.
  const reports = cycling ? await cityOverlay(loaded) : null;
  const costing = new Costing(
    network,
    { profile: request.profile, supersafe: cycling && request.supersafe, night: nighttime, departureMinute: departure.localMinute },
    reports?.overlay ?? null,
  );
  const usable = (edge: number) => costing.usable(edge);
  const open = (edge: number) => costing.openAtDeparture(edge);

  const last = request.coordinates.length - 1;
  const snaps: (Snap | null)[] = request.coordinates.map((coordinate, index) => snapForCosting(costing, coordinate, index === last ? 'to' : 'from'));
  const waypoints = request.coordinates.map((coordinate, index) => {
    const snapped = snaps[index];
    return snapped
      ? { name: segmentLabel(network, snapped.segment), location: snapped.location.map((value) => Math.round(value * 1e6) / 1e6) as Position }
      : { name: '', location: [coordinate[0], coordinate[1]] as Position };
  });

  const legs: { path: RoutedPath; steps: Step[] }[] = [];
  let reachable = snaps.every((snapped) => snapped !== null);
  for (let index = 0; reachable && index + 1 < snaps.length; index++) {
    const from = snaps[index]!;
    const to = snaps[index + 1]!;
    // `bearing` constrains how a cycling route leaves the first coordinate (spec 4.1: cycling only).
    const sources = positionsAt(network, open, from, index === 0 && cycling ? request.bearing : undefined);
    const targets = positionsAt(network, open, to);
    const result = sources.length && targets.length ? findRoute(costing, loaded.workspace, sources, targets, to.location) : null;
    if (!result) {
      reachable = false;
      break;
    }
    const path = buildPath(network, result, request.profile);
    legs.push({ path, steps: buildSteps(network, usable, path, { profile: request.profile, language: request.language }) });
  }

  const body: DirectionsBody = {
    route: null,
    waypoints,
    search_id: searchId,
    graph_version: cycling ? loaded.version : null,
    sublabel: nighttime ? NIGHT_SUBLABEL : null,
    metadata: { profile: request.profile, supersafe: cycling && request.supersafe, nighttime, waypoint_count: request.coordinates.length },
  };
  if (!reachable) return { kind: 'routed', body };

  const legBodies = legs.map(({ path, steps }) => ({ ...routeBody(steps, [path]), mode: request.profile }));
  body.route = routeBody(legs.flatMap((leg) => leg.steps), legs.map((leg) => leg.path));
  if (legs.length > 1) body.legs = legBodies;
  if (cycling) {
    const breakdown = Object.fromEntries([...SAFETY_CLASSES, 'pushed'].map((key) => [key, 0])) as Record<SafetyClass | 'pushed', number>;
    for (const leg of legs) for (const edge of leg.path.edges) breakdown[edge.pushed ? 'pushed' : edge.safety] += edge.length;
    for (const key of Object.keys(breakdown) as (SafetyClass | 'pushed')[]) breakdown[key] = Math.round(breakdown[key]);
    body.metadata.safety_breakdown = breakdown;
    const disruptions = [
      ...disruptionsNear(network, body.route.geometry.coordinates, departure.localMinute),
      ...reportDisruptions(network, reports?.avoidances ?? [], body.route.geometry.coordinates, departure.localMinute),
    ];
    if (disruptions.length) body.disruptions = disruptions;
  }
  return { kind: 'routed', body };
}
