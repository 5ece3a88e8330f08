import type { Graph } from '../../graph/layout.ts';

/**
 * The cost tables a graph stores for the standard metrics (docs/graph-format.md, "Cost tables"):
 * every edge's least cost and every turn's cost, computed by the costing when the graph is built
 * and read in place by the router, so neither loading nor the first query computes them. The
 * costing (costing.ts) decides which metrics store tables and what is in them; this module only
 * lays them out and reads them.
 */

/** A turn table's entry for a turn that is never allowed. */
export const TURN_FORBIDDEN = 255;

/** What the search reads for one metric. */
export interface MetricTables {
  /** Per edge, the least cost (Costing.leastEdgeCost), seconds; Infinity where the metric may not use the edge. */
  readonly leastCost: Float32Array;
  /**
   * Per turn (entry `RoutingNetwork.turnBase(from) + to`), the turn's cost without the overlay in
   * half-seconds, TURN_FORBIDDEN where it is never allowed.
   */
  readonly turnCost: Uint8Array;
}

/**
 * The turn rows' layout (section `turnRowFirst`): node v's turns are a matrix of a row per
 * arriving edge with any of `rowFlags` (in inEdges order) by a column per leaving edge, from
 * entry turnRowFirst[v]. Turns out of edges no stored metric may use take no room.
 */
export function turnRowFirstOf(graph: Pick<Graph, 'nodeCount' | 'firstOut' | 'firstIn' | 'inEdges' | 'edgeFlags'>, rowFlags: number): Uint32Array {
  const first = new Uint32Array(graph.nodeCount + 1);
  for (let node = 0; node < graph.nodeCount; node++) {
    let rows = 0;
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) if (graph.edgeFlags[graph.inEdges[i]!]! & rowFlags) rows++;
    first[node + 1] = first[node]! + rows * (graph.firstOut[node + 1]! - graph.firstOut[node]!);
  }
  return first;
}

/** The metric's tables as stored in the graph, when the graph holds them under `fingerprint`; else null. */
export function storedMetricTables(graph: Graph, metric: string, fingerprint: string): MetricTables | null {
  const header = graph.header.cost_tables;
  const index = header.metrics.indexOf(metric);
  if (header.costing !== fingerprint || index < 0) return null;
  const edges = graph.edgeCount;
  const turns = graph.turnRowFirst[graph.nodeCount]!;
  return {
    leastCost: graph.leastCost.subarray(index * edges, (index + 1) * edges),
    turnCost: graph.turnCost.subarray(index * turns, (index + 1) * turns),
  };
}
