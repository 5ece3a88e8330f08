import type { Profile } from '../../graph/profiles.ts';
import { EDGE_ROUNDABOUT, EDGE_STEPS, NODE_JUNCTION, ROAD_CLASSES, roadClassOf, WALK_CROSSING, walkKindOf } from '../../graph/flags.ts';
import { bearingDegrees, haversineMetres, turnAngle } from '../../geo.ts';
import type { RoutingNetwork } from '../network/network.ts';
import type { PathEdge, RoutedPath } from '../path/path.ts';
import type { Position } from '../../geo.ts';

/**
 * Maneuver detection ("odin", first half): where along the routed path a rider needs to be told
 * something, and what, as language-independent types and modifiers. Text comes later, per
 * language, from the narrative module.
 *
 * Three passes. Every junction where something could be said is a candidate. Candidates closer
 * together than a connector (a few seconds of travel) are one maneuver to the rider, read from
 * the bearing before the first to the bearing after the last. Then each maneuver is kept only if
 * it tells the rider something: a new road name, a U-turn, a roundabout, or a turn that keeps the
 * name where it is not the obvious way on.
 *
 * A U-turn is the route going back along the way it came: back over the very stretch it has
 * just travelled (which is also what turning at a dead end does), or from a junction onto the
 * road it arrived on, by name. A route that ends up heading back through a turn onto another
 * way, such as a switchback ramp or a crossing to the path on the far side, makes a sharp turn,
 * on the side it went round.
 */

export type ManeuverType = 'Start' | 'Turn' | 'Continue' | 'roundabout' | 'U-turn' | 'Arrive';
export type Modifier = 'uturn' | 'sharp right' | 'right' | 'slight right' | 'straight' | 'slight left' | 'left' | 'sharp left';

/** What an unnamed path-like way is to a rider, so the text can describe it where there is no name to read. */
export type WayKind = 'steps' | 'crossing' | 'cycle_crossing' | 'cycle_path' | 'footpath' | 'path';

/** The end sentinel: the spec leaves its literal value open; ours is `Arrive`. */
export const ARRIVE: ManeuverType = 'Arrive';

export interface Maneuver {
  type: ManeuverType;
  modifier?: Modifier;
  /** Index of the first path edge after the maneuver (edges.length for the arrival). */
  pathIndex: number;
  location: Position;
  bearingBefore: number;
  bearingAfter: number;
  /** Roundabouts: 1-based exit taken. */
  exit?: number;
  /** The road the maneuver leads onto, as the rider reads it, and its reference. */
  name: string;
  ref: string;
  /** Where that way has neither name nor reference: what kind of path it is, if it is one. */
  wayKind?: WayKind;
  /** A turn (or U-turn) that keeps the name of the road the rider is on; an unnamed way has none to keep. */
  staysOn: boolean;
  /** How the step that starts here travels: `walking` where a cycling route pushes the bike. */
  mode: Profile;
  /** The rider gets off the bike here to push it, or back on after pushing. */
  modeChange?: 'dismount' | 'remount';
}

/** Shorter than this, an edge has no direction worth reading: a route starting or ending at a node. */
const MIN_EDGE_METRES = 1;

/**
 * Junctions closer together than this are one junction to the rider: about 3.5 seconds of
 * travel, a carriageway's width on a bike. Cycle-track kinks, crossings and staggered junctions
 * then read as the one maneuver they are.
 */
export const CONNECTOR_METRES: Record<Profile, number> = { cycling: 15, walking: 5 };

/** A run of merged junctions never spans more than this (the compound-step distance). */
export const MAX_CONNECTED_SPAN_METRES = 30;

/** A name change within this angle of straight ahead is `Continue`; beyond it, `Turn`. */
const CONTINUE_DEGREES = 30;

/** A turn smaller than this that keeps the road's name is not worth a word. */
export const SAME_NAME_TURN_DEGREES = 40;

/**
 * A turn that keeps the road's name is announced only where it is not the obvious way on: another
 * road the rider may take leaves the junction less than this many degrees further from straight
 * ahead than the route does. Sharp turns are announced regardless.
 */
