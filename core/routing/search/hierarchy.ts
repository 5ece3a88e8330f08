import { createHash } from 'node:crypto';
import type { CostMetric, Costing } from '../costing/costing.ts';
import { metricCosting } from '../costing/create-costing.ts';
import { nightLightingFactor } from '../costing/cycling-costing.ts';
import { COSTING_FINGERPRINT } from '../costing/weights.ts';
import type { Graph, HierarchyHeader } from '../../graph/layout.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { ContractionStopped, contractGraph, type ContractedArcs, type WeightedArcs } from './contraction.ts';
import { MinHeap } from './heap.ts';
import { leastLeavingHalfSeconds, NO_FOLLOWING_EDGE } from './leaving.ts';

/**
 * CH-potentials (Strasser and Zeitz, "A Fast and Tight Heuristic for A* in Road Networks", 2021):
 * the A* bound of a node is its exact least cost to the targets in a lower-bound metric, answered
 * by a contraction hierarchy (contraction.ts) of that metric. Per query one search from the
 * targets climbs the hierarchy (the arcs into each node from higher ones, reversed); a node's
 * bound is then the least of what that search found for it and, over its upward arcs, the arc
 * plus the bound of the node above, computed when the search first asks and kept for the query.
 *
 * The lower-bound metric is a node graph with an arc per directed edge e the metric may use, from
 * its tail to its head, weighing least(e) + leave(e): its least cost (`Costing.leastEdgeCost`,
 * by day, every closure open) and the least cost of leaving it onto any next edge (leaving.ts,
 * where the junction's wait for the edge's approach is counted). A search state (edge e, arrived
 * at its head u) pays at least leave(e) + d(u), d the distance from u to the targets' seeds (each
 * target edge's tail, with the edge's least cost up to the target point): going on along e' it
 * pays turn(e, e') + cost(e') with turn(e, e') >= leave(e) and cost(e') >= least(e'), and from
 * e' at least leave(e') + d(head e'), so the bound never overestimates and is consistent. The
 * route stays optimal however the departure, night, closures, accepted reports, no-ride zones or
 * the hill preference raise costs or forbid turns, with nothing recomputed when they change.
 * Where they leave costs at their least the bound is the route's own cost but for turns beyond
 * the least, and the search settles little more than the route.
 *
 * Leaving rather than entering: an edge's least turn onto it is usually a turn off a busy road,
 * with no wait, so a bound that counts turns on entering finds every minor street's crossing of a
 * busy road free; counted on leaving, the wait on the minor street's approach is in the bound. On
 * New York's seeded pairs supersafe settles 29% fewer states at p95 (1,152 → 822), direct 4% more.
 */

/**
 * What a hierarchy bounds: a costing metric by day, or a cycling metric at night, whose least
 * costs are the day's times each edge's lighting factor (`nightLightingFactor`). Night routes pay
 * those factors on every unlit or unknown way, which the day's bound does not know of: with the
 * day's hierarchy a night search on the metro settled 14 times the states of a day one at p95.
 */
export type HierarchyMetric = CostMetric | 'cycling-supersafe-night' | 'cycling-direct-night';

/**
 * The metrics that get a hierarchy, in the order they are contracted (a build that runs out of
 * time leaves out the last): every metric a costing can have, then the cycling metrics at night.
 */
export const HIERARCHY_METRICS: readonly HierarchyMetric[] = ['cycling-supersafe', 'cycling-direct', 'walking', 'cycling-supersafe-night', 'cycling-direct-night'];

/** The night metric of a cycling metric. */
const NIGHT_METRICS: Partial<Record<CostMetric, HierarchyMetric>> = { 'cycling-supersafe': 'cycling-supersafe-night', 'cycling-direct': 'cycling-direct-night' };
/** The day metric whose least costs and turns a metric's are made from. */
const DAY_METRICS: Record<HierarchyMetric, CostMetric> = {
  'cycling-supersafe': 'cycling-supersafe', 'cycling-direct': 'cycling-direct', 'cycling-graded': 'cycling-graded', walking: 'walking',
  'cycling-supersafe-night': 'cycling-supersafe', 'cycling-direct-night': 'cycling-direct',
};

export type HierarchySet = Partial<Record<HierarchyMetric, ContractedArcs>>;

/**
 * The hierarchy that bounds a costing's `metric`: at night its night hierarchy where the set has
 * one, else the day's (a lower bound at night too, since night only raises costs).
 */
