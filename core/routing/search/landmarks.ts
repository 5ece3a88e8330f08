import { COSTING_FINGERPRINT, Costing, type CostMetric } from '../costing/costing.ts';
import type { Graph, LandmarkHeader } from '../../graph/layout.ts';
import { MinHeap } from './heap.ts';
import type { RoutingNetwork } from '../network/network.ts';

/**
 * Landmarks for A* (ALT: A*, landmarks and the triangle inequality; Goldberg and Harrelson, 2005).
 * For a few nodes L spread around the city's edge the graph stores the least cost from L to every
 * node and from every node to L. For any u and t, d(u,t) >= d(L,t) - d(L,u) and
 * d(u,t) >= d(u,L) - d(t,L), which bounds the cost still to come far more tightly than a straight
 * line does where waits at signals and turns are a large part of a route's cost, as on a city grid.
 *
 * Distances are over a node graph whose edge weight is the edge's least cost plus the least cost
 * of leaving it onto any next edge (every turn cost includes the wait at the junction the edge
 * arrives at). A route from a search state (edge e, arrived at its head u) to a target edge t
 * pays at least leave(e) + d(u, tail t); that is the bound, and it is consistent, so A* stays
 * optimal. Least costs are time-independent (closures open, by day), so the tables hold for every
 * departure; the graph records the costing fingerprint they were computed under.
 *
 * Tables are 16-bit: a distance is stored as floor(d / unit), so a difference of two is at most
 * one unit above the true difference, and every bound gives that unit back.
 */

export const LANDMARK_COUNT = 10;
/**
 * Landmarks consulted per query: those that bound the distance between its ends best (every
 * stored one today: on New York all 10 settle a tenth fewer states than the best 6, and with the
 * bound cached per node the extra landmarks cost less than the states they save).
 */
export const ACTIVE_LANDMARKS = 10;
/** Walking goes without: its costs are near its straight-line bound already. */
export const LANDMARK_METRICS: readonly CostMetric[] = ['cycling-supersafe', 'cycling-direct'];

const UNREACHABLE = 0xffff;
const LARGEST_DISTANCE = UNREACHABLE - 1;
const NO_FOLLOWING_EDGE = 0xff;

/** One metric's tables, as views on the graph file or freshly computed. */
export class Landmarks {
  constructor(
    readonly nodes: Uint32Array,
    /** Least cost of any turn out of each edge, half-seconds; NO_FOLLOWING_EDGE where none follows. */
    readonly leaveHalfSeconds: Uint8Array,
    /** [landmark * nodeCount + node], in `unit`s. */
    readonly fromLandmark: Uint16Array,
    /** [landmark * nodeCount + node], in `unit`s. */
    readonly toLandmark: Uint16Array,
    /** Seconds per step of the distance tables. */
    readonly unit: number,
  ) {}
}

export type LandmarkSet = Partial<Record<CostMetric, Landmarks>>;

export interface LandmarkSections {
  header: LandmarkHeader;
  sections: { landmarkNodes: Uint32Array; landmarkLeave: Uint8Array; landmarkFrom: Uint16Array; landmarkTo: Uint16Array };
}

/** The costing whose least costs define a metric (departure and lighting do not enter them). */
export function metricCosting(network: RoutingNetwork, metric: CostMetric): Costing {
  return new Costing(network, {
    profile: metric === 'walking' ? 'walking' : 'cycling',
    supersafe: metric === 'cycling-supersafe',
    night: false,
    departureMinute: 0,
  });
}

/** The graph's tables if they were computed under today's costing, else null. */
export function storedLandmarks(graph: Graph): LandmarkSet | null {
  const header = graph.header.landmarks;
  if (header.costing !== COSTING_FINGERPRINT || header.metrics.length === 0) return null;
  const { nodeCount, edgeCount } = graph;
  const count = header.count;
  const set: LandmarkSet = {};
  header.metrics.forEach(({ name, unit }, m) => {
    const table = m * count * nodeCount;
    set[name as CostMetric] = new Landmarks(
      graph.landmarkNodes.subarray(m * count, (m + 1) * count),
      graph.landmarkLeave.subarray(m * edgeCount, (m + 1) * edgeCount),
      graph.landmarkFrom.subarray(table, table + count * nodeCount),
      graph.landmarkTo.subarray(table, table + count * nodeCount),
      unit,
    );
  });
  return set;
}

