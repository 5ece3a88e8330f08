import { graphOf, type GraphSections } from '../../core/graph/layout.ts';
import { computeHierarchies, hierarchySections, HIERARCHY_METRICS, type HierarchyMetric, type HierarchySections } from '../../core/routing/search/hierarchy.ts';
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

/**
 * With a `deadline` (epoch milliseconds; the nightly build's is its invocation's end less the time
 * to write and publish), the metrics not contracted by then are left out (computeHierarchies): the
 * graph still builds in time, and the router bounds those metrics by the landmarks (a night
 * metric by its day metric's hierarchy).
 */
export function hierarchyTables({ header, sections }: HierarchyInput, deadline = Infinity): HierarchySections & { leftOut: HierarchyMetric[] } {
  const none = noHierarchies();
  const graph = graphOf({ ...header, hierarchies: none.header }, { ...sections, ...none.sections });
  const set = computeHierarchies(new RoutingNetwork(graph), HIERARCHY_METRICS, () => Date.now() >= deadline);
  return { ...hierarchySections(set, graph.nodeCount), leftOut: HIERARCHY_METRICS.filter((metric) => !set[metric]) };
}
