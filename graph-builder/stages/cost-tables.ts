import { EDGE_CYCLING, EDGE_WALKING } from '../../core/graph/flags.ts';
import { graphOf, type CostTableHeader, type Graph, type GraphSections } from '../../core/graph/layout.ts';
import type { MetricTables } from '../../core/routing/costing/cost-tables.ts';
import { STORED_COST_METRICS, type CostMetric } from '../../core/routing/costing/costing.ts';
import { metricCosting } from '../../core/routing/costing/create-costing.ts';
import { COSTING_FINGERPRINT } from '../../core/routing/costing/weights.ts';
import { RoutingNetwork } from '../../core/routing/network/network.ts';
import { MAX_ARRIVING_EDGES } from '../../core/routing/search/workspace.ts';
import type { HeaderWithoutSections } from '../writer.ts';
import { noHierarchies, type HierarchySectionName } from './hierarchy.ts';
import { noLandmarks, type LandmarkSectionName } from './landmarks.ts';

/**
 * Stage `cost-tables`: every edge's least cost and every turn's cost under the standard metrics,
 * computed by the router's own costing on the builder's arrays seen as the router will see the
 * graph, so a router reads them in place instead of computing them (docs/graph-format.md). The
 * router reads the tables (core/routing/costing/cost-tables.ts); laying them out is the builder's.
 */

/** The stored metrics' cost tables as graph sections, and their header. */
export interface CostTableSections {
  readonly header: CostTableHeader;
  readonly sections: { readonly turnRowFirst: Uint32Array; readonly leastCost: Float32Array; readonly turnCost: Uint8Array };
}

export type CostTableSectionName = keyof CostTableSections['sections'];

export interface CostTablesInput {
  readonly header: Omit<HeaderWithoutSections, 'landmarks' | 'hierarchies' | 'cost_tables'>;
  /** The open core included (stage `open-core`), so the router's network reads it rather than computing it again. */
  readonly sections: Omit<GraphSections, LandmarkSectionName | HierarchySectionName | CostTableSectionName>;
}

/** The edge flags whose edges have turn rows: those any stored metric's profile may use. */
const TURN_ROW_FLAGS = STORED_COST_METRICS.reduce((flags, metric) => flags | (metric === 'walking' ? EDGE_WALKING : EDGE_CYCLING), 0);

/**
 * The turn rows' layout (section `turnRowFirst`): node v's turns are a matrix of a row per
 * arriving edge with any of `rowFlags` (in inEdges order) by a column per leaving edge, from
 * entry turnRowFirst[v]. Turns out of edges no stored metric may use take no room.
 */
function turnRowFirstOf(graph: Pick<Graph, 'nodeCount' | 'firstOut' | 'firstIn' | 'inEdges' | 'edgeFlags'>, rowFlags: number): Uint32Array {
  const first = new Uint32Array(graph.nodeCount + 1);
  for (let node = 0; node < graph.nodeCount; node++) {
    let rows = 0;
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) if (graph.edgeFlags[graph.inEdges[i]!]! & rowFlags) rows++;
    first[node + 1] = first[node]! + rows * (graph.firstOut[node + 1]! - graph.firstOut[node]!);
  }
  return first;
}

export function costTables({ header, sections }: CostTablesInput): CostTableSections {
  // The search tells a node's arriving edges apart in a byte (SearchWorkspace.parent).
  for (let node = 0; node < header.counts.nodes; node++) {
    const arriving = sections.firstIn[node + 1]! - sections.firstIn[node]!;
    if (arriving > MAX_ARRIVING_EDGES) throw new Error(`Node ${node} has ${arriving} arriving edges; the router handles at most ${MAX_ARRIVING_EDGES}`);
  }
  const none = noLandmarks();
  const noHierarchy = noHierarchies();
  const rows = turnRowFirstOf({ ...sections, nodeCount: header.counts.nodes }, TURN_ROW_FLAGS);
  const graph = graphOf(
    { ...header, cost_tables: { costing: '', row_flags: TURN_ROW_FLAGS, metrics: [] }, landmarks: none.header, hierarchies: noHierarchy.header },
    { ...sections, turnRowFirst: rows, leastCost: new Float32Array(0), turnCost: new Uint8Array(0), ...none.sections, ...noHierarchy.sections },
  );
  return costTableSections(new RoutingNetwork(graph));
}

/**
 * Computes every stored metric's tables on a network whose graph holds the turn rows but no tables
 * yet. A metric whose turn costs cannot be stored is left out; the router computes its costs as
 * it goes.
 */
function costTableSections(network: RoutingNetwork): CostTableSections {
  const graph = network.graph;
  const computed = STORED_COST_METRICS.map((metric) => ({ metric, tables: metricCosting(network, metric).tables() }))
    .filter((entry): entry is { metric: CostMetric; tables: MetricTables } => entry.tables !== null);
  const edges = graph.edgeCount;
  const turns = graph.turnRowFirst[graph.nodeCount]!;
  const leastCost = new Float32Array(computed.length * edges);
  const turnCost = new Uint8Array(computed.length * turns);
  computed.forEach(({ tables }, index) => {
    leastCost.set(tables.leastCost, index * edges);
    turnCost.set(tables.turnCost, index * turns);
  });
  return {
    header: { costing: COSTING_FINGERPRINT, row_flags: TURN_ROW_FLAGS, metrics: computed.map((entry) => entry.metric) },
    sections: { turnRowFirst: graph.turnRowFirst, leastCost, turnCost },
  };
}
