import { CONTROL_ALL_WAY_STOP, CONTROL_GIVE_WAY, CONTROL_NONE, CONTROL_TRAFFIC_SIGNALS, CONTROL_TWO_WAY_STOP, NODE_ALL_WAY_STOP, NODE_BARRIER_DISMOUNT, NODE_BARRIER_NARROW, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, NODE_CROSSING, NODE_CROSSING_SIGNALS, NODE_GIVE_WAY, NODE_MINI_ROUNDABOUT, NODE_STOP, NODE_TRAFFIC_SIGNALS } from '../../../core/graph/flags.ts';
import type { Tags } from '../../osm/types.ts';
import { tooNarrowForCargoRule } from '../../tag-rules/width.ts';

/**
 * Junction control (traffic signals, all-way stops, two-way stops, give-ways) and barriers, from
 * node tags, and the approach direction each applies to. A control applies to arrivals at its
 * node; which arrivals is decided by `direction` tags, or, for a sign on a plain way node, by
 * which way the nearest junction lies (a stop line faces the junction it guards).
 */

export type ControlDirection = 'forward' | 'backward' | 'both';

export interface NodeControl {
  /** CONTROL_* met by traffic arriving from the applicable direction(s). */
  readonly control: number;
  /** The control is a signalled pedestrian crossing rather than junction or approach signals. */
  readonly crossing?: boolean;
  /** null = infer from the nearest junction. */
  readonly direction: ControlDirection | null;
  /** NODE_* bits stored on the node. */
  readonly flags: number;
}

/** Barriers a bicycle cannot pass at all, or only pushed. Others (bollard, gate, lift_gate) let bicycles through. */
const BARRIER_CYCLING: Readonly<Record<string, 'blocked' | 'dismount'>> = {
  stile: 'blocked', turnstile: 'blocked', 'full-height_turnstile': 'blocked', fence: 'blocked', wall: 'blocked',
  kissing_gate: 'dismount', cycle_barrier: 'dismount', swing_gate: 'dismount', step: 'dismount', motorcycle_barrier: 'dismount',
};

/**
 * Barriers built to let a bicycle through only upright and pushed, or not at all, which a cargo
 * bike does not fit through whatever their access tags say (a `maxwidth` under 1 m says the same of any barrier).
 */
const BARRIERS_TOO_NARROW_FOR_CARGO: ReadonlySet<string> = new Set([
  'kissing_gate', 'cycle_barrier', 'stile', 'turnstile', 'full-height_turnstile', 'motorcycle_barrier', 'step',
]);

function directionTag(tags: Tags, key: string): ControlDirection | null {
  const value = tags[`${key}:direction`] ?? tags.direction;
  if (value === 'forward' || value === 'backward') return value;
  if (value === 'both' || value === 'all') return 'both';
  return null;
}

const DENIED = new Set(['no', 'private', 'use_sidepath']);

/** The control and node flags one node's tags describe; null when the node has none. */
export function nodeControlRule(tags: Tags | null): NodeControl | null {
  if (!tags) return null;
  let control = CONTROL_NONE;
  let direction: ControlDirection | null = null;
  let flags = 0;
  const highway = tags.highway;
  if (highway === 'traffic_signals') {
    control = CONTROL_TRAFFIC_SIGNALS;
    flags |= NODE_TRAFFIC_SIGNALS;
    direction = directionTag(tags, 'traffic_signals');
    if (tags.crossing !== undefined) flags |= NODE_CROSSING | NODE_CROSSING_SIGNALS;
  } else if (highway === 'stop') {
    const allWay = tags.stop === 'all';
    control = allWay ? CONTROL_ALL_WAY_STOP : CONTROL_TWO_WAY_STOP;
    flags |= allWay ? NODE_ALL_WAY_STOP : NODE_STOP;
    direction = allWay ? 'both' : directionTag(tags, 'stop');
  } else if (highway === 'give_way') {
    control = CONTROL_GIVE_WAY;
    flags |= NODE_GIVE_WAY;
    direction = directionTag(tags, 'give_way');
  } else if (highway === 'crossing') {
    flags |= NODE_CROSSING;
    if (tags.crossing === 'traffic_signals' || tags['crossing:signals'] === 'yes') {
      // Riders in the road stop for a signalled pedestrian crossing in both directions.
      control = CONTROL_TRAFFIC_SIGNALS;
      direction = 'both';
      flags |= NODE_CROSSING_SIGNALS;
      return { control, direction, flags, crossing: true };
    }
  } else if (highway === 'mini_roundabout') {
    flags |= NODE_MINI_ROUNDABOUT;
  }
  const barrier = tags.barrier;
  if (barrier !== undefined) {
    const effect = BARRIER_CYCLING[barrier];
    const bicycle = tags.bicycle;
    const foot = tags.foot;
    // A locked gate stops everyone its tags do not explicitly let through.
    const accessDenied = DENIED.has(tags.access ?? '') || tags.locked === 'yes';
    if (bicycle === 'dismount') flags |= NODE_BARRIER_DISMOUNT;
    else if ((bicycle !== undefined && DENIED.has(bicycle)) || (bicycle === undefined && (effect === 'blocked' || accessDenied))) flags |= NODE_BARRIER_NO_CYCLING;
    else if (bicycle === undefined && effect === 'dismount') flags |= NODE_BARRIER_DISMOUNT;
    if (BARRIERS_TOO_NARROW_FOR_CARGO.has(barrier) || tooNarrowForCargoRule(tags)) flags |= NODE_BARRIER_NARROW;
    if ((foot !== undefined && DENIED.has(foot)) || (foot === undefined && accessDenied) || barrier === 'wall' || barrier === 'fence') {
      flags |= NODE_BARRIER_NO_WALKING;
    }
  }
  if (control === CONTROL_NONE && flags === 0) return null;
  return { control, direction, flags };
}