/**
 * Computes the landmark sections for every metric in LANDMARK_METRICS (the builder stores them).
 * Each metric's tables are quantized straight into their place in the sections, so no metric's
 * tables are held twice; a metric that finds fewer than `count` landmarks (a tiny graph) shrinks
 * every metric's rows to its count at the end, as the file keeps one count for all.
 */
export function computeLandmarkSections(network: RoutingNetwork, count = LANDMARK_COUNT): LandmarkSections {
  const { nodeCount, edgeCount } = network.graph;
  const metrics = LANDMARK_METRICS.length;
  const full = {
    landmarkNodes: new Uint32Array(metrics * count),
    landmarkLeave: new Uint8Array(metrics * edgeCount),
    landmarkFrom: new Uint16Array(metrics * count * nodeCount),
    landmarkTo: new Uint16Array(metrics * count * nodeCount),
  };
  const found: { nodes: number; unit: number }[] = LANDMARK_METRICS.map((metric, m) => {
    const table = m * count * nodeCount;
    const landmarks = computeLandmarks(metricCosting(network, metric), count, {
      fromLandmark: full.landmarkFrom.subarray(table, table + count * nodeCount),
      toLandmark: full.landmarkTo.subarray(table, table + count * nodeCount),
    });
    full.landmarkNodes.set(landmarks.nodes, m * count);
    full.landmarkLeave.set(landmarks.leaveHalfSeconds, m * edgeCount);
    return { nodes: landmarks.nodes.length, unit: landmarks.unit };
  });
  const landmarkCount = Math.min(...found.map((metric) => metric.nodes));
  const sections = landmarkCount === count ? full : {
    landmarkNodes: new Uint32Array(metrics * landmarkCount),
    landmarkLeave: full.landmarkLeave,
    landmarkFrom: new Uint16Array(metrics * landmarkCount * nodeCount),
    landmarkTo: new Uint16Array(metrics * landmarkCount * nodeCount),
  };
  if (sections !== full) {
    for (let m = 0; m < metrics; m++) {
      sections.landmarkNodes.set(full.landmarkNodes.subarray(m * count, m * count + landmarkCount), m * landmarkCount);
      const from = m * count * nodeCount;
      sections.landmarkFrom.set(full.landmarkFrom.subarray(from, from + landmarkCount * nodeCount), m * landmarkCount * nodeCount);
      sections.landmarkTo.set(full.landmarkTo.subarray(from, from + landmarkCount * nodeCount), m * landmarkCount * nodeCount);
    }
  }
  return {
    header: {
      costing: COSTING_FINGERPRINT,
      count: landmarkCount,
      metrics: LANDMARK_METRICS.map((name, m) => ({ name, unit: found[m]!.unit })),
    },
    sections,
  };
}

/** Where computeLandmarks may write its distance tables (count * nodeCount entries each). */
export interface LandmarkTablesTarget {
  readonly fromLandmark: Uint16Array;
  readonly toLandmark: Uint16Array;
}

