import type { LonLat, Position } from '../../geo.ts';
import type { Language } from '../../language.ts';
import { BICYCLE_TYPE_PROFILES } from '../costing/bicycle-types.ts';
import type { Costing } from '../costing/costing.ts';
import { createCosting } from '../costing/create-costing.ts';
import { DIRECT_SAFETY, gradesUpTo, isGradedSafety, SAFETY_TIE_METRES, SUPERSAFE_SAFETY } from '../costing/safety.ts';
import { SAFETY_BUSY, SAFETY_SHARED, safetyClassOf } from '../../graph/flags.ts';
import { buildSteps, type Step } from '../guidance/steps.ts';
import { buildPath, type RoutedPath } from '../path/path.ts';
import { endsSeparated } from '../search/landmarks.ts';
import { findRoute, type SearchResult, type SearchStats } from '../search/search.ts';
import type { EdgePosition, SearchWorkspace } from '../search/workspace.ts';
import { endPositions, segmentLabel, snapForCosting, snapOfEdge, type Snap } from '../snap/snap.ts';
import type { SearchAllowance } from './budget.ts';
import type { RoutingContext } from './context.ts';

/**
 * Planning legs on a loaded graph: snapping a request's coordinates, one leg's search with its
 * path and steps, and a request's waypoints. The endpoints that plan routes (directions,
 * multi-modal, explain-supersafe) reach them through the route planner (planner.ts).
 */

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
  /** Metres per second of the ridden edges (a rented e-bike's 22 km/h); by default the costing's (`Costing.ridingSpeedOn`). */
  ridingSpeed?: number;
  /** The states the request's searches may still settle (budget.ts); unlimited when absent. */
  allowance?: SearchAllowance;
}

export interface PlannedLeg {
  path: RoutedPath;
  steps: Step[];
  /** Where the leg started and ended: the snapped way, or the alternative way it joined (`Snap.alternatives`). */
  from: Snap;
  to: Snap;
  /** Search states the leg's searches settled (both, where direct was held to supersafe's length): its search effort. */
  statesSettled: number;
}

/**
 * Metres a search result travels: its edges' lengths, the first from where it starts and the last
 * to where it ends, summed in travel order as its path's `distance` is (path.ts).
 */
export function searchedMetres(costing: Costing, result: SearchResult, counts: (edge: number) => boolean = () => true): number {
  const length = costing.network.graph.edgeLength;
  const last = result.edges.length - 1;
  let metres = 0;
  result.edges.forEach((edge, index) => {
    if (counts(edge)) metres += length[edge]! * Math.max(0, (index === last ? result.endFraction : 1) - (index === 0 ? result.startFraction : 0));
  });
  return metres;
}

/** What a rider sees of a route's safety: its length, and its busy and shared metres (pushed ones by the class of the way). */
interface RouteShape {
  metres: number;
  busyShared: number;
}

function routeShape(costing: Costing, result: SearchResult): RouteShape {
  const flags = costing.network.graph.edgeFlags;
  const busyShared = (edge: number) => {
    const safety = safetyClassOf(flags[edge]!);
    return safety === SAFETY_BUSY || safety === SAFETY_SHARED;
  };
  return { metres: searchedMetres(costing, result), busyShared: searchedMetres(costing, result, busyShared) };
}

/** Whether `route` lies between `lower` and `upper` on the trade-off: no shorter than the one nor longer than the other, busy + shared likewise, within ties. */
function liesBetween(lower: RouteShape, route: RouteShape, upper: RouteShape): boolean {
  const tie = SAFETY_TIE_METRES;
  return (
    route.metres >= lower.metres - tie && route.metres <= upper.metres + tie &&
    route.busyShared <= lower.busyShared + tie && route.busyShared >= upper.busyShared - tie
  );
}

/** The cycling costing of the same request (departure, night, overlay, no-ride zones, hills) at another grade. */
function atSafety(costing: Costing, safety: number): Costing {
  const options = { ...costing.options, supersafe: safety === SUPERSAFE_SAFETY, safety: isGradedSafety(safety) ? safety : undefined };
  return createCosting(costing.network, options, costing.overlay, costing.noRide);
}

/** A route below supersafe is never longer than the supersafe route of the same leg (`searchLeg`). */
function heldToSupersafe(costing: Costing, route: SearchResult, supersafe: SearchResult | null): SearchResult {
  return supersafe && searchedMetres(costing, supersafe) < searchedMetres(costing, route) ? supersafe : route;
}

/**
 * A leg at a graded safety (costing/safety.ts): the supersafe and the direct leg as those
 * requests plan them, then each grade of the ladder up to the requested one in turn (at the
 * graded costing's exact optimum, held to supersafe's length), taken where it lies between the
 * route chosen a grade below and the supersafe one, else the grade below's route kept. Every
 * grade's route so lies between its neighbours' on what a rider sees (length, busy + shared
 * metres), which the costs' own trade-off does not promise: the costs weigh turns, waits, stress
 * and pushing too (docs/routing.md, "Graded safety").
 */
