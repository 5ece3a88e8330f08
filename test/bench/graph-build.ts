import './scratch.ts';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { buildableCities, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { localStateDir, sharedDataPath } from '../../lib/local/paths.ts';
import { EDGE_CYCLING } from '../../core/graph/flags.ts';
import { openGraph, type Graph } from '../../core/graph/layout.ts';
import { buildCity, type BuildReport } from '../../graph-builder/build.ts';
import { stronglyConnectedComponents } from '../../graph-builder/stages/connectivity/components.ts';
import { tiledCity } from '../../graph-builder/tiled-city.ts';
import { buildInChild } from './build-in-child.ts';

/**
 * Measures the builder and writes the graph-builder section of docs/benchmarks.md:
 *   1. each city's build (time, peak memory, output), each in a fresh process;
 *   2. component analysis on the New York graph: the builder's CSR Tarjan against graphology;
 *   3. a city-scale build from the Lower Manhattan extract tiled N x N, the evidence for running
 *      the nightly job in Lambda.
 * Usage: npx tsx test/bench/graph-build.ts [--tiles 5] [--runs 3]
 *        npx tsx test/bench/graph-build.ts --scale-only --tiles 10 [--tiles-dir .local-data/tiled-10]
 * The second form builds only the tiled city (its tiles kept in --tiles-dir for the next run) and
 * writes the "Graph build at city scale" section: each stage's time and memory.
 */

const SECTION_START = '<!-- graph-builder:start -->';
const SECTION_END = '<!-- graph-builder:end -->';
const SCALE_SECTION_START = '<!-- graph-builder-scale:start -->';
const SCALE_SECTION_END = '<!-- graph-builder-scale:end -->';
const print = (line: string): boolean => process.stdout.write(`${line}\n`);

/** One build in a fresh process, into a folder of its own: its report. */
async function buildReport(city: BuildableCity, dataPath: string): Promise<BuildReport> {
  const outDir = await mkdtemp(join(tmpdir(), 'graph-bench-'));
  return (await buildInChild(city, { dataPath, outDir })).report;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function inputBytes(city: BuildableCity, dataPath: string): Promise<number> {
  let total = 0;
  for (const extract of city.graph.extracts) total += (await stat(join(dataPath, extract))).size;
  return total;
}

function timed<T>(action: () => T): [T, number] {
  const started = performance.now();
  const result = action();
  return [result, performance.now() - started];
}

interface GraphologyInput {
  readonly nodeCount: number;
  readonly tail: Uint32Array;
  readonly head: Uint32Array;
  readonly runs: number;
}

interface GraphologyResult {
  readonly buildMs: number;
  readonly times: number[];
  readonly count: number;
}

/**
 * graphology-components recurses once per node on a DFS path, so it runs in a thread with a big
 * stack. The thread's code is plain JavaScript (no TypeScript loader in workers).
 */
const GRAPHOLOGY_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DirectedGraph } = require('graphology');
const { stronglyConnectedComponents } = require('graphology-components');
const { nodeCount, tail, head, runs } = workerData;
let started = performance.now();
const graph = new DirectedGraph();
for (let v = 0; v < nodeCount; v++) graph.addNode(v);
for (let e = 0; e < tail.length; e++) graph.mergeEdge(tail[e], head[e]);
const buildMs = performance.now() - started;
const times = [];
let count = 0;
for (let run = 0; run < runs; run++) {
  started = performance.now();
  count = stronglyConnectedComponents(graph).length;
  times.push(performance.now() - started);
}
parentPort.postMessage({ buildMs, times, count });
`;

function graphologyInWorker(input: GraphologyInput): Promise<GraphologyResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(GRAPHOLOGY_WORKER, { eval: true, workerData: input, resourceLimits: { stackSizeMb: 2048 } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function componentBenchmark(graph: Graph, runs: number): Promise<string[]> {
  const usable = (e: number): boolean => (graph.edgeFlags[e]! & EDGE_CYCLING) !== 0;
  const tarjanTimes: number[] = [];
  let tarjanCount = 0;
  for (let run = 0; run < runs; run++) {
    const [components, ms] = timed(() => stronglyConnectedComponents(graph, usable));
    tarjanTimes.push(ms);
    tarjanCount = components.count;
  }
  const cycling = [...Array(graph.edgeCount).keys()].filter(usable);
  const library = await graphologyInWorker({
    nodeCount: graph.nodeCount,
    tail: Uint32Array.from(cycling, (e) => graph.edgeTail[e]!),
    head: Uint32Array.from(cycling, (e) => graph.edgeHead[e]!),
    runs,
  });
  const tarjan = median(tarjanTimes);
  const analysis = median(library.times);
  return [
    `Component analysis on the New York graph (${graph.nodeCount.toLocaleString('en')} nodes, ${cycling.length.toLocaleString('en')} cycling edges; median of ${runs}):`,
    '',
    '| Method | Components | Time |',
    '|---|---|---|',
    `| Builder: iterative Tarjan on the CSR arrays | ${tarjanCount.toLocaleString('en')} | ${tarjan.toFixed(1)} ms |`,
    `| graphology-components \`stronglyConnectedComponents\` | ${library.count.toLocaleString('en')} | ${analysis.toFixed(1)} ms (+ ${library.buildMs.toFixed(0)} ms to build the graphology graph) |`,
    '',
    `The CSR Tarjan is ${(analysis / tarjan).toFixed(0)}x faster on the analysis alone and ${((analysis + library.buildMs) / tarjan).toFixed(0)}x counting graph construction. graphology-components recurses once per node on a DFS path: with Node's default stack it overflows on this graph ("Maximum call stack size exceeded"), so it was measured in a worker with a 2 GB stack.`,
  ];
}

