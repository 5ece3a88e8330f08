import type { City, CityId } from '../../core/cities/index.ts';
import { SAFETY_CLASSES, type SafetyClass } from '../../core/graph/flags.ts';
import type { LonLat, Position } from '../../core/geo.ts';
import type { Language } from '../../core/language.ts';
import { Costing } from '../../core/routing/costing/costing.ts';
import type { Profile } from '../../core/routing/costing/profile.ts';
import { departureIn, isNight, type Departure } from '../../core/routing/time/departure.ts';
import { disruptionsNear, reportDisruptions, type Disruption } from './disruptions.ts';
import { cityGraph, type LoadedGraph } from './graph-store.ts';
import { buildSteps, type Step } from '../../core/routing/guidance/steps.ts';
import { appendPositions, buildPath, type RoutedPath, type Stop } from '../../core/routing/path/path.ts';
import { cityOverlay, type CityOverlay } from './report-overlay.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, segmentLabel, snapForCosting, type Snap } from '../../core/routing/snap/snap.ts';

/**
 * Planning legs on a city graph, one place for every endpoint that plans routes (directions,
 * multi-modal, explain-supersafe): the request's routing context (city, loaded graph, departure,
 * accepted reports), a costing for it, snapping, one leg's search with its path and steps, and
 * the shapes routes and legs take in responses (spec 4.1), with their disruptions.
 */

export interface RoutingContext {
  city: City;
  loaded: LoadedGraph;
  departure: Departure;
  /** Accepted road reports located on this graph; null when the request plans walking only. */
  reports: CityOverlay | null;
}

/** Where a request's graph and report overlay come from: S3 and DynamoDB, or a benchmark's own. */
export interface RoutingLoaders {
  graph(city: CityId): Promise<LoadedGraph>;
  overlay(loaded: LoadedGraph): Promise<CityOverlay>;
}

export const platformLoaders: RoutingLoaders = { graph: (city) => cityGraph(city), overlay: (loaded) => cityOverlay(loaded) };

/** Loads what a request routes on: the city's graph, its departure, and (for cycling) the report overlay. */
export async function routingContext(
  city: City,
  departureTime: string | undefined,
  now: Date,
  options: { cycling: boolean; loaders?: RoutingLoaders },
): Promise<RoutingContext> {
  const loaders = options.loaders ?? platformLoaders;
  const departure = departureIn(city.timeZone, departureTime, now);
  const loaded = await loaders.graph(city.id);
  // Accepted road reports (closures, one-way, removed turns, hazards) bend cycling routes only.
  const reports = options.cycling ? await loaders.overlay(loaded) : null;
  return { city, loaded, departure, reports };
}

/**
 * Night routing for a trip starting at `start` (spec 1.2.2): forced by `nighttime` where given,
 * else from the sun; never where the city has no lighting data.
 */
export function nightFor(context: RoutingContext, start: LonLat, nighttime: boolean | undefined): boolean {
  return context.city.lightingData && (nighttime ?? isNight(context.departure.instant, start[0], start[1]));
}

export interface CostingChoice {
  profile: Profile;
  supersafe: boolean;
  night: boolean;
  /** Edges a rented vehicle may not ride (an operator's no-ride zones); cycling only. */
  noRide?: Uint8Array | null;
}

export function costingFor(context: RoutingContext, choice: CostingChoice): Costing {
  const cycling = choice.profile === 'cycling';
  return new Costing(
    context.loaded.network,
    { profile: choice.profile, supersafe: cycling && choice.supersafe, night: cycling && choice.night, departureMinute: context.departure.localMinute },
    cycling ? (context.reports?.overlay ?? null) : null,
    cycling ? (choice.noRide ?? null) : null,
  );
}

/** Where a coordinate joins the network for a costing, as a leg's start (`from`) or end (`to`). */
export const snapPoint = (costing: Costing, coordinate: LonLat, end: 'from' | 'to'): Snap | null => snapForCosting(costing, coordinate, end);

export const roundPosition = (position: readonly [number, number]): Position => [Math.round(position[0] * 1e6) / 1e6, Math.round(position[1] * 1e6) / 1e6];

/** A request's waypoint (spec 4.1): the name of the way it snapped to and where, or the coordinate as given. */
export function waypointOf(costing: Costing, snapped: Snap | null, coordinate: LonLat): { name: string; location: Position } {
  return snapped
    ? { name: segmentLabel(costing.network, snapped.segment), location: roundPosition(snapped.location) }
    : { name: '', location: [coordinate[0], coordinate[1]] };
}

export interface LegOptions {
  language: Language;
  /** Cycling: only leave the start within 45 degrees of this bearing (spec 4.1). */
  bearing?: number;
  /** Metres per second of the ridden edges (an e-bike's 22 km/h); the profile's own speed by default. */
  ridingSpeed?: number;
}

export interface PlannedLeg {
  path: RoutedPath;
  steps: Step[];
}

/** One leg between two snapped points: search, path, and steps with voice and banner instructions; null when none exists. */
export function routeLeg(costing: Costing, context: RoutingContext, from: Snap, to: Snap, options: LegOptions): PlannedLeg | null {
  const network = context.loaded.network;
  const open = (edge: number) => costing.openAtDeparture(edge);
  const sources = positionsAt(network, open, from, options.bearing);
  const targets = positionsAt(network, open, to);
  const result = sources.length && targets.length ? findRoute(costing, context.loaded.workspace, sources, targets, to.location) : null;
  if (!result) return null;
  const profile = costing.options.profile;
  const path = buildPath(network, result, profile, options.ridingSpeed);
  const steps = buildSteps(network, (edge) => costing.usable(edge), path, { profile, language: options.language });
  return { path, steps };
}

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

export const round1 = (value: number): number => Math.round(value * 10) / 10;

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

/** A route or leg body from its steps and the paths they were built from (stitched in order). */
export function routeBody(steps: Step[], paths: readonly RoutedPath[]): RouteBody {
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

export type SafetyBreakdown = Record<SafetyClass | 'pushed', number>;

/** Metres ridden per safety class, and pushed, over cycling paths (beyond the spec: `metadata.safety_breakdown`). */
export function safetyBreakdown(paths: readonly RoutedPath[]): SafetyBreakdown {
  const breakdown = Object.fromEntries([...SAFETY_CLASSES, 'pushed'].map((key) => [key, 0])) as SafetyBreakdown;
  for (const path of paths) for (const edge of path.edges) breakdown[edge.pushed ? 'pushed' : edge.safety] += edge.length;
  for (const key of Object.keys(breakdown) as (SafetyClass | 'pushed')[]) breakdown[key] = Math.round(breakdown[key]);
  return breakdown;
}

/** Disruptions near a cycling geometry at the departure: from the graph, then from accepted reports. */
export function disruptionsAlong(context: RoutingContext, coordinates: Position[]): Disruption[] {
  if (coordinates.length === 0) return [];
  const network = context.loaded.network;
  const minute = context.departure.localMinute;
  return [
    ...disruptionsNear(network, coordinates, minute),
    ...reportDisruptions(network, context.reports?.avoidances ?? [], coordinates, minute),
  ];
}