export function hierarchyFor(set: HierarchySet, metric: CostMetric, night: boolean): ContractedArcs | undefined {
  const nightMetric = night ? NIGHT_METRICS[metric] : undefined;
  return (nightMetric && set[nightMetric]) || set[metric];
}

/** Raise when the lower-bound graph's weights change: 2 counts turns on leaving an edge (1 on entering). */
const LOWER_BOUND_REVISION = 2;

/**
 * What a graph's hierarchies were computed under: the costing (COSTING_FINGERPRINT) and the
 * lower-bound graph's revision. Hierarchies under another are not used: an arc that counts turns
 * on entering, with the search's bound counting them on leaving, would count a turn twice.
 */
export const HIERARCHY_FINGERPRINT = createHash('sha256').update(JSON.stringify([COSTING_FINGERPRINT, LOWER_BOUND_REVISION])).digest('hex');

/**
 * The metric's lower-bound node graph (see above), by day or (`night`) with each edge's least
 * cost weighed by its lighting. An edge nothing can follow is left out: a route ends on one only
 * as a target, which the search from the targets starts at its tail.
 */
export function lowerBoundArcs(costing: Costing, night = false): WeightedArcs {
  const graph = costing.network.graph;
  const leastCost = new Float64Array(graph.edgeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) leastCost[edge] = costing.leastEdgeCost(edge);
  // Turns out of an edge cost the same by night; the edge's own least cost is weighed by its lighting.
  const leaving = leastLeavingHalfSeconds(costing, leastCost);
  if (night) for (let edge = 0; edge < graph.edgeCount; edge++) leastCost[edge]! *= nightLightingFactor(graph.edgeFlags[edge]!);
  const first = new Uint32Array(graph.nodeCount + 1);
  let arcs = 0;
  for (let node = 0; node < graph.nodeCount; node++) {
    for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) if (leaving[edge] !== NO_FOLLOWING_EDGE) arcs++;
    first[node + 1] = arcs;
  }
  const head = new Uint32Array(arcs);
  const weight = new Float64Array(arcs);
  for (let edge = 0, at = 0; edge < graph.edgeCount; edge++) {
    if (leaving[edge] === NO_FOLLOWING_EDGE) continue;
    head[at] = graph.edgeHead[edge]!;
    weight[at++] = leastCost[edge]! + leaving[edge]! * 0.5;
  }
  return { first, head, weight };
}

/** The lower-bound graph of a hierarchy metric: its day metric's costing, at night with the lighting factors. */
export function metricLowerBoundArcs(network: RoutingNetwork, metric: HierarchyMetric): WeightedArcs {
  return lowerBoundArcs(metricCosting(network, DAY_METRICS[metric]), metric !== DAY_METRICS[metric]);
}

/**
 * A hierarchy per metric in `metrics`, computed from the network's costing, in that order. `stop`
 * is asked before each metric and now and then during its contraction (a build's deadline): once
 * it answers true, the metric being contracted and those after it are left out of the set, and
 * the router bounds their searches by the landmarks instead.
 */
export function computeHierarchies(network: RoutingNetwork, metrics: readonly HierarchyMetric[] = HIERARCHY_METRICS, stop: () => boolean = () => false): HierarchySet {
  const set: HierarchySet = {};
  for (const metric of metrics) {
    if (stop()) break;
    try {
      set[metric] = contractGraph(metricLowerBoundArcs(network, metric), stop);
    } catch (error) {
      if (error instanceof ContractionStopped) break;
      throw error;
    }
  }
  return set;
}

export interface HierarchySections {
  header: HierarchyHeader;
  sections: {
    hierarchyUpFirst: Uint32Array;
    hierarchyUpHead: Uint32Array;
    hierarchyUpWeight: Float32Array;
    hierarchyDownFirst: Uint32Array;
    hierarchyDownTail: Uint32Array;
    hierarchyDownWeight: Float32Array;
  };
}

