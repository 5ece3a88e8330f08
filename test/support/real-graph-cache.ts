import type { CityId } from '../../core/cities/index.ts';
import type { LoadedGraph } from '../../functions/graphs/graph-store.ts';
import { realGraph } from '../routing/real-graphs.ts';

/**
 * The real city graphs this test run built, each loaded once per test file, for tests that plan
 * in process with the code the endpoints run (only the graph comes from the test build instead of
 * S3; see real-graph-mocks.ts).
 */
const loaded = new Map<CityId, LoadedGraph>();

export function cachedRealGraph(city: CityId): LoadedGraph {
  let graph = loaded.get(city);
  if (!graph) loaded.set(city, (graph = realGraph(city)));
  return graph;
}
