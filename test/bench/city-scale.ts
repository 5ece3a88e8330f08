/**
 * Routing on the city-scale build (`BENCH_SECTIONS=city-scale npm run bench`): the Lower Manhattan
 * extract tiled 5 x 5 (graph-builder/tiled-city.ts, about 1.8 million directed edges), built by the
 * real builder into a temp folder, then loaded and queried like New York in run.ts: load time,
 * memory per directed edge, and snap + search between random nodes.
 *
 * The 25 copies are separate networks (as separate extracts are), so pairs are drawn between
 * random nodes of the same copy; a pair in two copies has no route. BENCH_CITY_SCALE_QUERIES pairs
 * (default 200), BENCH_CITY_SCALE_TILES (default 5).
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '../../lib/local/paths.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { DisjointSets } from '../../core/routing/network/disjoint-sets.ts';
import { buildCity } from '../../graph-builder/build.ts';
import { tiledCity } from '../../graph-builder/tiled-city.ts';
import { seededRandom } from '../routing/real-graphs.ts';
import { loadMeasured, measureQueries, percentile } from './measure.ts';

const QUERIES = Number(process.env.BENCH_CITY_SCALE_QUERIES ?? 200);
const TILES = Number(process.env.BENCH_CITY_SCALE_TILES ?? 5);

/** Weakly connected component of every node (union-find over the edges). */
function components(network: RoutingNetwork): Int32Array {
  const graph = network.graph;
  const sets = new DisjointSets(graph.nodeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) sets.union(graph.edgeTail[edge]!, graph.edgeHead[edge]!);
  return new Int32Array(graph.nodeCount).map((_, node) => sets.find(node));
}

/** Random node pairs, from a fixed seed, whose ends lie in one network. */
function pairsWithinComponents(network: RoutingNetwork, count: number, seed: number): [number, number][] {
  const component = components(network);
  const random = seededRandom(seed);
  const nodes = network.graph.nodeCount;
  const pairs: [number, number][] = [];
  while (pairs.length < count) {
    const a = Math.floor(random() * nodes);
    const b = Math.floor(random() * nodes);
    if (a !== b && component[a] === component[b]) pairs.push([a, b]);
  }
  return pairs;
}

export async function cityScale(emit: (line?: string) => void): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'spoke-city-scale-'));
  const { city } = await tiledCity(sharedDataPath(), TILES, workDir);
  const built = await buildCity({ city, dataPath: workDir, outDir: workDir, now: new Date('2026-11-21T00:00:00Z') });
  const bytes = await readFile(built.graphPath);
  const measured = loadMeasured('new-york', bytes);
  const { network } = measured.loaded;
  const edges = network.graph.edgeCount;
  const pairs = pairsWithinComponents(network, QUERIES, 1805);

  emit(`The city-scale build of the graph-builder section (the Lower Manhattan extract tiled ${TILES} x ${TILES}): ${network.graph.nodeCount.toLocaleString('en')} nodes, ${edges.toLocaleString('en')} directed edges, graph file ${((await stat(built.graphPath)).size / 2 ** 20).toFixed(0)} MB. ${QUERIES} pairs of random nodes, each pair within one of the ${TILES * TILES} copies (they are separate networks, as separate extracts are); each query snaps both ends and searches, route only. A first round warms the JIT; the second is timed.`);
  emit();
  emit('| Query | Routed | p50 ms | p95 ms | states settled p50 / p95 |');
  emit('|---|---|---|---|---|');
  for (const supersafe of [true, false]) {
    const run = measureQueries(measured.loaded, pairs, { supersafe, guidance: false });
    emit(`| ${supersafe ? 'supersafe' : 'direct'} | ${run.total.length} of ${pairs.length} | ${percentile(run.total, 50).toFixed(2)} | ${percentile(run.total, 95).toFixed(2)} | ${percentile(run.settled, 50).toLocaleString('en')} / ${percentile(run.settled, 95).toLocaleString('en')} |`);
  }
  emit();
  emit(`Load, bytes in memory to routable: ${measured.loadMilliseconds.toFixed(0)} ms; to the first route: ${(measured.loadMilliseconds + measured.firstRouteMilliseconds).toFixed(0)} ms. Memory per directed edge: the graph file's ${(measured.fileBytes / edges).toFixed(0)} B (read in place) plus ${(measured.derivedBytes / edges).toFixed(0)} B the router derives (the search's buffers; the open core and the cost and landmark tables are read in place): ${((measured.fileBytes + measured.derivedBytes) / edges).toFixed(0)} B in all.`);
  emit();
}
