import { DirectedGraph } from 'graphology';
import { dijkstra } from 'graphology-shortest-path';
import type { CityId } from '../../core/cities/index.ts';
import { STORED_COST_METRICS, type Costing } from '../../core/routing/costing/costing.ts';
import { createCosting, metricCosting } from '../../core/routing/costing/create-costing.ts';
import { haversineMetres } from '../../core/geo.ts';
import { localMinutes } from '../../core/local-time.ts';
import { EDGE_CYCLING, SAFETY_CLASSES, type SafetyClass } from '../../core/graph/flags.ts';
import { loadGraphBytes, type LoadedGraph } from '../../functions/graphs/graph-store.ts';
import { buildSteps } from '../../core/routing/guidance/steps.ts';
import { DisjointSets } from '../../core/routing/network/disjoint-sets.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { buildPath } from '../../core/routing/path/path.ts';
import { upArcsSideBySide } from '../../core/routing/search/hierarchy.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { seededRandom } from '../routing/real-graphs.ts';

/** The measurements `npm run bench` takes, on any compiled graph. */

const departureMinute = localMinutes(2026, 6, 15, 12, 0);

export const percentile = (values: readonly number[], p: number): number =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

export interface LoadedForBench {
  loaded: LoadedGraph;
  fileBytes: number;
  loadMilliseconds: number;
  /** The first route on the freshly loaded graph, code still cold. */
  firstRouteMilliseconds: number;
  /**
   * Typed arrays the router allocates beside the file's bytes: the search's buffers, and any open
   * core, cost or landmark table it had to compute (none when the file's are current).
   */
  derivedBytes: number;
}

export function loadMeasured(city: CityId, bytes: Uint8Array): LoadedForBench {
  const started = performance.now();
  const loaded = loadGraphBytes(city, bytes);
  const loadMilliseconds = performance.now() - started;
  const { network, workspace } = loaded;
  const [pair] = randomPairs(network, 1, 1000, 6000, 7);
  const routed = performance.now();
  if (pair) route(loaded, pair, createCosting(network, { profile: 'cycling', supersafe: true, night: false, departureMinute }), true);
  const firstRouteMilliseconds = performance.now() - routed;
  // The open core, cost and landmark tables are views on the file's bytes unless the router computed them.
  const tables = STORED_COST_METRICS.flatMap((metric) => {
    const stored = metricCosting(network, metric).tables();
    return stored ? [stored.leastCost, stored.turnCost] : [];
  });
  const landmarks = Object.values(workspace.landmarks).flatMap((set) => [set.distances, set.leaveHalfSeconds]);
  const computed = [network.openCore, ...tables, ...landmarks].filter((array) => array.buffer !== bytes.buffer);
  // The hierarchy potential's per-node buffers and each metric's upward arcs side by side, where the graph has hierarchies.
  const potential = Object.keys(workspace.hierarchies).length > 0 ? workspace.potentialBuffers(network.graph.nodeCount) : null;
  const potentialArrays = potential ? [potential.perNode, ...Object.values(workspace.hierarchies).map((arcs) => upArcsSideBySide(arcs).head)] : [];
  const derivedBytes = [...computed, ...potentialArrays, network.arrivals(), network.restrictionEdges(), network.closureEdges(), workspace.cost, workspace.parent, workspace.nodeBound, workspace.touched, workspace.boundNodes]
    .reduce((total, array) => total + array.byteLength, 0);
  return { loaded, fileBytes: bytes.byteLength, loadMilliseconds, firstRouteMilliseconds, derivedBytes };
}

/**
 * Node pairs whose straight-line distance lies in [minMetres, maxMetres], from a fixed seed; drawn
 * from `nodes` when given (such as `cyclingNodes`), else from every node.
 */
export function randomPairs(
  network: RoutingNetwork,
  count: number,
  minMetres: number,
  maxMetres: number,
  seed: number,
  nodes?: Uint32Array,
  /** When given, both ends lie in one region (`cyclingRegions`): a city of separate extracts has no route between them. */
  regionOf?: (node: number) => number,
): [number, number][] {
  const random = seededRandom(seed);
  const pick = nodes ? () => nodes[Math.floor(random() * nodes.length)]! : () => Math.floor(random() * network.graph.nodeCount);
  const pairs: [number, number][] = [];
  for (let attempt = 0; pairs.length < count && attempt < count * 10_000; attempt++) {
    const a = pick();
    const b = pick();
    if (regionOf && regionOf(a) !== regionOf(b)) continue;
    const metres = haversineMetres(network.nodeLon(a), network.nodeLat(a), network.nodeLon(b), network.nodeLat(b));
    if (metres >= minMetres && metres <= maxMetres) pairs.push([a, b]);
  }
  return pairs;
}