export const OBVIOUS_MARGIN_DEGREES = 30;

export function modifierFor(angle: number): Modifier {
  const size = Math.abs(angle);
  if (size >= 170) return 'uturn';
  const side = angle > 0 ? 'right' : 'left';
  if (size < 15) return 'straight';
  if (size < 45) return `slight ${side}`;
  if (size < 135) return side;
  return `sharp ${side}`;
}

const isSharp = (modifier: Modifier | undefined): boolean => modifier === 'sharp left' || modifier === 'sharp right';

/** The name a rider reads on signs: street name, else reference, else nothing. */
export const roadLabel = (edge: PathEdge): string => edge.name || edge.ref;

const PATH_CLASSES: ReadonlySet<string> = new Set(['cycleway', 'path', 'footway', 'pedestrian', 'bridleway', 'steps']);

/**
 * The kind of an unnamed path-like way, from its mapping: steps, a crossing of a carriageway, a
 * path for bicycles (a cycleway, or a path whose safety class says it is one), a footway or
 * pedestrian way, or any other path. An unnamed road has none: a rider sees a road as a road.
 */
export function wayKindOf(edge: PathEdge): WayKind | undefined {
  if (roadLabel(edge)) return undefined;
  const roadClass = ROAD_CLASSES[roadClassOf(edge.flags)]!;
  if (edge.flags & EDGE_STEPS) return 'steps';
  if (walkKindOf(edge.flags) === WALK_CROSSING) return roadClass === 'cycleway' ? 'cycle_crossing' : 'crossing';
  if (!PATH_CLASSES.has(roadClass)) return undefined;
  if (roadClass === 'cycleway' || edge.safety === 'cycleway') return 'cycle_path';
  return roadClass === 'footway' || roadClass === 'pedestrian' ? 'footpath' : 'path';
}

const hasDirection = (edge: PathEdge): boolean => edge.length >= MIN_EDGE_METRES;

/**
 * Bearings are read over this many metres of the route either side of a junction, as a rider
 * sees the road rather than its first metre of geometry: separately mapped cycle tracks swerve
 * and kink where they meet the carriageway.
 */
const BEARING_WINDOW_METRES: Record<Profile, number> = { cycling: 10, walking: 5 };

/** The point `metres` along the path from the start of edge `index`, forwards or backwards, clamped to the path's ends. */
function pointAlong(path: RoutedPath, index: number, metres: number, direction: 1 | -1): Position | undefined {
  const edges = path.edges;
  let previous: Position | undefined;
  let travelled = 0;
  for (let edgeIndex = direction > 0 ? index : index - 1; edgeIndex >= 0 && edgeIndex < edges.length; edgeIndex += direction) {
    const points = edges[edgeIndex]!.coordinates;
    for (let k = 0; k < points.length; k++) {
      const point = points[direction > 0 ? k : points.length - 1 - k]!;
      if (previous) {
        const piece = haversineMetres(previous[0], previous[1], point[0], point[1]);
        if (piece > 0 && travelled + piece >= metres) {
          const t = (metres - travelled) / piece;
          return [previous[0] + (point[0] - previous[0]) * t, previous[1] + (point[1] - previous[1]) * t];
        }
        travelled += piece;
      }
      previous = point;
    }
  }
  return previous;
}

const bearingFrom = (from: Position | undefined, to: Position | undefined): number =>
  from && to && (from[0] !== to[0] || from[1] !== to[1]) ? Math.round(bearingDegrees(from[0], from[1], to[0], to[1])) % 360 : 0;

/** Where path edge `index` starts (the arrival point for `edges.length`). */
const nodeAt = (path: RoutedPath, index: number): Position =>
  index < path.edges.length ? path.edges[index]!.coordinates[0]! : path.edges[path.edges.length - 1]!.coordinates.at(-1)!;

/** The bearing a rider arrives with at the start of edge `index`, over the last window of road. */
const bearingArriving = (path: RoutedPath, index: number, profile: Profile): number =>
  bearingFrom(pointAlong(path, index, BEARING_WINDOW_METRES[profile], -1), nodeAt(path, index));

