import { graphOf, type GraphSections } from '../../core/graph/layout.ts';
import { computeHierarchies, hierarchySections, type HierarchySections } from '../../core/routing/search/hierarchy.ts';
import { RoutingNetwork } from '../../core/routing/network/network.ts';
import type { HeaderWithoutSections } from '../writer.ts';

/**
 * Stage `hierarchy`: a contraction hierarchy per metric (core/routing/search/hierarchy.ts), the
 * A* bound the router prefers to the landmarks, contracted from the router's own costing (with
 * the cost tables) on the builder's arrays seen as the router will see the graph.
 */

export type HierarchySectionName = keyof HierarchySections['sections'];

/** The hierarchy header and sections of a graph without hierarchies: how the stages before this one see the graph. */
export function noHierarchies(): HierarchySections {
  return {
    header: { costing: '', metrics: [] },
    sections: {
      hierarchyUpFirst: new Uint32Array(0), hierarchyUpHead: new Uint32Array(0), hierarchyUpWeight: new Float32Array(0),
      hierarchyDownFirst: new Uint32Array(0), hierarchyDownTail: new Uint32Array(0), hierarchyDownWeight: new Float32Array(0),
    },
  };
}

export interface HierarchyInput {
  readonly header: Omit<HeaderWithoutSections, 'hierarchies'>;
  readonly sections: Omit<GraphSections, HierarchySectionName>;
}

export function hierarchyTables({ header, sections }: HierarchyInput): HierarchySections {
  const none = noHierarchies();
  const graph = graphOf({ ...header, hierarchies: none.header }, { ...sections, ...none.sections });
  return hierarchySections(computeHierarchies(new RoutingNetwork(graph)), graph.nodeCount);
}
