import type { CityId } from '../../core/cities/index.ts';
import { logger } from '../platform/logger.ts';
import { bucketReader, readObjectBytes } from '../platform/object-store.ts';
import { bucketName } from '../platform/resources.ts';
import { readGraphPointer, type CurrentGraphPointer } from '../../core/graph/catalog.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { computeLandmarks, LANDMARK_METRICS, metricCosting, storedLandmarks } from '../../core/routing/landmarks.ts';
import { RoutingNetwork } from '../../core/routing/network.ts';
import { GraphUnavailableError } from './errors.ts';
import { SearchWorkspace } from './search.ts';

/**
 * Each city's current graph, loaded from S3 once per warm container and shared by every request
 * it serves. The city's pointer object is re-read at most every GRAPH_REFRESH_SECONDS (default
 * 120); a new graph_version is loaded in the background and swapped in, so the nightly rebuild
 * reaches routers within minutes and without a deploy.
 */

/** Thrown by `cityGraph` when no graph can be loaded. */
export { GraphUnavailableError };

export interface LoadedGraph {
  city: CityId;
  version: string;
  network: RoutingNetwork;
  workspace: SearchWorkspace;
  loadMilliseconds: number;
}

interface CityEntry {
  current: Promise<LoadedGraph>;
  checkedAt: number;
  refreshing?: Promise<void>;
}

const entries = new Map<CityId, CityEntry>();

const refreshIntervalMs = (): number => Number(process.env.GRAPH_REFRESH_SECONDS ?? 120) * 1000;

async function readPointer(city: CityId): Promise<CurrentGraphPointer> {
  const pointer = await readGraphPointer(bucketReader(bucketName('graphs')), city);
  if (!pointer) throw new Error(`No graph has been published for ${city}`);
  return pointer;
}

/** Builds the in-memory graph from file bytes: typed-array views plus the router's derived arrays. */
export function loadGraphBytes(city: CityId, bytes: Uint8Array): LoadedGraph {
  const started = performance.now();
  const graph = openGraph(bytes);
  const network = new RoutingNetwork(graph);
  let landmarks = storedLandmarks(graph);
  if (!landmarks) {
    // Built under other costing weights: stored bounds could overestimate, so compute them anew.
    logger.warn('Graph landmarks were computed under another costing; recomputing them', { city, graphVersion: graph.header.graph_version });
    landmarks = Object.fromEntries(LANDMARK_METRICS.map((metric) => [metric, computeLandmarks(metricCosting(network, metric))]));
  }
  return {
    city,
    version: graph.header.graph_version,
    network,
    workspace: new SearchWorkspace(graph.edgeCount, landmarks),
    loadMilliseconds: performance.now() - started,
  };
}

async function load(city: CityId, pointer?: CurrentGraphPointer): Promise<LoadedGraph> {
  const target = pointer ?? (await readPointer(city));
  const loaded = loadGraphBytes(city, await readObjectBytes(bucketName('graphs'), target.key));
  logger.info('graph loaded', { city, graphVersion: loaded.version, loadMs: Math.round(loaded.loadMilliseconds) });
  return loaded;
}

function refreshInBackground(city: CityId, entry: CityEntry): void {
  entry.checkedAt = Date.now();
  entry.refreshing = (async () => {
    const current = await entry.current;
    const pointer = await readPointer(city);
    if (pointer.graph_version === current.version) return;
    const next = await load(city, pointer);
    entry.current = Promise.resolve(next);
  })()
    .catch((error: unknown) => logger.warn('graph refresh failed; keeping the loaded graph', { city, error: error as Error }))
    .finally(() => {
      entry.refreshing = undefined;
    });
}

/** The city's graph; throws GraphUnavailableError when none can be loaded. */
export async function cityGraph(city: CityId): Promise<LoadedGraph> {
  let entry = entries.get(city);
  if (!entry) {
    entry = { current: load(city), checkedAt: Date.now() };
    entries.set(city, entry);
  } else if (!entry.refreshing && Date.now() - entry.checkedAt > refreshIntervalMs()) {
    refreshInBackground(city, entry);
  }
  try {
    return await entry.current;
  } catch (error) {
    // Forget the failure so a later request tries again (the graph may have been published since).
    if (entries.get(city) === entry) entries.delete(city);
    throw new GraphUnavailableError(city, error);
  }
}

/** Drops every loaded graph (tests use it to observe loading). */
export function forgetLoadedGraphs(): void {
  entries.clear();
}