/** The graph as control assignment sees it: CSR adjacency over every directed edge. */
export interface ControlGraph {
  readonly nodeCount: number;
  readonly edgeTail: ArrayLike<number>;
  readonly edgeHead: ArrayLike<number>;
  readonly edgeLength: ArrayLike<number>;
  /** 1 when the edge runs against its way's direction (for forward/backward tags). */
  readonly edgeReversed: ArrayLike<number>;
  /** Importance of the edge's road (trunk highest, paths 0), to tell the minor road at a junction. */
  readonly edgeRoadRank: ArrayLike<number>;
  readonly firstOut: ArrayLike<number>;
  readonly firstIn: ArrayLike<number>;
  readonly inEdges: ArrayLike<number>;
  control(node: number): NodeControl | null;
}

export interface ArrivalControls {
  /** Per edge: CONTROL_* met on arriving at its head. */
  readonly control: Uint8Array;
  /** Per edge: signals or an all-way stop govern this approach to the junction at its head. */
  readonly junctionControlled: Uint8Array;
}

/** How far a sign may stand from the junction it guards, and a signal from its junction. */
const SIGN_REACH_METRES = 60;
const APPROACH_REACH_METRES = 30;
/** A signalled crosswalk this close to a signalled junction is part of that junction's phases. */
const CROSSWALK_REACH_METRES = 30;

