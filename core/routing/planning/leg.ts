import type { LonLat, Position } from '../../geo.ts';
import type { Language } from '../../language.ts';
import type { Costing } from '../costing/costing.ts';
import { buildSteps, type Step } from '../guidance/steps.ts';
import { buildPath, type RoutedPath } from '../path/path.ts';
import { findRoute } from '../search/search.ts';
import { positionsAt, segmentLabel, snapForCosting, type Snap } from '../snap/snap.ts';
import type { RoutingContext } from './context.ts';

/**
 * Planning legs on a loaded graph, one place for every endpoint that plans routes (directions,
 * multi-modal, explain-supersafe): snapping a request's coordinates, one leg's search with its
 * path and steps, and a request's waypoints.
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

export interface PlannedWaypoints {
  /** Where each coordinate joins the network; null where it is too far from any usable way. */
  snaps: (Snap | null)[];
  /** One leg per consecutive pair; null when a coordinate cannot be reached or two cannot be joined. */
  legs: PlannedLeg[] | null;
}

/**
 * The legs through a request's coordinates in order, as directions plans them: every coordinate
 * snapped (the last as an end), then one leg per pair; `bearing` constrains how the first leaves.
 */
export function planWaypoints(costing: Costing, context: RoutingContext, coordinates: readonly LonLat[], options: Omit<LegOptions, 'ridingSpeed'>): PlannedWaypoints {
  const last = coordinates.length - 1;
  const snaps = coordinates.map((coordinate, index) => snapPoint(costing, coordinate, index === last ? 'to' : 'from'));
  if (snaps.some((snapped) => snapped === null)) return { snaps, legs: null };
  const legs: PlannedLeg[] = [];
  for (let index = 0; index < last; index++) {
    const bearing = index === 0 ? options.bearing : undefined;
    const leg = routeLeg(costing, context, snaps[index]!, snaps[index + 1]!, { language: options.language, bearing });
    if (!leg) return { snaps, legs: null };
    legs.push(leg);
  }
  return { snaps, legs };
}