/** Lambda memory the CDK stack gives each city's build (CITY_BUILD_MEMORY_MB in lib/graph-rebuild.ts). */
const CITY_BUILD_LAMBDA_MB = 3008;

/** Why the graph builds run in Lambda, from the measured throughput and memory. */
function lambdaSizing(mbPerSecond: number, memoryPerMb: number): string[] {
  const largestPbf = (CITY_BUILD_LAMBDA_MB - 130) / memoryPerMb;
  const example = 200;
  return [
    `Build sizing: at ${mbPerSecond.toFixed(1)} MB/s and ${memoryPerMb.toFixed(1)} MB of memory per MB of PBF, a ${example} MB city extract builds in about ${Math.round(example / mbPerSecond)} s with about ${((130 + example * memoryPerMb) / 1024).toFixed(1)} GB. Each city builds in an invocation of its own (15 minutes, up to 10 GB), so the builds are Lambda functions rather than Fargate or CodeBuild: no cluster, image or project to keep, and failures surface per city (docs/operations.md, "Graph builds"). With the stack's ${CITY_BUILD_LAMBDA_MB} MB per city it handles extracts up to about ${Math.round(largestPbf)} MB of PBF by this rate; the 10 x 10 build below is the measurement the sizing follows.`,
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tiles: { type: 'string', default: '5' }, runs: { type: 'string', default: '3' },
      'scale-only': { type: 'boolean', default: false }, 'tiles-dir': { type: 'string' },
    },
  });
  if (values['scale-only']) {
    const tiles = Number(values.tiles);
    await scaleOnly(tiles, values['tiles-dir'] ?? join(localStateDir(), `tiled-${tiles}`));
    return;
  }
  const runs = Number(values.runs);
  const tiles = Number(values.tiles);
  const dataPath = sharedDataPath();
  const lines: string[] = [
    SECTION_START,
    '## Graph build',
    '',
    `Measured by \`npx tsx test/bench/graph-build.ts\` on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; each build in a fresh process (median of ${runs} builds). Peak RSS is the build process's high-water mark (getrusage maxrss, which also sees the peaks inside synchronous stages that sampling every 25 ms missed) and includes Node itself (about 130 MB for an empty tsx process). Load average when the run started: ${loadavg()[0]!.toFixed(1)}${loadavg()[0]! > cpus().length ? ' (other work shared the cores, so times are inflated accordingly)' : ''}.`,
    '',
    '| City | Input (OSM extracts) | Nodes | Directed edges | Build (wall / CPU) | Peak RSS | Graph file |',
    '|---|---|---|---|---|---|---|',
  ];
  let newYorkGraph: Graph | null = null;
  for (const city of buildableCities) {
    const reports: BuildReport[] = [];
    for (let run = 0; run < runs; run++) reports.push(await buildReport(city, dataPath));
    const report = reports.sort((a, b) => a.build_seconds - b.build_seconds)[Math.floor(runs / 2)]!;
    lines.push(`| ${city.name} | ${((await inputBytes(city, dataPath)) / 2 ** 20).toFixed(1)} MB in ${city.graph.extracts.length} files | ${report.nodes.toLocaleString('en')} | ${report.edges.toLocaleString('en')} | ${report.build_seconds.toFixed(2)} s / ${report.cpu_seconds.toFixed(2)} s | ${report.peak_rss_mb} MB | ${(report.output_bytes / 2 ** 20).toFixed(1)} MB (${(report.output_bytes / report.edges).toFixed(0)} B/edge) |`);
    print(`${city.id}: ${report.build_seconds} s, ${report.peak_rss_mb} MB`);
    if (city.id === 'new-york') {
      const outDir = await mkdtemp(join(tmpdir(), 'graph-bench-ny-'));
      const result = await buildCity({ city, dataPath, outDir });
      newYorkGraph = openGraph(new Uint8Array(await readFile(result.graphPath)));
    }
  }
  lines.push('');
  if (newYorkGraph) lines.push(...(await componentBenchmark(newYorkGraph, 5)), '');

  const workDir = await mkdtemp(join(tmpdir(), 'graph-bench-tiled-'));
  const { city: scaleCity, tiled } = await tiledCity(dataPath, tiles, workDir);
  const scale = await buildReport(scaleCity, workDir);
  const megabytes = tiled.bytes / 2 ** 20;
  lines.push(
    `City-scale build: the Lower Manhattan extract tiled ${tiles} x ${tiles} (${tiled.nodes.toLocaleString('en')} OSM nodes, ${tiled.ways.toLocaleString('en')} ways, ${megabytes.toFixed(0)} MB of PBF in ${tiles * tiles} files): ${scale.nodes.toLocaleString('en')} graph nodes, ${scale.edges.toLocaleString('en')} directed edges, built in ${scale.build_seconds.toFixed(1)} s (${scale.cpu_seconds.toFixed(1)} s CPU) with ${scale.peak_rss_mb} MB peak RSS into a ${(scale.output_bytes / 2 ** 20).toFixed(0)} MB graph: ${(megabytes / scale.build_seconds).toFixed(1)} MB of PBF per second, ${((scale.peak_rss_mb - 130) / megabytes).toFixed(1)} MB of memory per MB of PBF above Node's baseline.`,
    '',
    `Its stages (wall seconds, docs/graph-format.md): ${scale.stages.map((stage) => `${stage.name} ${stage.seconds.toFixed(2)}`).join(', ')}.`,
    '',
    ...lambdaSizing(megabytes / scale.build_seconds, (scale.peak_rss_mb - 130) / megabytes),
    '',
    SECTION_END,
  );
  await writeSection(lines.join('\n'), SECTION_START, SECTION_END);
}

