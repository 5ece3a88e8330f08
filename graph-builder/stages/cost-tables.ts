import { graphOf, type GraphSections } from '../../core/graph/layout.ts';
import { costTableSections, turnRowFirst, TURN_ROW_FLAGS, type CostTableSections } from '../../core/routing/costing/costing.ts';
import { RoutingNetwork } from '../../core/routing/network/network.ts';
import { MAX_ARRIVING_EDGES } from '../../core/routing/search/workspace.ts';
import type { HeaderWithoutSections } from '../writer.ts';
import { noLandmarks, type LandmarkSectionName } from './landmarks.ts';

/**
 * Stage `cost-tables`: every edge's least cost and every turn's cost under the standard metrics,
 * computed by the router's own costing on the builder's arrays seen as the router will see the
 * graph, so a router reads them in place instead of computing them (docs/graph-format.md).
 */

export type CostTableSectionName = keyof CostTableSections['sections'];

export interface CostTablesInput {
  readonly header: Omit<HeaderWithoutSections, 'landmarks' | 'cost_tables'>;
  /** The open core included (stage `open-core`), so the router's network reads it rather than computing it again. */
  readonly sections: Omit<GraphSections, LandmarkSectionName | CostTableSectionName>;
}

export function costTables({ header, sections }: CostTablesInput): CostTableSections {
  // The search tells a node's arriving edges apart in a byte (SearchWorkspace.parent).
  for (let node = 0; node < header.counts.nodes; node++) {
    const arriving = sections.firstIn[node + 1]! - sections.firstIn[node]!;
    if (arriving > MAX_ARRIVING_EDGES) throw new Error(`Node ${node} has ${arriving} arriving edges; the router handles at most ${MAX_ARRIVING_EDGES}`);
  }
  const none = noLandmarks();
  const rows = turnRowFirst({ ...sections, nodeCount: header.counts.nodes });
  const graph = graphOf(
    { ...header, cost_tables: { costing: '', row_flags: TURN_ROW_FLAGS, metrics: [] }, landmarks: none.header },
    { ...sections, turnRowFirst: rows, leastCost: new Float32Array(0), turnCost: new Uint8Array(0), ...none.sections },
  );
  return costTableSections(new RoutingNetwork(graph));
}
