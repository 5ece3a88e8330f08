import type { CityId } from '../../core/cities/index.ts';
import { logger } from '../../platform/logger.ts';
import { RefreshedValue } from '../../platform/refreshed-value.ts';
import { bucketReader, readObjectBytes } from '../../platform/object-store.ts';
import { recordMetric } from '../../platform/metrics.ts';
import { bucketName } from '../../platform/resources.ts';
import { readGraphPointer, type CurrentGraphPointer } from '../../core/graph/catalog.ts';
import { openGraph } from '../../core/graph/layout.ts';
import { GraphUnavailableError } from '../../core/routing/errors.ts';
import { loadGraph, type LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import { graphMemoryBudget, residentBytes, ResidentGraphs, RUNTIME_RESERVE_MB } from './resident-graphs.ts';

/**
 * Each city's current graph, loaded from S3 on the first request that needs it and shared by every
 * request the warm container serves. The city's pointer object is re-read at most every
 * GRAPH_REFRESH_SECONDS (default 120); a new graph_version is loaded in the background and swapped
 * in, so the nightly rebuild reaches routers within minutes and without a deploy.
 *
 * Memory is budgeted (resident-graphs.ts): the graphs a container holds stay within a budget
 * derived from the function's memory, the least recently used cities dropped to make room for the
 * one a request needs. A swap holds two versions of a city only while the new one loads; when both
 * cannot fit, the old version is dropped first and the next requests wait for the new one. A city
 * whose graph alone is over the budget is refused (GraphUnavailableError) rather than loaded into
 * a function it would kill.
 */

/** Thrown by `cityGraph` when no graph can be loaded. */
export { GraphUnavailableError };

export type { LoadedGraph };

/** A loaded graph and the memory it holds (resident-graphs.ts `residentBytes`). */
export interface ResidentGraph extends LoadedGraph {
  residentBytes: number;
}

const graphs = new Map<CityId, RefreshedValue<ResidentGraph>>();
let resident: ResidentGraphs | undefined;
const residentGraphs = (): ResidentGraphs => (resident ??= new ResidentGraphs(graphMemoryBudget()));
const megabytes = (bytes: number): number => Math.round(bytes / 2 ** 20);

const refreshIntervalMs = (): number => Number(process.env.GRAPH_REFRESH_SECONDS ?? 120) * 1000;

async function readPointer(city: CityId): Promise<CurrentGraphPointer> {
  const pointer = await readGraphPointer(bucketReader(bucketName('graphs')), city);
  if (!pointer) throw new Error(`No graph has been published for ${city}`);
  return pointer;
}

/** `loadGraph`, logging when the graph's landmark bounds had to be recomputed. */
export function loadGraphBytes(city: CityId, bytes: Uint8Array): ResidentGraph {
  const loaded = loadGraph(city, bytes, {
    onStaleTables: (graphVersion, what) => logger.warn(`Graph ${what} were computed under another costing; recomputing them`, { city, graphVersion }),
  });
  return { ...loaded, residentBytes: residentBytes(bytes.byteLength, loaded.network.graph.edgeCount) };
}

/** Drops cities, least recently used first, until `incoming` bytes of `city` fit; throws when they cannot. */
function makeRoom(city: CityId, incoming: number): void {
  const budget = residentGraphs();
  const evicted = budget.makeRoom(city, incoming);
  if (!evicted) {
    throw new Error(`The graph of ${city} needs about ${megabytes(incoming)} MB, over this function's graph budget of ${megabytes(budget.budget)} MB (GRAPH_MEMORY_BUDGET_MB, or the function's memory less ${RUNTIME_RESERVE_MB} MB)`);
  }
  for (const other of evicted) {
    logger.info('graph dropped to make room', { city: other, for: city, heldMb: megabytes(budget.held(other)) });
    graphs.delete(other);
    budget.release(other);
  }
}

async function load(city: CityId, pointer?: CurrentGraphPointer): Promise<ResidentGraph> {
  const target = pointer ?? (await readPointer(city));
  const bytes = await readObjectBytes(bucketName('graphs'), target.key);
  makeRoom(city, residentBytes(bytes.byteLength, openGraph(bytes).edgeCount));
  const loaded = loadGraphBytes(city, bytes);
  residentGraphs().set(city, loaded.residentBytes);
  logger.info('graph loaded', { city, graphVersion: loaded.version, loadMs: Math.round(loaded.loadMilliseconds), residentMb: megabytes(loaded.residentBytes), totalMb: megabytes(residentGraphs().total) });
  recordMetric('GraphLoadTime', loaded.loadMilliseconds, { City: city });
  recordMetric('GraphBytes', bytes.byteLength, { City: city });
  return loaded;
}

/** Thrown by a refresh that had to drop the loaded version to make room for the new one. */
class ReloadInstead extends Error {}

/**
 * A refresh reads the pointer and loads the graph it names only when that is a new version. The
 * new version is about the old one's size; when the two cannot be held together, the old one is
 * dropped and the next request loads the new one (ReloadInstead).
 */
async function refreshed(city: CityId, previous: ResidentGraph | undefined): Promise<ResidentGraph> {
  if (!previous) return load(city);
  const pointer = await readPointer(city);
  if (pointer.graph_version === previous.version) return previous;
  if (!residentGraphs().makeRoom(city, previous.residentBytes)) {
    graphs.delete(city);
    residentGraphs().release(city);
    throw new ReloadInstead(`no room for two versions of ${city}: dropped ${previous.version}; the next request loads ${pointer.graph_version}`);
  }
  return load(city, pointer);
}

/** The city's graph; throws GraphUnavailableError when none can be loaded. */
export async function cityGraph(city: CityId): Promise<ResidentGraph> {
  residentGraphs().touch(city);
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

/** Drops every loaded graph and reads the budget again (tests use it to observe loading). */
export function forgetLoadedGraphs(): void {
  graphs.clear();
  resident = undefined;
}

/** The cities whose graphs are held, least recently used first. */
export function loadedCities(): CityId[] {
  return residentGraphs().cities();
}