/** Computes one metric's tables from the costing's least edge costs and turn costs. */
export function computeLandmarks(costing: Costing, count = LANDMARK_COUNT, target?: LandmarkTablesTarget): Landmarks {
  const network = costing.network;
  const graph = network.graph;
  const { edgeCount, nodeCount } = graph;

  const leastCost = new Float64Array(edgeCount);
  for (let edge = 0; edge < edgeCount; edge++) leastCost[edge] = costing.leastEdgeCost(edge);
  const leaveHalfSeconds = new Uint8Array(edgeCount);
  const weight = new Float64Array(edgeCount);
  for (let edge = 0; edge < edgeCount; edge++) {
    let least = Infinity;
    if (leastCost[edge] !== Infinity) {
      const head = graph.edgeHead[edge]!;
      for (let next = graph.firstOut[head]!, end = graph.firstOut[head + 1]!; next < end; next++) {
        if (leastCost[next] === Infinity) continue;
        const turn = costing.turnCost(edge, next);
        if (turn < least) least = turn;
      }
    }
    // An edge nothing follows cannot be on the way to a target (the target edge itself never
    // needs leaving), so it is left out of the distances.
    weight[edge] = leastCost[edge]! + least;
    leaveHalfSeconds[edge] = least === Infinity ? NO_FOLLOWING_EDGE : Math.min(NO_FOLLOWING_EDGE - 1, Math.floor(least * 2));
  }

  const forward: Adjacency = { first: graph.firstOut, node: graph.edgeHead, weight };
  const backward: Adjacency = {
    first: graph.firstIn,
    node: graph.inEdges.map((edge) => graph.edgeTail[edge]!),
    weight: Float64Array.from(graph.inEdges, (edge) => weight[edge]!),
  };
  const hasEdge = (adjacency: Adjacency, node: number) => {
    for (let i = adjacency.first[node]!, end = adjacency.first[node + 1]!; i < end; i++) if (adjacency.weight[i] !== Infinity) return true;
    return false;
  };
  const nodes = selectLandmarkNodes(network, (node) => hasEdge(forward, node) && hasEdge(backward, node), count);

  const exact = [new Float64Array(nodes.length * nodeCount), new Float64Array(nodes.length * nodeCount)] as const;
  const heap = new MinHeap(4096);
  let greatest = 0;
  nodes.forEach((landmark, index) => {
    [forward, backward].forEach((adjacency, direction) => {
      const distance = exact[direction]!.subarray(index * nodeCount, (index + 1) * nodeCount);
      nodeDijkstra(landmark, adjacency, distance, heap);
      for (let node = 0; node < nodeCount; node++) if (distance[node]! !== Infinity && distance[node]! > greatest) greatest = distance[node]!;
    });
  });
  const unit = Math.max(greatest, 1) / LARGEST_DISTANCE;
  const quantize = (distances: Float64Array, into: Uint16Array = new Uint16Array(distances.length)) => {
    for (let i = 0; i < distances.length; i++) {
      const distance = distances[i]!;
      into[i] = distance === Infinity ? UNREACHABLE : Math.min(LARGEST_DISTANCE, Math.floor(distance / unit));
    }
    return into.subarray(0, distances.length);
  };
  return new Landmarks(Uint32Array.from(nodes), leaveHalfSeconds, quantize(exact[0], target?.fromLandmark), quantize(exact[1], target?.toLandmark), unit);
}

/**
 * Picks landmarks the planar way: split the plane around the graph's centre into equal sectors
 * and take, in each, the usable node farthest from the centre.
 */
function selectLandmarkNodes(network: RoutingNetwork, usableNode: (node: number) => boolean, count: number): number[] {
  const nodeCount = network.graph.nodeCount;
  let sumLon = 0;
  let sumLat = 0;
  let usable = 0;
  for (let node = 0; node < nodeCount; node++) {
    if (!usableNode(node)) continue;
    sumLon += network.nodeLon(node);
    sumLat += network.nodeLat(node);
    usable++;
  }
  if (usable === 0) return [];
  const centreLon = sumLon / usable;
  const centreLat = sumLat / usable;
  const cosLat = Math.cos((centreLat * Math.PI) / 180);
  const best = new Array<number>(count).fill(-1);
  const bestDistance = new Array<number>(count).fill(-1);
  for (let node = 0; node < nodeCount; node++) {
    if (!usableNode(node)) continue;
    const dx = (network.nodeLon(node) - centreLon) * cosLat;
    const dy = network.nodeLat(node) - centreLat;
    const sector = Math.min(count - 1, Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * count));
    const distance = dx * dx + dy * dy;
    if (distance > bestDistance[sector]!) {
      bestDistance[sector] = distance;
      best[sector] = node;
    }
  }
  return best.filter((node) => node >= 0);
}

