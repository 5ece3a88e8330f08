import type { CityId } from '../../core/cities/index.ts';
import type { AvoidanceItem } from '../../core/report-avoidances.ts';
import type * as graphStore from '../../functions/graphs/graph-store.ts';
import type { LoadedGraph } from '../../functions/graphs/graph-store.ts';
import type * as reportOverlay from '../../functions/graphs/report-overlay.ts';

/**
 * The `vi.mock` factories of the tests that plan in process with the code the endpoints run, on
 * the real graphs this test run built instead of S3's, and with the road reports the test names
 * instead of DynamoDB's. A test file mocks both modules:
 *
 *   vi.mock('../../functions/graphs/graph-store.ts', async (importOriginal) =>
 *     (await import('../support/real-graph-mocks.ts')).graphStoreOnRealGraphs(importOriginal));
 *   vi.mock('../../functions/graphs/report-overlay.ts', async (importOriginal) =>
 *     (await import('../support/real-graph-mocks.ts')).reportOverlayOf(importOriginal));
 *
 * This module imports nothing at run time, so a factory can load it while the module it mocks is
 * still being mocked; the graphs load on the first call (real-graph-cache.ts).
 */

type ImportOriginal = <T>() => Promise<T>;

/**
 * graph-store.ts with each city's graph the real one, loaded once per test file (without the
 * resident-bytes bookkeeping of a container's cache, which these tests do not reach).
 */
export async function graphStoreOnRealGraphs(importOriginal: ImportOriginal) {
  return {
    ...(await importOriginal<typeof graphStore>()),
    cityGraph: async (city: CityId) => (await import('./real-graph-cache.ts')).cachedRealGraph(city),
  };
}

/**
 * report-overlay.ts with the accepted reports `reports` gives at each call (none by default): a
 * test that files reports keeps them in a `vi.hoisted` list and passes a function reading it.
 */
export async function reportOverlayOf(importOriginal: ImportOriginal, reports: () => readonly AvoidanceItem[] = () => []) {
  const actual = await importOriginal<typeof reportOverlay>();
  return { ...actual, cityOverlay: async (loaded: LoadedGraph) => actual.buildOverlay(loaded, reports()) };
}