/** The bearing a rider leaves with from the start of edge `index`, over the next window of road. */
const bearingLeaving = (path: RoutedPath, index: number, profile: Profile): number =>
  bearingFrom(nodeAt(path, index), pointAlong(path, index, BEARING_WINDOW_METRES[profile], 1));

const isJunction = (network: RoutingNetwork, node: number): boolean => (network.graph.nodeFlags[node]! & NODE_JUNCTION) !== 0;

/** Whether a rider passes an exit at a roundabout node: a usable road leaving the roundabout. */
function hasExit(network: RoutingNetwork, usable: (edge: number) => boolean, node: number): boolean {
  const graph = network.graph;
  for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) {
    if (usable(edge) && !(graph.edgeFlags[edge]! & EDGE_ROUNDABOUT)) return true;
  }
  return false;
}

/** Index of the last edge with a direction before `index` (the edge the rider arrives on). */
function arrivingEdgeIndex(path: RoutedPath, index: number): number {
  let arriving = index - 1;
  while (arriving > 0 && !hasDirection(path.edges[arriving]!)) arriving--;
  return Math.max(0, arriving);
}

/**
 * Whether a route that reverses at the maneuver starting at path edge `first`, and leaves it on
 * edge `leaving`, goes back along the way it came: back over a stretch it has just travelled
 * (turning round on an unnamed way, or at a dead end), or from a junction onto the road it
 * arrived on, by name (the other carriageway, round through a side street). A named road that
 * bends back on itself away from any junction is only a bend.
 */
function turnsBackAlongWay(network: RoutingNetwork, path: RoutedPath, first: number, leaving: number): boolean {
  const arriving = arrivingEdgeIndex(path, first);
  const segment = path.edges[leaving]!.segment;
  if (path.edges.slice(arriving, leaving).some((edge) => edge.segment === segment)) return true;
  const label = roadLabel(path.edges[leaving]!);
  const throughJunction = path.edges.slice(first, leaving + 1).some((edge) => isJunction(network, network.graph.edgeTail[edge.edge]!));
  return label !== '' && label === roadLabel(path.edges[arriving]!) && throughJunction;
}

/**
 * How far the route turns, in signed degrees (positive clockwise), from arriving with
 * `bearingBefore` to leaving with `bearingAfter` through path edges [first, leaving): the side a
 * reversal went round, which its net bearing change, near 180 degrees, cannot tell.
 */
function turningThrough(path: RoutedPath, first: number, leaving: number, bearingBefore: number, bearingAfter: number): number {
  let turning = 0;
  let heading = bearingBefore;
  let from: Position | undefined;
  for (const edge of path.edges.slice(first, leaving)) {
    for (const point of edge.coordinates) {
      if (!from) {
        from = point;
        continue;
      }
      // Chords of at least a metre: shorter pieces of geometry carry no direction.
      if (haversineMetres(from[0], from[1], point[0], point[1]) < MIN_EDGE_METRES) continue;
      const bearing = bearingFrom(from, point);
      turning += turnAngle(heading, bearing);
      heading = bearing;
      from = point;
    }
  }
  return turning + turnAngle(heading, bearingAfter);
}

/**
 * Whether a turn of `angle` degrees is the obvious way on at the junction where path edge
 * `index` starts: no other road the rider may take (the way back aside) leaves within
 * OBVIOUS_MARGIN_DEGREES of being as straight as the route.
 */
function isObviousWayOn(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath, index: number, bearingBefore: number, angle: number): boolean {
  const graph = network.graph;
  const taken = path.edges[index]!.edge;
  const node = graph.edgeTail[taken]!;
  const wayBack = network.reverseOf(path.edges[arrivingEdgeIndex(path, index)]!.edge);
  for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) {
    if (edge === taken || edge === wayBack || !usable(edge)) continue;
    if (Math.abs(turnAngle(bearingBefore, network.startBearing(edge))) < Math.abs(angle) + OBVIOUS_MARGIN_DEGREES) return false;
  }
  return true;
}