/** Per node, its region of the cycling network (ways joined at all): pairs in two regions have no route. */
export function cyclingRegions(network: RoutingNetwork): (node: number) => number {
  const graph = network.graph;
  const sets = new DisjointSets(graph.nodeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) if (graph.edgeFlags[edge]! & EDGE_CYCLING) sets.union(graph.edgeTail[edge]!, graph.edgeHead[edge]!);
  return (node) => sets.find(node);
}

/**
 * Nodes a cycling edge leaves: where a rider can be. Pavements and footways have nodes of their
 * own that no cycling edge touches, so pairs of arbitrary nodes would be routed from wherever
 * their coordinates snap, and a node-to-node baseline would find no path between them.
 */
export function cyclingNodes(network: RoutingNetwork): Uint32Array {
  const graph = network.graph;
  const seen = new Uint8Array(graph.nodeCount);
  for (let edge = 0; edge < graph.edgeCount; edge++) if (graph.edgeFlags[edge]! & EDGE_CYCLING) seen[graph.edgeTail[edge]!] = 1;
  const nodes: number[] = [];
  for (let node = 0; node < seen.length; node++) if (seen[node]) nodes.push(node);
  return Uint32Array.from(nodes);
}

interface RouteTiming {
  total: number;
  /** CPU milliseconds of the whole query (this process's user and system time): steadier than wall time on a shared machine. */
  cpu: number;
  search: number;
  settled: number;
}

const cpuMilliseconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function route(loaded: LoadedGraph, [a, b]: [number, number], costing: Costing, guidance: boolean): RouteTiming | null {
  const { network, workspace } = loaded;
  const usable = (edge: number) => costing.usable(edge);
  const cpuStarted = cpuMilliseconds();
  const started = performance.now();
  const from = snap(network, usable, [network.nodeLon(a), network.nodeLat(a)]);
  const to = snap(network, usable, [network.nodeLon(b), network.nodeLat(b)]);
  if (!from || !to) return null;
  const sources = positionsAt(network, usable, from);
  const targets = positionsAt(network, usable, to);
  const stats = { settled: 0 };
  const searchStarted = performance.now();
  const result = findRoute(costing, workspace, sources, targets, to.location, stats);
  const search = performance.now() - searchStarted;
  if (!result) return null;
  if (guidance) buildSteps(network, usable, buildPath(network, result, 'cycling'), { profile: 'cycling', language: 'en' });
  return { total: performance.now() - started, cpu: cpuMilliseconds() - cpuStarted, search, settled: stats.settled };
}

export interface QueryRun {
  total: number[];
  cpu: number[];
  search: number[];
  settled: number[];
  microsecondsPerState: number;
}

/** Routes every pair twice (the first round warms the JIT) and keeps the second round's timings. */
export function measureQueries(loaded: LoadedGraph, pairs: readonly [number, number][], options: { supersafe: boolean; guidance: boolean }): QueryRun {
  const costing = createCosting(loaded.network, { profile: 'cycling', supersafe: options.supersafe, night: false, departureMinute });
  return measureCosting(loaded, pairs, costing, { guidance: options.guidance, warmUpPairs: pairs.length });
}

/**
 * Routes the first `warmUpPairs` pairs untimed (warming the JIT), then every pair timed, with one
 * costing (any profile and options, any report overlay). Pairs with no route are left out.
 */
export function measureCosting(loaded: LoadedGraph, pairs: readonly [number, number][], costing: Costing, options: { guidance: boolean; warmUpPairs: number }): QueryRun {
  for (const pair of pairs.slice(0, options.warmUpPairs)) route(loaded, pair, costing, options.guidance);
  const run: QueryRun = { total: [], cpu: [], search: [], settled: [], microsecondsPerState: 0 };
  for (const pair of pairs) {
    const timing = route(loaded, pair, costing, options.guidance);
    if (!timing) continue;
    run.total.push(timing.total);
    run.cpu.push(timing.cpu);
    run.search.push(timing.search);
    run.settled.push(timing.settled);
  }
  const states = run.settled.reduce((sum, value) => sum + value, 0);
  run.microsecondsPerState = (run.search.reduce((sum, value) => sum + value, 0) * 1000) / Math.max(1, states);
  return run;
}