/** The set's hierarchies laid out as the graph stores them: each array the metrics' parts one after the other. */
export function hierarchySections(set: HierarchySet, nodeCount: number): HierarchySections {
  const metrics = HIERARCHY_METRICS.filter((metric) => set[metric]);
  const joined = <T extends Uint32Array | Float32Array>(parts: T[], make: (length: number) => T): T => {
    const whole = make(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.length;
    }
    return whole;
  };
  const of = <K extends keyof ContractedArcs>(key: K) => metrics.map((metric) => set[metric]![key]);
  const u32 = (length: number) => new Uint32Array(length);
  const f32 = (length: number) => new Float32Array(length);
  if (metrics.some((metric) => set[metric]!.upFirst.length !== nodeCount + 1)) throw new Error('A hierarchy of another graph');
  return {
    header: {
      costing: HIERARCHY_FINGERPRINT,
      metrics: metrics.map((name) => ({ name, up_arcs: set[name]!.upHead.length, down_arcs: set[name]!.downTail.length })),
    },
    sections: {
      hierarchyUpFirst: joined(of('upFirst'), u32), hierarchyUpHead: joined(of('upHead'), u32), hierarchyUpWeight: joined(of('upWeight'), f32),
      hierarchyDownFirst: joined(of('downFirst'), u32), hierarchyDownTail: joined(of('downTail'), u32), hierarchyDownWeight: joined(of('downWeight'), f32),
    },
  };
}

/**
 * The graph's hierarchies, as views on its sections, if they were computed under today's costing
 * and lower-bound graph (HIERARCHY_FINGERPRINT); else none (computing them takes minutes on a
 * metro: the search then bounds by the landmarks).
 */
export function storedHierarchies(graph: Graph): HierarchySet {
  const header = graph.header.hierarchies;
  const set: HierarchySet = {};
  if (header.costing !== HIERARCHY_FINGERPRINT) return set;
  const rows = graph.nodeCount + 1;
  let up = 0;
  let down = 0;
  header.metrics.forEach(({ name, up_arcs: upArcs, down_arcs: downArcs }, m) => {
    set[name as HierarchyMetric] = {
      upFirst: graph.hierarchyUpFirst.subarray(m * rows, (m + 1) * rows),
      upHead: graph.hierarchyUpHead.subarray(up, up + upArcs),
      upWeight: graph.hierarchyUpWeight.subarray(up, up + upArcs),
      downFirst: graph.hierarchyDownFirst.subarray(m * rows, (m + 1) * rows),
      downTail: graph.hierarchyDownTail.subarray(down, down + downArcs),
      downWeight: graph.hierarchyDownWeight.subarray(down, down + downArcs),
    };
    up += upArcs;
    down += downArcs;
  });
  return set;
}

/** Where a query's bound starts: a target edge's tail and the least cost still to pay from there. */
export interface PotentialSeed {
  node: number;
  cost: number;
}

/** Where `PotentialBuffers.perNode` holds a node's climb and its bound, after 2 × node. */
const CLIMBED = 0;
const POTENTIAL = 1;

/** Per-node buffers of the potential, sized for one graph and reused by its queries (reset from the nodes each touched). */
export class PotentialBuffers {
  /**
   * Per node two entries side by side (one memory read brings both): at 2 × node, the climb from
   * the targets' least cost from the node down to them (Infinity where it did not reach it); at
   * 2 × node + 1, the node's bound, -1 until asked.
   */
  readonly perNode: Float64Array;
  private climbedNodes = new Int32Array(1024);
  private climbedCount = 0;
  private potentialNodes = new Int32Array(1024);
  private potentialCount = 0;
  readonly heap = new MinHeap(1024);

  constructor(readonly nodeCount: number) {
    this.perNode = new Float64Array(2 * nodeCount);
    for (let node = 0; node < nodeCount; node++) {
      this.perNode[CLIMBED + 2 * node] = Infinity;
      this.perNode[POTENTIAL + 2 * node] = -1;
    }
  }

  reset(): void {
    for (let i = 0; i < this.climbedCount; i++) this.perNode[CLIMBED + 2 * this.climbedNodes[i]!] = Infinity;
    for (let i = 0; i < this.potentialCount; i++) this.perNode[POTENTIAL + 2 * this.potentialNodes[i]!] = -1;
    this.climbedCount = 0;
    this.potentialCount = 0;
    this.heap.clear();
  }

  climbed(node: number): number {
    return this.perNode[CLIMBED + 2 * node]!;
  }

  reach(node: number, cost: number): void {
    if (this.perNode[CLIMBED + 2 * node] === Infinity) {
      if (this.climbedCount === this.climbedNodes.length) this.climbedNodes = grown(this.climbedNodes);
      this.climbedNodes[this.climbedCount++] = node;
    }
    this.perNode[CLIMBED + 2 * node] = cost;
  }

