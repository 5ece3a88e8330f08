import { arrivalControlOf, CONTROL_NONE, EDGE_DISMOUNT, EDGE_REVERSED, EDGE_ROUNDABOUT, LIT_ASSUMED, LIT_NO, LIT_YES, litOf, SAFETY_CLASSES, safetyClassOf, STOP_TYPES, type SafetyClass } from '../../graph/flags.ts';
import { haversineMetres, type Position } from '../../geo.ts';
import type { Profile } from '../../graph/profiles.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { speedOf, WALKING_SPEED_MPS } from '../costing/speeds.ts';
import type { SearchResult } from '../search/search.ts';

/**
 * The routed path as the rest of the router reads it: one entry per edge travelled, each with
 * its (trimmed) geometry and attributes. Totals, stops, steps and disruptions are all derived
 * from this, never from the graph again.
 */

export interface PathEdge {
  edge: number;
  segment: number;
  /** Geometry in travel order, trimmed to the route's start and end. */
  coordinates: Position[];
  /** Metres of this edge travelled. */
  length: number;
  /** The part of the edge travelled, as fractions of its length from its tail: [from, to]. */
  span: [number, number];
  ascent: number;
  descent: number;
  safety: SafetyClass;
  /** null where lighting is not mapped. */
  lit: boolean | null;
  cycleRoutes: string[];
  name: string;
  ref: string;
  roundabout: boolean;
  /** A cycling route pushes the bike here (a footway, steps): a walking stretch, at walking pace. */
  pushed: boolean;
  /** Seconds, at the profile's speed (walking pace where the bike is pushed). */
  duration: number;
  flags: number;
}

export interface Stop {
  stop_type: (typeof STOP_TYPES)[number] & string;
  location: Position;
}

export interface RoutedPath {
  edges: PathEdge[];
  coordinates: Position[];
  distance: number;
  /** Seconds: riding at cycling speed, walking and pushing at walking speed (spec 8). */
  duration: number;
  ascent: number;
  descent: number;
  stops: Stop[];
}

/** An edge's geometry in travel order, both end nodes included. */
export function edgeCoordinates(network: RoutingNetwork, edge: number): Position[] {
  const count = network.pointCount(edge);
  const points: Position[] = [];
  for (let i = 0; i < count; i++) {
    const index = network.pointIndex(edge, i);
    points.push([network.pointLon(index), network.pointLat(index)]);
  }
  return points;
}

/** `edgeCoordinates` rounded to the response's precision, without the unrounded copy. */
function roundedEdgeCoordinates(network: RoutingNetwork, edge: number): Position[] {
  const count = network.pointCount(edge);
  const points: Position[] = [];
  for (let i = 0; i < count; i++) {
    const index = network.pointIndex(edge, i);
    points.push([roundCoordinate(network.pointLon(index)), roundCoordinate(network.pointLat(index))]);
  }
  return points;
}

/** The part of a polyline between two fractions of its length. */
export function slicePolyline(points: Position[], from: number, to: number): Position[] {
  if (points.length < 2) return points.slice();
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    lengths.push(lengths[i - 1]! + haversineMetres(points[i - 1]![0], points[i - 1]![1], points[i]![0], points[i]![1]));
  }
  const total = lengths[lengths.length - 1]!;
  if (total === 0) return [points[0]!, points[points.length - 1]!];
  const at = (distance: number): { position: Position; index: number } => {
    let i = 1;
    while (i < lengths.length - 1 && lengths[i]! < distance) i++;
    const span = lengths[i]! - lengths[i - 1]!;
    const t = span === 0 ? 0 : (distance - lengths[i - 1]!) / span;
    const a = points[i - 1]!;
    const b = points[i]!;
    return { position: [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], index: i };
  };
  const start = at(from * total);
  const end = at(to * total);
  const middle = points.slice(start.index, end.index).filter((_, k) => lengths[start.index + k]! > from * total);
  return [start.position, ...middle, end.position];
}

const roundCoordinate = (value: number) => Math.round(value * 1e6) / 1e6;