export interface BaselineRun {
  buildMilliseconds: number;
  /** Pairs compared: those graphology found a path for. */
  pairs: number;
  graphology: number[];
  oursTotal: number[];
  oursSearch: number[];
}

/**
 * graphology-shortest-path's bidirectional Dijkstra on a graphology graph of the same edges,
 * node to node, weighted by the direct costing (the cheapest parallel edge where two join the
 * same nodes), against this router's direct route-only queries on the same pairs.
 */
export function compareWithGraphology(loaded: LoadedGraph, pairs: readonly [number, number][]): BaselineRun {
  const { network } = loaded;
  const graph = network.graph;
  const costing = createCosting(network, { profile: 'cycling', supersafe: false, night: false, departureMinute });
  const started = performance.now();
  const baseline = new DirectedGraph();
  for (let node = 0; node < graph.nodeCount; node++) baseline.addNode(node);
  for (let edge = 0; edge < graph.edgeCount; edge++) {
    const cost = costing.edgeCost(edge);
    if (cost === Infinity) continue;
    const tail = graph.edgeTail[edge]!;
    const head = graph.edgeHead[edge]!;
    if (tail === head) continue;
    if (!baseline.hasEdge(tail, head) || (baseline.getEdgeAttribute(tail, head, 'weight') as number) > cost) baseline.mergeEdge(tail, head, { weight: cost });
  }
  const buildMilliseconds = performance.now() - started;
  const run: BaselineRun = { buildMilliseconds, pairs: 0, graphology: [], oursTotal: [], oursSearch: [] };
  // Only pairs graphology connects node to node are compared (a node with no way out, or one on
  // a one-way island, has no path; timing graphology giving up would flatter it).
  const connected: [number, number][] = [];
  for (const [index, [a, b]] of pairs.entries()) {
    const queried = performance.now();
    const path = dijkstra.bidirectional(baseline, String(a), String(b), 'weight');
    const milliseconds = performance.now() - queried;
    if (!path) continue;
    connected.push([a, b]);
    // The first query warms graphology's code.
    if (index > 0) run.graphology.push(milliseconds);
  }
  run.pairs = connected.length;
  const ours = measureQueries(loaded, connected, { supersafe: false, guidance: false });
  run.oursTotal = ours.total;
  run.oursSearch = ours.search;
  return run;
}

export interface SupersafeEffect {
  pairs: number;
  /** Metres per safety class summed over all routes. */
  direct: Record<SafetyClass, number>;
  supersafe: Record<SafetyClass, number>;
  /** Supersafe distance over direct distance, per pair. */
  detours: number[];
}

/** How the supersafe costing changes real routes: metres per safety class and the detour it costs. */
export function supersafeEffect(loaded: LoadedGraph, pairs: readonly [number, number][]): SupersafeEffect {
  const { network, workspace } = loaded;
  const zero = () => Object.fromEntries(SAFETY_CLASSES.map((safety) => [safety, 0])) as Record<SafetyClass, number>;
  const effect: SupersafeEffect = { pairs: 0, direct: zero(), supersafe: zero(), detours: [] };
  const costings = [true, false].map((supersafe) => createCosting(network, { profile: 'cycling', supersafe, night: false, departureMinute }));
  for (const [a, b] of pairs) {
    const paths = costings.map((costing) => {
      const usable = (edge: number) => costing.usable(edge);
      const from = snap(network, usable, [network.nodeLon(a), network.nodeLat(a)]);
      const to = snap(network, usable, [network.nodeLon(b), network.nodeLat(b)]);
      if (!from || !to) return null;
      const result = findRoute(costing, workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
      return result ? buildPath(network, result, 'cycling') : null;
    });
    const [safe, direct] = paths;
    if (!safe || !direct || direct.distance === 0) continue;
    effect.pairs++;
    for (const edge of safe.edges) effect.supersafe[edge.safety] += edge.length;
    for (const edge of direct.edges) effect.direct[edge.safety] += edge.length;
    effect.detours.push(safe.distance / direct.distance);
  }
  return effect;
}