export function assignArrivalControls(graph: ControlGraph): ArrivalControls {
  const edgeCount = graph.edgeHead.length;
  const control = new Uint8Array(edgeCount);
  const junctionControlled = new Uint8Array(edgeCount);
  const degree = distinctNeighbourCounts(graph);

  const arrivals = (node: number): number[] => {
    const list: number[] = [];
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) list.push(graph.inEdges[i]!);
    return list;
  };
  /** The neighbour of a chain node other than `came`, over edges in either direction. */
  const onward = (current: number, came: number): { node: number; length: number } | null => {
    for (let e = graph.firstOut[current]!; e < graph.firstOut[current + 1]!; e++) {
      if (graph.edgeHead[e] !== came) return { node: graph.edgeHead[e]!, length: graph.edgeLength[e]! };
    }
    for (const e of arrivals(current)) {
      if (graph.edgeTail[e] !== came) return { node: graph.edgeTail[e]!, length: graph.edgeLength[e]! };
    }
    return null;
  };
  /** Metres from `node` to the next junction, travelling away from `previous`; Infinity if none near. */
  const distanceToJunctionAhead = (node: number, previous: number): number => {
    let distance = 0;
    let current = node;
    let came = previous;
    for (let steps = 0; steps < 64 && distance <= SIGN_REACH_METRES; steps++) {
      if (degree[current]! >= 3) return distance;
      const next = degree[current] === 2 ? onward(current, came) : null;
      if (!next) return Infinity;
      distance += next.length;
      came = current;
      current = next.node;
    }
    return Infinity;
  };

  /** Whether a junction with traffic signals lies within `reach` metres along the ways through `node`. */
  const nearSignalledJunction = (node: number, reach: number): boolean => {
    const seen = new Set<number>([node]);
    const queue: [number, number][] = [[node, 0]];
    while (queue.length > 0) {
      const [current, distance] = queue.shift()!;
      const control = graph.control(current);
      if (current !== node && degree[current]! >= 3 && control?.control === CONTROL_TRAFFIC_SIGNALS && !control.crossing) return true;
      const step = (next: number, length: number): void => {
        if (!seen.has(next) && distance + length <= reach) {
          seen.add(next);
          queue.push([next, distance + length]);
        }
      };
      for (let e = graph.firstOut[current]!; e < graph.firstOut[current + 1]!; e++) step(graph.edgeHead[e]!, graph.edgeLength[e]!);
      for (const e of arrivals(current)) step(graph.edgeTail[e]!, graph.edgeLength[e]!);
    }
    return false;
  };

  for (let node = 0; node < graph.nodeCount; node++) {
    const nodeControl = graph.control(node);
    if (!nodeControl || nodeControl.control === CONTROL_NONE) continue;
    // Crosswalk signals at a signalled junction switch with it: the rider stops once, at the junction.
    if (nodeControl.crossing && nearSignalledJunction(node, CROSSWALK_REACH_METRES)) continue;
    const incoming = arrivals(node);
    let applies: number[];
    if (nodeControl.direction === 'both') {
      applies = incoming;
    } else if (nodeControl.direction !== null) {
      const wantReversed = nodeControl.direction === 'backward' ? 1 : 0;
      applies = incoming.filter((e) => graph.edgeReversed[e] === wantReversed);
    } else if (degree[node]! >= 3) {
      // A stop or give-way drawn on the junction node itself binds the minor road(s).
      const isSign = nodeControl.control === CONTROL_TWO_WAY_STOP || nodeControl.control === CONTROL_GIVE_WAY;
      const roads = incoming.filter((e) => graph.edgeRoadRank[e]! > 0);
      const top = Math.max(0, ...roads.map((e) => graph.edgeRoadRank[e]!));
      const minor = roads.filter((e) => graph.edgeRoadRank[e]! < top);
      applies = isSign && minor.length > 0 ? minor : incoming;
    } else {
      // On a plain way node the sign faces the traffic heading to the nearer junction.
      const ahead = incoming.map((e) => distanceToJunctionAhead(node, graph.edgeTail[e]!));
      const nearest = Math.min(...ahead);
      applies = nearest === Infinity ? incoming : incoming.filter((_, i) => ahead[i] === nearest);
    }
    for (const e of applies) control[e] = nodeControl.control;
  }

  /** Controls on the approach chain into `junction` along `edge`, looking back up to APPROACH_REACH_METRES. */
  const approachControls = (edge: number): number[] => {
    const found: number[] = [];
    let current = edge;
    let distance = 0;
    for (let steps = 0; steps < 32; steps++) {
      if (control[current]) found.push(control[current]!);
      distance += graph.edgeLength[current]!;
      const tail = graph.edgeTail[current]!;
      if (distance > APPROACH_REACH_METRES || degree[tail] !== 2) break;
      const head = graph.edgeHead[current]!;
      const previous = arrivals(tail).find((e) => graph.edgeTail[e] !== head);
      if (previous === undefined) break;
      current = previous;
    }
    return found;
  };

  for (let junction = 0; junction < graph.nodeCount; junction++) {
    if (degree[junction]! < 3) continue;
    const roadArrivals = arrivals(junction).filter((e) => graph.edgeRoadRank[e]! > 0);
    const controls = roadArrivals.map(approachControls);
    // Stop signs on every road approach make an all-way stop even when nobody tagged stop=all.
    const distinctApproaches = new Set(roadArrivals.map((e) => graph.edgeTail[e]!)).size;
    if (distinctApproaches >= 3 && controls.every((list) => list.includes(CONTROL_TWO_WAY_STOP) || list.includes(CONTROL_ALL_WAY_STOP))) {
      for (const e of roadArrivals) {
        for (let current = e, steps = 0; steps < 32; steps++) {
          if (control[current] === CONTROL_TWO_WAY_STOP) {
            control[current] = CONTROL_ALL_WAY_STOP;
            break;
          }
          const tail = graph.edgeTail[current]!;
          if (degree[tail] !== 2) break;
          const previous = arrivals(tail).find((p) => graph.edgeTail[p] !== graph.edgeHead[current]);
          if (previous === undefined) break;
          current = previous;
        }
      }
    }
    for (const e of arrivals(junction)) {
      const list = approachControls(e);
      if (list.includes(CONTROL_TRAFFIC_SIGNALS) || list.includes(CONTROL_ALL_WAY_STOP)) junctionControlled[e] = 1;
    }
  }
  return { control, junctionControlled };
}

/** Number of distinct neighbours of each node, over edges in either direction. */
export function distinctNeighbourCounts(graph: Pick<ControlGraph, 'nodeCount' | 'firstOut' | 'edgeHead' | 'firstIn' | 'inEdges' | 'edgeTail'>): Uint8Array {
  const degree = new Uint8Array(graph.nodeCount);
  const seen: number[] = [];
  for (let node = 0; node < graph.nodeCount; node++) {
    seen.length = 0;
    for (let e = graph.firstOut[node]!; e < graph.firstOut[node + 1]!; e++) {
      const other = graph.edgeHead[e]!;
      if (other !== node && !seen.includes(other)) seen.push(other);
    }
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) {
      const other = graph.edgeTail[graph.inEdges[i]!]!;
      if (other !== node && !seen.includes(other)) seen.push(other);
    }
    degree[node] = Math.min(seen.length, 255);
  }
  return degree;
}
