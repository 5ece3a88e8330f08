import type { CityId } from '../../core/cities/index.ts';
import { logger } from '../platform/logger.ts';
import { RefreshedValue } from '../platform/refreshed-value.ts';
import { bucketReader, readObjectBytes } from '../platform/object-store.ts';
import { bucketName } from '../platform/resources.ts';
import { readGraphPointer, type CurrentGraphPointer } from '../../core/graph/catalog.ts';
import { GraphUnavailableError } from '../../core/routing/errors.ts';
import { loadGraph, type LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';

/**
 * Each city's current graph, loaded from S3 once per warm container and shared by every request
 * it serves. The city's pointer object is re-read at most every GRAPH_REFRESH_SECONDS (default
 * 120); a new graph_version is loaded in the background and swapped in, so the nightly rebuild
 * reaches routers within minutes and without a deploy.
 */

/** Thrown by `cityGraph` when no graph can be loaded. */
export { GraphUnavailableError };

export type { LoadedGraph };

const graphs = new Map<CityId, RefreshedValue<LoadedGraph>>();

const refreshIntervalMs = (): number => Number(process.env.GRAPH_REFRESH_SECONDS ?? 120) * 1000;

async function readPointer(city: CityId): Promise<CurrentGraphPointer> {
  const pointer = await readGraphPointer(bucketReader(bucketName('graphs')), city);
  if (!pointer) throw new Error(`No graph has been published for ${city}`);
  return pointer;
}

/** `loadGraph`, logging when the graph's landmark bounds had to be recomputed. */
export function loadGraphBytes(city: CityId, bytes: Uint8Array): LoadedGraph {
  return loadGraph(city, bytes, {
    onStaleLandmarks: (graphVersion) => logger.warn('Graph landmarks were computed under another costing; recomputing them', { city, graphVersion }),
  });
}

async function load(city: CityId, pointer?: CurrentGraphPointer): Promise<LoadedGraph> {
  const target = pointer ?? (await readPointer(city));
  const loaded = loadGraphBytes(city, await readObjectBytes(bucketName('graphs'), target.key));
  logger.info('graph loaded', { city, graphVersion: loaded.version, loadMs: Math.round(loaded.loadMilliseconds) });
  return loaded;
}

/** A refresh reads the pointer and loads the graph it names only when that is a new version. */
async function refreshed(city: CityId, previous: LoadedGraph | undefined): Promise<LoadedGraph> {
  if (!previous) return load(city);
  const pointer = await readPointer(city);
  return pointer.graph_version === previous.version ? previous : load(city, pointer);
}

/** The city's graph; throws GraphUnavailableError when none can be loaded. */
export async function cityGraph(city: CityId): Promise<LoadedGraph> {
  let graph = graphs.get(city);
  if (!graph || graph.spent) {
    graph = new RefreshedValue((previous) => refreshed(city, previous), refreshIntervalMs, { message: 'graph refresh failed; keeping the loaded graph', fields: { city } });
    graphs.set(city, graph);
  }
  try {
    return await graph.get();
  } catch (error) {
    // A later request tries again (the graph may have been published since).
    throw new GraphUnavailableError(city, error);
  }
}

/** Drops every loaded graph (tests use it to observe loading). */
export function forgetLoadedGraphs(): void {
  graphs.clear();
}
