import type { Graph } from '../../graph/layout.ts';

/**
 * The cost tables a graph stores for the standard metrics (docs/graph-format.md, "Cost tables"):
 * every edge's least cost and every turn's cost, computed by the costing when the graph is built
 * (graph-builder/stages/cost-tables.ts, which also lays out the turn rows) and read in place by
 * the router, so neither loading nor the first query computes them. The costing (costing.ts)
 * decides which metrics store tables and what is in them; this module only reads them.
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