interface Adjacency {
  /** N+1 offsets into node and weight. */
  first: Uint32Array;
  /** The node at the other end of each entry. */
  node: Uint32Array;
  weight: Float64Array;
}

function nodeDijkstra(start: number, adjacency: Adjacency, distance: Float64Array, heap: MinHeap): void {
  const { first, node: neighbour, weight } = adjacency;
  distance.fill(Infinity);
  distance[start] = 0;
  heap.clear();
  heap.push(0, start);
  while (heap.size > 0) {
    const reached = heap.peekKey();
    const node = heap.pop();
    if (reached > distance[node]!) continue;
    for (let i = first[node]!, end = first[node + 1]!; i < end; i++) {
      const total = reached + weight[i]!;
      const other = neighbour[i]!;
      if (total < distance[other]!) {
        distance[other] = total;
        heap.push(total, other);
      }
    }
  }
}

/**
 * The bound for one query: a lower bound on the cost from a search state to the nearest of the
 * target edges' tails, from the landmarks that bound the distance between the query's ends best.
 */
export class LandmarkBound {
  /** Per active landmark: where its rows start in the tables (landmark * nodeCount). */
  private readonly offsets: Int32Array;
  /** Per active landmark: least d(L, t) over the targets t, and greatest d(t, L). */
  private readonly landmarkToTarget: Int32Array;
  private readonly targetToLandmark: Int32Array;

  constructor(
    private readonly landmarks: Landmarks,
    nodeCount: number,
    targetNodes: readonly number[],
    sourceNodes: readonly number[],
    activeCount = ACTIVE_LANDMARKS,
  ) {
    const { fromLandmark, toLandmark } = landmarks;
    const candidates: { offset: number; from: number; to: number; score: number }[] = [];
    for (let landmark = 0; landmark < landmarks.nodes.length; landmark++) {
      const offset = landmark * nodeCount;
      let from = UNREACHABLE;
      let to = 0;
      for (const node of targetNodes) {
        from = Math.min(from, fromLandmark[offset + node]!);
        to = Math.max(to, toLandmark[offset + node]!);
      }
      // A landmark that cannot reach a target, or that a target cannot reach, bounds nothing.
      if (from === UNREACHABLE || to === UNREACHABLE) continue;
      let score = Infinity;
      for (const node of sourceNodes) score = Math.min(score, Math.max(from - fromLandmark[offset + node]!, toLandmark[offset + node]! - to));
      candidates.push({ offset, from, to, score });
    }
    candidates.sort((a, b) => b.score - a.score);
    const active = candidates.slice(0, activeCount);
    this.offsets = Int32Array.from(active, (candidate) => candidate.offset);
    this.landmarkToTarget = Int32Array.from(active, (candidate) => candidate.from);
    this.targetToLandmark = Int32Array.from(active, (candidate) => candidate.to);
  }

  /**
   * Least cost still to come after arriving along `edge` at its head `node`, given that reaching
   * the targets from the node is already known to cost at least `atLeast` (the straight line).
   * An unreachable node reads as the largest distance: the bound it gives is then either negative
   * (no help) or says, rightly, that the node cannot reach the targets.
   */
  remaining(edge: number, node: number, atLeast: number): number {
    return this.landmarks.leaveHalfSeconds[edge]! * 0.5 + this.fromNode(node, atLeast);
  }

  /** The part of `remaining` that depends on the node alone (the search caches it per node). */
  fromNode(node: number, atLeast: number): number {
    const { fromLandmark, toLandmark } = this.landmarks;
    const { offsets, landmarkToTarget, targetToLandmark } = this;
    let steps = 1;
    for (let i = 0; i < offsets.length; i++) {
      const offset = offsets[i]!;
      const ahead = landmarkToTarget[i]! - fromLandmark[offset + node]!;
      if (ahead > steps) steps = ahead;
      const behind = toLandmark[offset + node]! - targetToLandmark[i]!;
      if (behind > steps) steps = behind;
    }
    return Math.max(atLeast, (steps - 1) * this.landmarks.unit);
  }
}