/** A junction where something could be said, before merging and filtering. */
interface Candidate {
  pathIndex: number;
  /** Index of the path edge the rider leaves on: after the last junction of a merged run, or a roundabout's exit. */
  leavingIndex: number;
  bearingBefore: number;
  bearingAfter: number;
  name: string;
  ref: string;
  wayKind: WayKind | undefined;
  /** Roundabouts: 1-based exit taken. */
  exit?: number;
  /** The route starts or stops pushing the bike here: always a maneuver of its own. */
  modeChange?: 'dismount' | 'remount';
}

function candidates(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath, profile: Profile): Candidate[] {
  const edges = path.edges;
  const graph = network.graph;
  const found: Candidate[] = [];
  let arriving = edges.findIndex(hasDirection);
  if (arriving < 0) return found;

  for (let index = arriving + 1; index < edges.length; index++) {
    const edge = edges[index]!;
    if (!hasDirection(edge)) continue;
    const previous = edges[arriving]!;
    const bearingBefore = bearingArriving(path, index, profile);
    arriving = index;

    if (edge.roundabout && !previous.roundabout) {
      // Count the exits passed before the one the route takes.
      let exit = 1;
      let leave = index;
      while (leave < edges.length && edges[leave]!.roundabout) {
        const staysOn = edges[leave + 1]?.roundabout ?? false;
        if (staysOn && hasExit(network, usable, graph.edgeHead[edges[leave]!.edge]!)) exit++;
        leave++;
      }
      const exitIndex = Math.min(leave, edges.length - 1);
      const exitEdge = edges[exitIndex]!;
      const bearingAfter = bearingLeaving(path, exitIndex, profile);
      found.push({ pathIndex: index, leavingIndex: exitIndex, bearingBefore, bearingAfter, name: roadLabel(exitEdge), ref: exitEdge.ref, wayKind: wayKindOf(exitEdge), exit });
      index = leave;
      arriving = exitIndex;
      continue;
    }

    const bearingAfter = bearingLeaving(path, index, profile);
    const angle = Math.abs(turnAngle(bearingBefore, bearingAfter));
    const bends = angle >= SAME_NAME_TURN_DEGREES && isJunction(network, graph.edgeTail[edge.edge]!);
    const modeChange = edge.pushed === previous.pushed ? undefined : edge.pushed ? 'dismount' : 'remount';
    if (roadLabel(edge) !== roadLabel(previous) || bends || modifierFor(angle) === 'uturn' || modeChange) {
      found.push({ pathIndex: index, leavingIndex: index, bearingBefore, bearingAfter, name: roadLabel(edge), ref: edge.ref, wayKind: wayKindOf(edge), ...(modeChange ? { modeChange } : {}) });
    }
  }
  return found;
}

const metresBetween = (path: RoutedPath, from: number, to: number): number =>
  path.edges.slice(from, to).reduce((sum, edge) => sum + edge.length, 0);

/** Merges runs of candidates linked by connectors into one: from the first's approach to the last's exit. */
function connect(path: RoutedPath, found: Candidate[], profile: Profile): Candidate[] {
  const merged: Candidate[] = [];
  let runEnd = 0;
  for (const candidate of found) {
    const last = merged[merged.length - 1];
    // Where the rider gets off or back on the bike is a step boundary of its own: nothing merges across it.
    const joins =
      last !== undefined && last.exit === undefined && candidate.exit === undefined &&
      last.modeChange === undefined && candidate.modeChange === undefined &&
      metresBetween(path, runEnd, candidate.pathIndex) < CONNECTOR_METRES[profile] &&
      metresBetween(path, last.pathIndex, candidate.pathIndex) <= MAX_CONNECTED_SPAN_METRES;
    const { leavingIndex, bearingAfter, name, ref, wayKind } = candidate;
    if (joins) merged[merged.length - 1] = { ...last, leavingIndex, bearingAfter, name, ref, wayKind };
    else merged.push(candidate);
    runEnd = candidate.pathIndex;
  }
  return merged;
}

