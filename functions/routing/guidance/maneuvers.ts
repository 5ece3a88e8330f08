import { EDGE_ROUNDABOUT, NODE_JUNCTION } from '../graph-format.ts';
import { bearingDegrees, turnAngle } from '../geo.ts';
import type { RoutingNetwork } from '../network.ts';
import type { PathEdge, Position, RoutedPath } from '../path.ts';

/**
 * Maneuver detection ("odin", first half): where along the routed path a rider needs to be told
 * something, and what, as language-independent types and modifiers. Text comes later, per
 * language, from the narrative module.
 */

export type ManeuverType = 'Start' | 'Turn' | 'Continue' | 'roundabout' | 'U-turn' | 'Arrive';
export type Modifier = 'uturn' | 'sharp right' | 'right' | 'slight right' | 'straight' | 'slight left' | 'left' | 'sharp left';

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
}

/** A turn smaller than this onto a road of the same name is not worth a word. */
const SAME_NAME_TURN_DEGREES = 40;

export function modifierFor(angle: number): Modifier {
  const size = Math.abs(angle);
  if (size >= 170) return 'uturn';
  const side = angle > 0 ? 'right' : 'left';
  if (size < 15) return 'straight';
  if (size < 45) return `slight ${side}`;
  if (size < 135) return side;
  return `sharp ${side}`;
}

/** The name a rider reads on signs: street name, else reference, else nothing. */
export const roadLabel = (edge: PathEdge): string => edge.name || edge.ref;

function startBearing(edge: PathEdge): number {
  const [a, b] = [edge.coordinates[0]!, edge.coordinates[Math.min(1, edge.coordinates.length - 1)]!];
  return Math.round(bearingDegrees(a[0], a[1], b[0], b[1]));
}

function endBearing(edge: PathEdge): number {
  const points = edge.coordinates;
  const [a, b] = [points[Math.max(0, points.length - 2)]!, points[points.length - 1]!];
  return Math.round(bearingDegrees(a[0], a[1], b[0], b[1]));
}

/** Whether a rider passes an exit at a roundabout node: a usable road leaving the roundabout. */
function hasExit(network: RoutingNetwork, usable: (edge: number) => boolean, node: number): boolean {
  const graph = network.graph;
  for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) {
    if (usable(edge) && !(graph.edgeFlags[edge]! & EDGE_ROUNDABOUT)) return true;
  }
  return false;
}

export function detectManeuvers(network: RoutingNetwork, usable: (edge: number) => boolean, path: RoutedPath): Maneuver[] {
  const edges = path.edges;
  const graph = network.graph;
  const first = edges[0]!;
  const maneuvers: Maneuver[] = [
    { type: 'Start', pathIndex: 0, location: first.coordinates[0]!, bearingBefore: 0, bearingAfter: startBearing(first) },
  ];
  let currentName = roadLabel(first);

  for (let index = 1; index < edges.length; index++) {
    const previous = edges[index - 1]!;
    const edge = edges[index]!;
    const location = edge.coordinates[0]!;
    const bearingBefore = endBearing(previous);
    const bearingAfter = startBearing(edge);
    const angle = turnAngle(bearingBefore, bearingAfter);
    const name = roadLabel(edge);

    if (edge.roundabout && !previous.roundabout) {
      // Count the exits passed before the one the route takes.
      let exit = 1;
      let leave = index;
      while (leave < edges.length && edges[leave]!.roundabout) {
        const staysOn = edges[leave + 1]?.roundabout ?? false;
        if (staysOn && hasExit(network, usable, graph.edgeHead[edges[leave]!.edge]!)) exit++;
        leave++;
      }
      const exitEdge = edges[Math.min(leave, edges.length - 1)]!;
      const exitAngle = turnAngle(bearingBefore, startBearing(exitEdge));
      maneuvers.push({
        type: 'roundabout',
        modifier: modifierFor(exitAngle),
        pathIndex: index,
        location,
        bearingBefore,
        bearingAfter,
        exit,
      });
      index = leave;
      currentName = roadLabel(exitEdge);
      continue;
    }

    const modifier = modifierFor(angle);
    const node = graph.edgeTail[edge.edge]!;
    const atJunction = (graph.nodeFlags[node]! & NODE_JUNCTION) !== 0;
    if (modifier === 'uturn') {
      maneuvers.push({ type: 'U-turn', modifier, pathIndex: index, location, bearingBefore, bearingAfter });
    } else if (name !== currentName) {
      const type = Math.abs(angle) < 30 ? 'Continue' : 'Turn';
      maneuvers.push({ type, modifier, pathIndex: index, location, bearingBefore, bearingAfter });
    } else if (atJunction && Math.abs(angle) >= SAME_NAME_TURN_DEGREES) {
      maneuvers.push({ type: 'Turn', modifier, pathIndex: index, location, bearingBefore, bearingAfter });
    } else {
      continue;
    }
    currentName = name;
  }

  const last = edges[edges.length - 1]!;
  maneuvers.push({
    type: ARRIVE,
    pathIndex: edges.length,
    location: last.coordinates[last.coordinates.length - 1]!,
    bearingBefore: endBearing(last),
    bearingAfter: 0,
  });
  return maneuvers;
}