/** Replaces the marked section of docs/benchmarks.md (or appends it) and prints it. */
async function writeSection(section: string, start: string, end: string): Promise<void> {
  const benchmarksPath = join(projectRoot, 'docs', 'benchmarks.md');
  let existing = '';
  try {
    existing = await readFile(benchmarksPath, 'utf8');
  } catch {
    existing = '# Benchmarks\n';
  }
  const from = existing.indexOf(start);
  const to = existing.indexOf(end);
  const updated = from >= 0 && to > from
    ? `${existing.slice(0, from)}${section}${existing.slice(to + end.length)}`
    : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(benchmarksPath, updated);
  print(section);
}

/** The tiles of a tiles x tiles city, generated once into `dir` and reused while they are there. */
async function cachedTiledCity(dataPath: string, tiles: number, dir: string): Promise<Awaited<ReturnType<typeof tiledCity>>> {
  const manifest = join(dir, 'tiles.json');
  try {
    return JSON.parse(await readFile(manifest, 'utf8')) as Awaited<ReturnType<typeof tiledCity>>;
  } catch {
    await mkdir(dir, { recursive: true });
    const made = await tiledCity(dataPath, tiles, dir);
    await writeFile(manifest, JSON.stringify(made));
    return made;
  }
}

/** The city-scale build alone, stage by stage: where the time and the memory go. */
async function scaleOnly(tiles: number, tilesDir: string): Promise<void> {
  const load = loadavg()[0]!;
  const { city, tiled } = await cachedTiledCity(sharedDataPath(), tiles, tilesDir);
  const scale = await buildReport(city, tilesDir);
  const megabytes = tiled.bytes / 2 ** 20;
  const lines = [
    SCALE_SECTION_START,
    '### Graph build at city scale, stage by stage',
    '',
    `Measured by \`npx tsx test/bench/graph-build.ts --scale-only --tiles ${tiles}\` on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, one build in a fresh process; load average at the start ${load.toFixed(1)}. The Lower Manhattan extract tiled ${tiles} x ${tiles}: ${megabytes.toFixed(0)} MB of PBF in ${tiles * tiles} files, ${tiled.nodes.toLocaleString('en')} OSM nodes, ${tiled.ways.toLocaleString('en')} ways. Result: ${scale.nodes.toLocaleString('en')} graph nodes, ${scale.edges.toLocaleString('en')} directed edges, a ${(scale.output_bytes / 2 ** 20).toFixed(0)} MB graph (${(scale.output_bytes / scale.edges).toFixed(0)} B/edge), built in ${scale.build_seconds.toFixed(1)} s (${scale.cpu_seconds.toFixed(1)} s CPU) with ${scale.peak_rss_mb} MB peak RSS: ${((scale.peak_rss_mb - 130) / megabytes).toFixed(1)} MB of memory per MB of PBF above Node's baseline.`,
    '',
    '| Stage | Wall s | RSS at its end | Peak so far |',
    '|---|---|---|---|',
    ...scale.stages.map((stage) => `| ${stage.name} | ${stage.seconds.toFixed(2)} | ${stage.rss_mb ?? '?'} MB | ${stage.peak_rss_mb ?? '?'} MB |`),
    '',
    SCALE_SECTION_END,
  ];
  await writeSection(lines.join('\n'), SCALE_SECTION_START, SCALE_SECTION_END);
}

await main();