function searchGradedLeg(costing: Costing, search: (costing: Costing) => SearchResult | null): SearchResult | null {
  const safety = costing.options.safety!;
  const supersafe = search(atSafety(costing, SUPERSAFE_SAFETY));
  const direct = search(atSafety(costing, DIRECT_SAFETY));
  let chosen = direct ? heldToSupersafe(costing, direct, supersafe) : supersafe;
  if (!chosen || !supersafe) return chosen;
  const upper = routeShape(costing, supersafe);
  let lower = routeShape(costing, chosen);
  for (const grade of gradesUpTo(safety)) {
    const found = search(grade === safety ? costing : atSafety(costing, grade));
    if (!found) continue;
    const candidate = heldToSupersafe(costing, found, supersafe);
    const shape = routeShape(costing, candidate);
    if (!liesBetween(lower, shape, upper)) continue;
    chosen = candidate;
    lower = shape;
  }
  return chosen;
}

/**
 * The search of one leg between two snapped points, as every endpoint plans it. A direct cycling
 * leg (and each grade's route of a leg at a graded safety, `searchGradedLeg`) is held to never be
 * longer than the supersafe leg between the same points (spec 1.1: direct is the short choice): the direct costing weighs turns, junction waits and pushing lightly, and
 * supersafe, which weighs them too but rides some ways dearer, now and then finds a shorter way
 * through (where it pushes up a few steps to avoid a busy road, accepts a signal direct went
 * round, or starts on the way the coordinate snapped to where direct walks a few metres to the way
 * beside it). Where it does, that way is the direct route too. The supersafe search is the one a
 * supersafe request makes: its own positions on the same snapped points (joining a farther way
 * weighs more for it), the departure, night, the report overlay and any no-ride zones, so both
 * answers are routes of the same request. `effort`, when given, adds up the states both settle;
 * `allowance`, when given, limits them to what the request may still settle and spends them
 * (a search that reaches it throws `SearchLimitReached`).
 */
export function searchLeg(
  costing: Costing,
  workspace: SearchWorkspace,
  from: Snap,
  to: Snap,
  bearing?: number,
  effort?: SearchStats,
  allowance?: SearchAllowance,
): SearchResult | null {
  const search = (metric: Costing) => {
    const { sources, targets } = legPositions(metric, from, to, bearing);
    return searchWithin(metric, workspace, sources, targets, to.location, effort, allowance);
  };
  if (costing.options.profile === 'cycling' && costing.options.safety !== undefined) return searchGradedLeg(costing, search);
  const result = search(costing);
  if (!result || costing.options.profile !== 'cycling' || costing.options.supersafe) return result;
  return heldToSupersafe(costing, result, search(atSafety(costing, SUPERSAFE_SAFETY)));
}

/**
 * One search (findRoute) between positions, its settled states added to `effort` and taken off
 * `allowance`, which limits it (a search that reaches it throws `SearchLimitReached`): how every
 * search a request makes is counted against its compute budget (budget.ts).
 */
export function searchWithin(
  costing: Costing,
  workspace: SearchWorkspace,
  sources: readonly EdgePosition[],
  targets: readonly EdgePosition[],
  targetPoint: readonly [number, number],
  effort?: SearchStats,
  allowance?: SearchAllowance,
): SearchResult | null {
  const stats: SearchStats = { settled: 0, limit: allowance?.states };
  try {
    return sources.length && targets.length ? findRoute(costing, workspace, sources, targets, targetPoint, stats) : null;
  } finally {
    if (effort) effort.settled += stats.settled;
    if (allowance) allowance.states -= stats.settled;
  }
}

/**
 * Where a leg's search starts and ends for two snapped points: the directions of their ways that
 * connect, and of the ways a few metres farther they may join (snap.ts `endPositions`); `bearing`
 * keeps only the directions leaving the start within 45 degrees of it.
 */
export function legPositions(costing: Costing, from: Snap, to: Snap, bearing?: number): { sources: EdgePosition[]; targets: EdgePosition[] } {
  return { sources: endPositions(costing, from, bearing), targets: endPositions(costing, to) };
}

/** One leg between two snapped points: search, path, and steps with voice and banner instructions; null when none exists. */
export function routeLeg(costing: Costing, context: RoutingContext, from: Snap, to: Snap, options: LegOptions): PlannedLeg | null {
  const effort: SearchStats = { settled: 0 };
  const result = searchLeg(costing, context.loaded.workspace, from, to, options.bearing, effort, options.allowance);
  return result && legOfResult(costing, from, to, result, options, effort.settled);
}

/** The leg a search found between two snapped points: its path and steps with voice and banner instructions. */
export function legOfResult(costing: Costing, from: Snap, to: Snap, result: SearchResult, options: LegOptions, statesSettled: number): PlannedLeg {
  const network = costing.network;
  const profile = costing.options.profile;
  const path = buildPath(network, result, profile, options.ridingSpeed ?? ((edge) => costing.ridingSpeedOn(edge)));
  const steps = buildSteps(network, (edge) => costing.usable(edge), path, { profile, language: options.language });
  return {
    path,
    steps,
    from: snapOfEdge(network, from, result.edges[0]!),
    to: snapOfEdge(network, to, result.edges[result.edges.length - 1]!),
    statesSettled,
  };
}