export function detectManeuvers(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath, profile: Profile): Maneuver[] {
  const edges = path.edges;
  const first = edges.find(hasDirection) ?? edges[0]!;
  // Slivers under a metre have no direction and no say in the mode either.
  const startsPushed = first.pushed;
  const maneuvers: Maneuver[] = [
    {
      type: 'Start',
      mode: startsPushed ? 'walking' : profile,
      ...(startsPushed ? { modeChange: 'dismount' as const } : {}),
      pathIndex: 0,
      location: edges[0]!.coordinates[0]!,
      bearingBefore: 0,
      bearingAfter: bearingLeaving(path, 0, profile),
      name: roadLabel(first),
      ref: first.ref,
      wayKind: wayKindOf(first),
      staysOn: false,
    },
  ];
  const connected = connect(path, candidates(network, usable, path, profile), profile);
  const opening = connected[0];
  const turnsBack = opening && opening.exit === undefined && modifierFor(turnAngle(opening.bearingBefore, opening.bearingAfter)) === 'uturn';
  if (turnsBack && !opening.modeChange && metresBetween(path, 0, opening.pathIndex) < CONNECTOR_METRES[profile]) {
    // A route that starts a few metres the wrong way (a start at a node) sets off the other way.
    const { bearingAfter, name, ref, wayKind } = connected.shift()!;
    Object.assign(maneuvers[0]!, { bearingAfter, name, ref, wayKind });
  }
  let currentName = maneuvers[0]!.name;

  for (const candidate of connected) {
    const { pathIndex, leavingIndex, bearingBefore, bearingAfter, name, ref, modeChange } = candidate;
    const location = edges[pathIndex]!.coordinates[0]!;
    const angle = turnAngle(bearingBefore, bearingAfter);
    let modifier = modifierFor(angle);
    const mode: Profile = edges[pathIndex]!.pushed ? 'walking' : profile;
    const base = { pathIndex, location, bearingBefore, bearingAfter, name, ref, wayKind: candidate.wayKind, mode, ...(modeChange ? { modeChange } : {}) };
    // Heading back through a turn onto another way is a sharp turn, on the side the route went round.
    if (candidate.exit === undefined && modifier === 'uturn' && !turnsBackAlongWay(network, path, pathIndex, leavingIndex)) {
      modifier = turningThrough(path, pathIndex, leavingIndex, bearingBefore, bearingAfter) > 0 ? 'sharp right' : 'sharp left';
    }

    if (candidate.exit !== undefined) {
      maneuvers.push({ ...base, type: 'roundabout', modifier, exit: candidate.exit, staysOn: false });
    } else if (modifier === 'uturn') {
      maneuvers.push({ ...base, type: 'U-turn', modifier, staysOn: name === currentName });
    } else if (modeChange) {
      maneuvers.push({ ...base, type: Math.abs(angle) < CONTINUE_DEGREES ? 'Continue' : 'Turn', modifier, staysOn: name !== '' && name === currentName });
    } else if (name !== currentName) {
      // An unnamed stretch straight on is the same road to the rider: a footway across a side street, a gap in the name.
      if (!name && Math.abs(angle) < CONTINUE_DEGREES) continue;
      maneuvers.push({ ...base, type: Math.abs(angle) < CONTINUE_DEGREES ? 'Continue' : 'Turn', modifier, staysOn: false });
    } else {
      const worthSaying =
        isJunction(network, network.graph.edgeTail[edges[pathIndex]!.edge]!) && Math.abs(angle) >= SAME_NAME_TURN_DEGREES &&
        (isSharp(modifier) || !isObviousWayOn(network, usable, path, pathIndex, bearingBefore, angle));
      if (!worthSaying) continue;
      maneuvers.push({ ...base, type: 'Turn', modifier, staysOn: name !== '' });
    }
    currentName = name;
  }

  const last = edges[edges.length - 1]!;
  const arriving = edges[arrivingEdgeIndex(path, edges.length)]!;
  maneuvers.push({
    type: ARRIVE,
    mode: arriving.pushed ? 'walking' : profile,
    pathIndex: edges.length,
    location: last.coordinates[last.coordinates.length - 1]!,
    bearingBefore: bearingArriving(path, edges.length, profile),
    bearingAfter: 0,
    name: roadLabel(arriving),
    ref: arriving.ref,
    staysOn: false,
  });
  return maneuvers;
}