/** Appends points to a line, skipping a point equal to the one before it (where pieces join). */
export function appendPositions(line: Position[], points: readonly Position[]): Position[] {
  for (const point of points) {
    const previous = line[line.length - 1];
    if (!previous || previous[0] !== point[0] || previous[1] !== point[1]) line.push(point);
  }
  return line;
}

/**
 * The path of a search result. `ridingSpeed` (metres per second, a number or each edge's) times
 * the ridden edges of a cycling path: 15 km/h by default, the bicycle type's speed by surface and
 * grade (`Costing.ridingSpeedOn`), an e-bike's 22 km/h for rented e-bikes; pushed stretches and
 * walking paths are always at walking pace.
 */
export function buildPath(network: RoutingNetwork, result: SearchResult, profile: Profile, ridingSpeed: number | ((edge: number) => number) = speedOf(profile)): RoutedPath {
  const speedOn = typeof ridingSpeed === 'number' ? () => ridingSpeed : ridingSpeed;
  const graph = network.graph;
  const edges: PathEdge[] = [];
  const last = result.edges.length - 1;
  result.edges.forEach((edge, index) => {
    const from = index === 0 ? result.startFraction : 0;
    const to = index === last ? result.endFraction : 1;
    const coordinates = from === 0 && to === 1
      ? roundedEdgeCoordinates(network, edge)
      : slicePolyline(edgeCoordinates(network, edge), from, to).map(([lon, lat]) => [roundCoordinate(lon), roundCoordinate(lat)] as Position);
    const segment = graph.edgeSegment[edge]!;
    const flags = graph.edgeFlags[edge]!;
    const share = Math.max(0, to - from);
    const reversed = (flags & EDGE_REVERSED) !== 0;
    const up = graph.segmentAscent[segment]! / 10;
    const down = graph.segmentDescent[segment]! / 10;
    const lit = litOf(flags);
    const length = graph.edgeLength[edge]! * share;
    const pushed = profile === 'cycling' && (flags & EDGE_DISMOUNT) !== 0;
    edges.push({
      edge,
      segment,
      coordinates,
      length,
      span: [from, to],
      ascent: (reversed ? down : up) * share,
      descent: (reversed ? up : down) * share,
      safety: SAFETY_CLASSES[safetyClassOf(flags)]!,
      lit: lit === LIT_YES || lit === LIT_ASSUMED ? true : lit === LIT_NO ? false : null,
      cycleRoutes: routeNames(network, graph.segmentRouteSet[segment]!),
      name: graph.string(graph.segmentName[segment]!),
      ref: graph.string(graph.segmentRef[segment]!),
      roundabout: (flags & EDGE_ROUNDABOUT) !== 0,
      pushed,
      duration: length / (pushed || profile === 'walking' ? WALKING_SPEED_MPS : speedOn(edge)),
      flags,
    });
  });

  const coordinates: Position[] = [];
  for (const edge of edges) appendPositions(coordinates, edge.coordinates);
  if (coordinates.length === 1) coordinates.push(coordinates[0]!);

  // A control is met on arriving at an edge's head; the last edge may end before its head.
  const stops: Stop[] = [];
  for (let index = 0; index < edges.length; index++) {
    const control = arrivalControlOf(edges[index]!.flags);
    if (control === CONTROL_NONE || (index === last && result.endFraction < 1)) continue;
    const head = graph.edgeHead[edges[index]!.edge]!;
    stops.push({ stop_type: STOP_TYPES[control]!, location: [roundCoordinate(network.nodeLon(head)), roundCoordinate(network.nodeLat(head))] });
  }

  return {
    edges,
    coordinates,
    distance: edges.reduce((sum, edge) => sum + edge.length, 0),
    duration: edges.reduce((sum, edge) => sum + edge.duration, 0),
    ascent: edges.reduce((sum, edge) => sum + edge.ascent, 0),
    descent: edges.reduce((sum, edge) => sum + edge.descent, 0),
    stops,
  };
}

function routeNames(network: RoutingNetwork, routeSet: number): string[] {
  const graph = network.graph;
  const names: string[] = [];
  for (let i = graph.routeSetFirst[routeSet]!, end = graph.routeSetFirst[routeSet + 1]!; i < end; i++) {
    names.push(graph.string(graph.routeSetMembers[i]!));
  }
  return names;
}