export interface PlannedWaypoints {
  /**
   * Where each coordinate joins the network (once routed, the way its legs used); null where it is
   * too far from any usable way.
   */
  snaps: (Snap | null)[];
  /** One leg per consecutive pair; null when a coordinate cannot be reached or two cannot be joined. */
  legs: PlannedLeg[] | null;
  /** Why `legs` is null. */
  noRoute?: NoRoute;
}

/**
 * Why no route was planned: a coordinate too far from every way the profile may use (outside the
 * covered area), two consecutive coordinates in networks no way joins at any hour, joined
 * networks with no way open between them at the departure (closures, time rules, reports), or
 * joined only by ways the request's bicycle never takes (a cargo bike: steps, narrow barriers).
 */
export const NO_ROUTE_REASONS = ['outside_coverage', 'not_connected', 'closed_at_departure', 'impassable_for_bicycle_type'] as const;
export type NoRouteReason = (typeof NO_ROUTE_REASONS)[number];

export interface NoRoute {
  reason: NoRouteReason;
  /** The coordinate (outside_coverage), or the first coordinate of the leg that has no route. */
  index: number;
}

/**
 * Why a leg between two snapped points found no route: its ends in separate networks by the
 * landmark tables of the costing's (first) metric; else, for a bicycle that never takes some ways,
 * a route the spec's rider (hybrid) would have at this departure; else closed at the departure.
 */
function noLegReason(costing: Costing, context: RoutingContext, from: Snap, to: Snap, options: LegOptions): NoRouteReason {
  const landmarks = context.loaded.workspace.landmarks[costing.metricShares()[0]!.metric];
  if (landmarks) {
    const graph = costing.network.graph;
    const { sources, targets } = legPositions(costing, from, to);
    if (endsSeparated(landmarks, sources.map((source) => graph.edgeHead[source.edge]!), targets.map((target) => graph.edgeTail[target.edge]!))) return 'not_connected';
  }
  return hybridWouldRoute(costing, context, from, to, options) ? 'impassable_for_bicycle_type' : 'closed_at_departure';
}

/** Whether a costing's bicycle never takes some ways and the same request for a hybrid has a route (one more search, on a leg that has none). */
function hybridWouldRoute(costing: Costing, context: RoutingContext, from: Snap, to: Snap, options: LegOptions): boolean {
  const never = BICYCLE_TYPE_PROFILES[costing.bicycleType].never;
  if (!never.steps && !never.narrow) return false;
  const { bicycleType: _ignored, ...hybrid } = costing.options;
  return routeLeg(createCosting(costing.network, hybrid, costing.overlay, costing.noRide), context, from, to, options) !== null;
}

/** Where a coordinate joins the network, as a leg's start or end: `snapPoint`, or a planner's remembered answer. */
export type SnapAt = (coordinate: LonLat, end: 'from' | 'to') => Snap | null;

/**
 * The legs through a request's coordinates in order, as directions plans them: every coordinate
 * snapped (the last as an end), then one leg per pair; `bearing` constrains how the first leaves.
 * A stop between is snapped twice, as the end of the leg arriving and the start of the leg
 * leaving: the directions of a way that connect differ by role (a block entered only one way may
 * be left only the other), and a leg arriving must end on one it can reach. `snapAt` lets a
 * planner (planner.ts) answer a coordinate it has snapped before from memory.
 */
export function planWaypoints(
  costing: Costing,
  context: RoutingContext,
  coordinates: readonly LonLat[],
  options: LegOptions,
  snapAt: SnapAt = (coordinate, end) => snapPoint(costing, coordinate, end),
): PlannedWaypoints {
  const last = coordinates.length - 1;
  const snaps = coordinates.map((coordinate, index) => snapAt(coordinate, index === last ? 'to' : 'from'));
  const arrivals = coordinates.map((coordinate, index) => (index === 0 || index === last ? snaps[index]! : snapAt(coordinate, 'to')));
  const unreached = coordinates.findIndex((_, index) => snaps[index] === null || arrivals[index] === null);
  if (unreached >= 0) return { snaps, legs: null, noRoute: { reason: 'outside_coverage', index: unreached } };
  const legs: PlannedLeg[] = [];
  for (let index = 0; index < last; index++) {
    const bearing = index === 0 ? options.bearing : undefined;
    const leg = routeLeg(costing, context, snaps[index]!, arrivals[index + 1]!, { ...options, bearing });
    if (!leg) return { snaps, legs: null, noRoute: { reason: noLegReason(costing, context, snaps[index]!, arrivals[index + 1]!, { ...options, bearing }), index } };
    legs.push(leg);
  }
  // A waypoint is where the route met it: the start of the first leg, then the end of each leg.
  return { snaps: [legs[0]!.from, ...legs.map((leg) => leg.to)], legs };
}
