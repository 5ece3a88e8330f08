import type { CityId } from '../../cities/index.ts';
import { openGraph } from '../../graph/layout.ts';
import { storedMetricTables } from '../costing/cost-tables.ts';
import { STORED_COST_METRICS } from '../costing/costing.ts';
import { metricCosting } from '../costing/create-costing.ts';
import { COSTING_FINGERPRINT } from '../costing/weights.ts';
import { RoutingNetwork } from '../network/network.ts';
import { storedHierarchies } from '../search/hierarchy.ts';
import { computeLandmarkSections, landmarkSet, storedLandmarks } from '../search/landmarks.ts';
import { SearchWorkspace } from '../search/workspace.ts';

/**
 * A city graph as a router holds it: the file's typed-array views (the cost tables, landmark
 * bounds and contraction hierarchies among them), the network's open core and the search's reusable buffers, built from the
 * graph file's bytes without parsing. Where the bytes come from (S3, refreshed as new versions are
 * published) is functions/graphs/graph-store.ts; a tool or a test can read them from a file.
 */

export interface LoadedGraph {
  city: CityId;
  version: string;
  network: RoutingNetwork;
  workspace: SearchWorkspace;
  loadMilliseconds: number;
}

export interface LoadOptions {
  /**
   * Told when the file's cost tables or landmark bounds were built under other costing weights and
   * are being recomputed (`what` says which), so that no query routes by stale costs.
   */
  onStaleTables?: (graphVersion: string, what: 'cost tables' | 'landmarks') => void;
}

/** Builds the in-memory graph from file bytes: typed-array views plus the router's derived arrays. */
export function loadGraph(city: CityId, bytes: Uint8Array, options: LoadOptions = {}): LoadedGraph {
  const started = performance.now();
  const graph = openGraph(bytes);
  const network = new RoutingNetwork(graph);
  // Stale tables are computed now, not by the first query; landmarks are computed from them.
  if (prepareCostTables(network)) options.onStaleTables?.(graph.header.graph_version, 'cost tables');
  let landmarks = storedLandmarks(graph);
  if (!landmarks) {
    // Built under other costing weights: stored bounds could overestimate, so compute them anew.
    options.onStaleTables?.(graph.header.graph_version, 'landmarks');
    landmarks = landmarkSet(computeLandmarkSections(network), graph.edgeCount);
  }
  return {
    city,
    version: graph.header.graph_version,
    network,
    // Hierarchies built under other costing weights are left out (contracting a metro takes
    // minutes): the search then bounds by the landmarks, as exactly.
    workspace: new SearchWorkspace(graph.edgeCount, landmarks, storedHierarchies(graph)),
    loadMilliseconds: performance.now() - started,
  };
}

/**
 * Makes every stored metric's tables ready on a freshly loaded graph, so no query computes them:
 * views on the file when it stores them under today's costing, else computed now (a graph built
 * under other weights). Answers whether any had to be computed.
 */
function prepareCostTables(network: RoutingNetwork): boolean {
  let computed = false;
  for (const metric of STORED_COST_METRICS) {
    if (!storedMetricTables(network.graph, metric, COSTING_FINGERPRINT)) computed = true;
    metricCosting(network, metric).tables();
  }
  return computed;
}