  keep(node: number, bound: number): number {
    if (this.potentialCount === this.potentialNodes.length) this.potentialNodes = grown(this.potentialNodes);
    this.potentialNodes[this.potentialCount++] = node;
    this.perNode[POTENTIAL + 2 * node] = bound;
    return bound;
  }
}

/** The list twice as long, its entries kept. */
function grown(list: Int32Array): Int32Array<ArrayBuffer> {
  const longer = new Int32Array(list.length * 2);
  longer.set(list);
  return longer;
}

/** One query's bound: the least cost from any node to the targets in the metric's lower-bound graph. */
export class HierarchyPotential {
  private readonly perNode: Float64Array;
  private readonly upFirst: Uint32Array;
  /** `UpArcs.head` and `UpArcs.weight`: arc i's head at 2 × i, its weight at 2 × i + 1. */
  private readonly upHead: Uint32Array;
  private readonly upWeight: Float32Array;

  constructor(
    arcs: ContractedArcs,
    private readonly buffers: PotentialBuffers,
    seeds: readonly PotentialSeed[],
  ) {
    buffers.reset();
    const { perNode, heap } = buffers;
    const { downFirst, downTail, downWeight } = arcs;
    for (const { node, cost } of seeds) {
      if (cost >= buffers.climbed(node)) continue;
      buffers.reach(node, cost);
      heap.push(cost, node);
    }
    while (heap.size > 0) {
      const reached = heap.peekKey();
      const node = heap.pop();
      if (reached > perNode[CLIMBED + 2 * node]!) continue;
      for (let i = downFirst[node]!, end = downFirst[node + 1]!; i < end; i++) {
        const higher = downTail[i]!;
        const total = reached + downWeight[i]!;
        if (total < perNode[CLIMBED + 2 * higher]!) {
          buffers.reach(higher, total);
          heap.push(total, higher);
        }
      }
    }
    // Read on every node the search asks about: held here rather than looked up through the buffers and arcs.
    this.perNode = perNode;
    this.upFirst = arcs.upFirst;
    ({ head: this.upHead, weight: this.upWeight } = upArcsSideBySide(arcs));
  }

  /** The node's least cost to the targets (Infinity where it cannot reach them). */
  at(node: number): number {
    const known = this.perNode[POTENTIAL + 2 * node]!;
    return known >= 0 ? known : this.computeAt(node);
  }

  private computeAt(node: number): number {
    const { upFirst, upHead, upWeight } = this;
    const perNode = this.perNode;
    let bound = perNode[CLIMBED + 2 * node]!;
    // The nodes above are asked first; a path upward is as long as the hierarchy is deep.
    for (let i = 2 * upFirst[node]!, end = 2 * upFirst[node + 1]!; i < end; i += 2) {
      const above = upHead[i]!;
      const known = perNode[POTENTIAL + 2 * above]!;
      const through = upWeight[i + 1]! + (known >= 0 ? known : this.computeAt(above));
      if (through < bound) bound = through;
    }
    return this.buffers.keep(node, bound);
  }
}

/** A hierarchy's upward arcs, head and weight side by side (`UpArcs`): per graph and metric, made on first use. */
const upArcsOf = new WeakMap<Uint32Array, UpArcs>();

/**
 * A hierarchy's upward arcs with each arc's head and weight side by side, one 8-byte entry per
 * arc (the head at 2 × arc in `head`, the weight at 2 × arc + 1 in `weight`, two views of one
 * buffer): the potential reads both for every arc above every node it asks about, and at metro
 * scale the graph file's two columns (`upHead`, `upWeight`) cost two cache misses per arc where
 * this costs one (supersafe's snap + search about 7% less CPU on the metro benchmark). Derived on
 * the first query of each metric, 8 bytes per upward arc beside the file's.
 */
export interface UpArcs {
  head: Uint32Array;
  weight: Float32Array;
}

export function upArcsSideBySide(arcs: ContractedArcs): UpArcs {
  const known = upArcsOf.get(arcs.upHead);
  if (known) return known;
  const buffer = new ArrayBuffer(8 * arcs.upHead.length);
  const paired: UpArcs = { head: new Uint32Array(buffer), weight: new Float32Array(buffer) };
  for (let arc = 0; arc < arcs.upHead.length; arc++) {
    paired.head[2 * arc] = arcs.upHead[arc]!;
    paired.weight[2 * arc + 1] = arcs.upWeight[arc]!;
  }
  upArcsOf.set(arcs.upHead, paired);
  return paired;
}
