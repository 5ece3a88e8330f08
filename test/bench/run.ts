/**
 * `npm run bench`: warm, in-process routing on the largest real graph (New York), against
 * graphology-shortest-path's Dijkstra on the same graph and queries. Prints a table; results
 * are recorded in docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirectedGraph } from 'graphology';
import { dijkstra } from 'graphology-shortest-path';
import { graphOutputDir } from '../../functions/platform/paths.ts';
import { Costing } from '../../functions/routing/costing.ts';
import { currentPointerKey, type CurrentGraphPointer } from '../../functions/routing/graph-format.ts';
import { haversineMetres } from '../../functions/routing/geo.ts';
import { loadGraphBytes } from '../../functions/routing/graph-store.ts';
import { buildSteps } from '../../functions/routing/guidance/steps.ts';
import { buildPath } from '../../functions/routing/path.ts';
import { findRoute } from '../../functions/routing/search.ts';
import { positionsAt, snap } from '../../functions/routing/snap.ts';
import { localMinutes } from '../../functions/routing/graph-format.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const BASELINE_QUERIES = Number(process.env.BENCH_BASELINE_QUERIES ?? 40);

const directory = graphOutputDir();
const pointer = JSON.parse(readFileSync(join(directory, currentPointerKey('new-york')), 'utf8')) as CurrentGraphPointer;
const bytes = readFileSync(join(directory, pointer.key));

const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const loadStarted = performance.now();
const loaded = loadGraphBytes('new-york', bytes);
const loadMs = performance.now() - loadStarted;
const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const network = loaded.network;
const graph = network.graph;

let seed = 12345;
const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const pairs: [number, number][] = [];
while (pairs.length < QUERIES) {
  const a = Math.floor(random() * graph.nodeCount);
  const b = Math.floor(random() * graph.nodeCount);
  const metres = haversineMetres(network.nodeLon(a), network.nodeLat(a), network.nodeLon(b), network.nodeLat(b));
  if (metres >= 1000 && metres <= 6000) pairs.push([a, b]);
}

const departureMinute = localMinutes(2026, 6, 15, 12, 0);
const percentile = (values: number[], p: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

function measure(supersafe: boolean, guidance: boolean): { times: number[]; routed: number } {
  const costing = new Costing(network, { profile: 'cycling', supersafe, night: false, departureMinute });
  const usable = (edge: number) => costing.usable(edge);
  const times: number[] = [];
  let routed = 0;
  for (let round = 0; round < 2; round++) {
    for (const [a, b] of pairs) {
      const started = performance.now();
      const from = snap(network, usable, [network.nodeLon(a), network.nodeLat(a)]);
      const to = snap(network, usable, [network.nodeLon(b), network.nodeLat(b)]);
      if (from && to) {
        const result = findRoute(costing, loaded.workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
        if (result && guidance) buildSteps(network, usable, buildPath(network, result), { profile: 'cycling', language: 'en' });
        if (result && round === 1) routed++;
      }
      // The first round warms the JIT; only the second is timed.
      if (round === 1) times.push(performance.now() - started);
    }
  }
  return { times, routed };
}

const rows: string[][] = [['query', 'p50 ms', 'p95 ms', 'p99 ms', 'routed']];
for (const [label, supersafe, guidance] of [
  ['supersafe, full guidance', true, true],
  ['supersafe, route only', true, false],
  ['direct, full guidance', false, true],
  ['direct, route only', false, false],
] as const) {
  const { times, routed } = measure(supersafe, guidance);
  rows.push([label, percentile(times, 50).toFixed(2), percentile(times, 95).toFixed(2), percentile(times, 99).toFixed(2), `${routed}/${pairs.length}`]);
}

// Baseline: the same graph as a graphology directed graph weighted by the direct costing, node to node.
const costing = new Costing(network, { profile: 'cycling', supersafe: false, night: false, departureMinute });
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
const baselineTimes: number[] = [];
const ours: number[] = [];
for (const [index, [a, b]] of pairs.slice(0, BASELINE_QUERIES).entries()) {
  const started = performance.now();
  dijkstra.bidirectional(baseline, String(a), String(b), 'weight');
  if (index > 0) baselineTimes.push(performance.now() - started);
}
const usable = (edge: number) => costing.usable(edge);
for (const [a, b] of pairs.slice(0, BASELINE_QUERIES)) {
  const started = performance.now();
  const from = snap(network, usable, [network.nodeLon(a), network.nodeLat(a)]);
  const to = snap(network, usable, [network.nodeLon(b), network.nodeLat(b)]);
  if (from && to) findRoute(costing, loaded.workspace, positionsAt(network, usable, from), positionsAt(network, usable, to), to.location);
  ours.push(performance.now() - started);
}
rows.push(['graphology-shortest-path Dijkstra (node-based, direct weights)', percentile(baselineTimes, 50).toFixed(2), percentile(baselineTimes, 95).toFixed(2), percentile(baselineTimes, 99).toFixed(2), `${baselineTimes.length}`]);
rows.push(['this router, same queries (direct, route only)', percentile(ours, 50).toFixed(2), percentile(ours, 95).toFixed(2), percentile(ours, 99).toFixed(2), `${ours.length}`]);

const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
console.log(`New York graph ${pointer.graph_version}: ${graph.nodeCount} nodes, ${graph.edgeCount} directed edges, ${bytes.length} bytes`);
console.log(`Load (bytes in memory to routable): ${loadMs.toFixed(1)} ms; heap and buffers per directed edge: ${((heapAfter - heapBefore) / graph.edgeCount).toFixed(1)} bytes`);
console.log(`${pairs.length} random node pairs 1-6 km apart, warm, one core\n`);
for (const row of rows) console.log(`| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`);
console.log(`\nSpeed-up over graphology (p50): ${(percentile(baselineTimes, 50) / percentile(ours, 50)).toFixed(1)}x`);
