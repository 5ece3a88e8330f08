/**
 * `npm run bench` (which runs this file compiled as the Lambda bundle is: as-deployed/register.mjs):
 * warm, in-process routing on the largest real graph (New York) and on generated
 * grid cities (up to 159,200 directed edges by default), each against graphology-shortest-path's
 * bidirectional Dijkstra on the same graph and queries. Prints the tables and rewrites the routing
 * section of docs/benchmarks.md.
 *
 * Settings (environment): BENCH_QUERIES (New York pairs, default 300), BENCH_BASELINE_QUERIES
 * (graphology queries on New York, default 60), BENCH_GRID_SIZES (grid sides, default
 * 100,200: the builder's contraction hierarchies take super-linear time on a generated grid, whose
 * near-equal blocks leave few witnesses, 3 to 4 minutes at 200 x 200 and over 18 at 300 x 300;
 * docs/benchmarks.md, "Grids and the hierarchy build"), BENCH_WRITE_DOCS=0 to print without touching the docs, BENCH_SECTIONS
 * (`routing,quality` by default: `quality` alone measures route quality, which takes no timings
 * and so can be refreshed on a busy machine; `routino` alone runs the side-by-side comparison with
 * Routino of test/bench/routino.ts, `city-scale` routing on the 1.8-million-edge build of
 * test/bench/city-scale.ts, `metro` routing on one connected network of over 5 million directed
 * edges, test/bench/metro.ts, `load` the load test of POST /directions/v2/ on the local platform,
 * test/bench/load.ts, with wrk), `walking` walking beside cycling on every city's seeded
 * pairs (test/bench/walking.ts; BENCH_WALKING_PAIRS, default 200), `budget` the compute budget per
 * request on New York's seeded 25-coordinate requests (test/bench/budget.ts; BENCH_BUDGET_REQUESTS
 * per kind, default 40; BENCH_BUDGET_STATES, the budget sizes in states, default the documented one),
 * `alternatives` directions with and without alternative routes on every city's seeded pairs
 * (test/bench/alternatives.ts; BENCH_ALTERNATIVES_PAIRS per city, default 100).
 * `graded-safety` the graded safety preference swept on every city's route-quality pairs
 * (test/bench/graded-safety.ts; BENCH_QUALITY_PAIRS pairs, the frontier on the first
 * BENCH_GRADED_FRONTIER_PAIRS, default 100). `bicycle-types` every bicycle type on every city's
 * seeded pairs (test/bench/bicycle-types.ts; BENCH_BICYCLE_TYPE_PAIRS per city, default 200).
 */
import './scratch.ts';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { graphOutputDir } from '../../lib/local/paths.ts';
import { cityIds } from '../../core/cities/index.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { SAFETY_CLASSES, type SafetyClass } from '../../core/graph/flags.ts';
import { buildGridCity } from './grid-city.ts';
import { replaceDocSection, measuredOn } from './doc-section.ts';
import { routinoComparison } from './routino.ts';
import { cityScale } from './city-scale.ts';
import { metroScale } from './metro.ts';
import { loadBenchmark } from './load.ts';
import { profileRow, walkingBesideCycling, WALKING_PROFILES } from './walking.ts';
import { computeBudgetSection } from './budget.ts';
import { ALTERNATIVES_HEADER, alternativesRow, alternativesRun } from './alternatives.ts';
import { ALTERNATIVES } from '../../core/routing/planning/alternatives.ts';
import { ALTERNATIVES_DEPARTURE, alternativesContext, seededPairs } from '../support/alternative-routes.ts';
import { ROUTE_BUDGET } from '../../core/routing/planning/budget.ts';
import { EVENING_DEPARTURE, measurePairs, summarise } from './route-quality.ts';
import { gradedSafetySection } from './graded-safety.ts';
import { bicycleTypesSection } from './bicycle-types.ts';
import {
  compareWithGraphology, cyclingNodes, loadMeasured, measureQueries, percentile, randomPairs, supersafeEffect, type LoadedForBench,
} from './measure.ts';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const BASELINE_QUERIES = Number(process.env.BENCH_BASELINE_QUERIES ?? 60);
const GRID_SIZES = (process.env.BENCH_GRID_SIZES ?? '100,200').split(',').map(Number);
const WRITE_DOCS = process.env.BENCH_WRITE_DOCS !== '0';
const QUALITY_PAIRS = Number(process.env.BENCH_QUALITY_PAIRS ?? 300);
const QUALITY_SEED = 2026;
const GRADED_FRONTIER_PAIRS = Number(process.env.BENCH_GRADED_FRONTIER_PAIRS ?? 100);
const WALKING_PAIRS = Number(process.env.BENCH_WALKING_PAIRS ?? 200);
const ALTERNATIVES_PAIRS = Number(process.env.BENCH_ALTERNATIVES_PAIRS ?? 100);
const BICYCLE_TYPE_PAIRS = Number(process.env.BENCH_BICYCLE_TYPE_PAIRS ?? 200);
const BUDGET_REQUESTS = Number(process.env.BENCH_BUDGET_REQUESTS ?? 40);
const BUDGET_STATES = (process.env.BENCH_BUDGET_STATES ?? String(ROUTE_BUDGET.statesSettled)).split(',').map(Number);
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? 'routing,quality').split(',').map((section) => section.trim()));

let lines: string[] = [];
const emit = (line = '') => {
  lines.push(line);
  console.log(line);
};
const ms = (value: number) => value.toFixed(2);
const thousands = (value: number) => value.toLocaleString('en');
const table = (rows: string[][]) => {
  emit(`| ${rows[0]!.join(' | ')} |`);
  emit(`|${rows[0]!.map(() => '---').join('|')}|`);
  for (const row of rows.slice(1)) emit(`| ${row.join(' | ')} |`);
};

function describeLoad(label: string, loaded: LoadedForBench): string {
  const { graph } = loaded.loaded.network;
  return `${label}: ${thousands(graph.nodeCount)} nodes, ${thousands(graph.edgeCount)} directed edges, graph file ${(loaded.fileBytes / 2 ** 20).toFixed(1)} MB`;
}

function newYork(): void {
  const directory = graphOutputDir();
  const pointer = parseGraphPointer(readFileSync(join(directory, currentPointerKey('new-york')), 'utf8'));
  const measured = loadMeasured('new-york', readFileSync(join(directory, pointer.key)));
  const { network } = measured.loaded;
  const edges = network.graph.edgeCount;
  const pairs = randomPairs(network, QUERIES, 1000, 6000, 12345, cyclingNodes(network));

  emit('### New York');
  emit();
  emit(`${describeLoad(pointer.graph_version, measured)}. ${thousands(QUERIES)} random pairs of cycling-network nodes 1 to 6 km apart; each query snaps both ends, searches and, where stated, builds the steps with voice and banner instructions in English. A first round warms the JIT; the second is timed.`);
  emit();
  const rows = [['Query', 'p50 ms', 'p95 ms', 'p99 ms', 'search p50 ms', 'states settled p50', 'µs per state']];
  for (const [label, supersafe, guidance] of [
    ['supersafe, full guidance', true, true],
    ['supersafe, route only', true, false],
    ['direct, full guidance', false, true],
    ['direct, route only', false, false],
  ] as const) {
    const run = measureQueries(measured.loaded, pairs, { supersafe, guidance });
    rows.push([label, ms(percentile(run.total, 50)), ms(percentile(run.total, 95)), ms(percentile(run.total, 99)), ms(percentile(run.search, 50)), thousands(percentile(run.settled, 50)), run.microsecondsPerState.toFixed(2)]);
  }
  table(rows);
  emit();

  const baseline = compareWithGraphology(measured.loaded, pairs.slice(0, BASELINE_QUERIES));
  emit(`Against graphology-shortest-path on the first ${BASELINE_QUERIES} pairs, the ${baseline.pairs} it connects node to node (its bidirectional Dijkstra, node to node, on a graphology graph of the same edges weighted by the direct costing; building that graph took ${(baseline.buildMilliseconds / 1000).toFixed(1)} s):`);
  emit();
  table([
    ['Query', 'p50 ms', 'p95 ms', 'speed-up at p50'],
    ['graphology bidirectional Dijkstra', ms(percentile(baseline.graphology, 50)), ms(percentile(baseline.graphology, 95)), '1x'],
    ['this router, whole query (snap and search, direct)', ms(percentile(baseline.oursTotal, 50)), ms(percentile(baseline.oursTotal, 95)), `${(percentile(baseline.graphology, 50) / percentile(baseline.oursTotal, 50)).toFixed(1)}x`],
    ['this router, search alone', ms(percentile(baseline.oursSearch, 50)), ms(percentile(baseline.oursSearch, 95)), `${(percentile(baseline.graphology, 50) / percentile(baseline.oursSearch, 50)).toFixed(1)}x`],
  ]);
  emit();
  emit(`Load, bytes in memory to routable: ${ms(measured.loadMilliseconds)} ms; to the first route (cold code): ${ms(measured.loadMilliseconds + measured.firstRouteMilliseconds)} ms. Memory per directed edge: the graph file's bytes ${(measured.fileBytes / edges).toFixed(0)} B (the router reads them in place) plus ${(measured.derivedBytes / edges).toFixed(0)} B the router derives (the search's buffers; the open core and the cost and landmark tables are read in place): ${((measured.fileBytes + measured.derivedBytes) / edges).toFixed(0)} B in all.`);
  emit();
}

function supersafeOnRealExtracts(): void {
  emit('### Supersafe on the real extracts');
  emit();
  emit('The supersafe weights (docs/routing.md) against the direct costing on random node pairs 500 m to 6 km apart in each city: the share of route metres per safety class, and what the safer route costs in distance.');
  emit();
  const rows = [['City', 'Pairs', 'busy + shared, direct', 'busy + shared, supersafe', 'quiet + cycleway, direct', 'quiet + cycleway, supersafe', 'detour p50', 'detour p90']];
  const share = (metres: Record<SafetyClass, number>, classes: SafetyClass[]) => {
    const total = SAFETY_CLASSES.reduce((sum, safety) => sum + metres[safety], 0);
    return `${((100 * classes.reduce((sum, safety) => sum + metres[safety], 0)) / Math.max(1, total)).toFixed(1)}%`;
  };
  for (const city of cityIds) {
    const directory = graphOutputDir();
    const pointer = parseGraphPointer(readFileSync(join(directory, currentPointerKey(city)), 'utf8'));
    const { loaded } = loadMeasured(city, readFileSync(join(directory, pointer.key)));
    const effect = supersafeEffect(loaded, randomPairs(loaded.network, 150, 500, 6000, 2026));
    const detour = (p: number) => `+${((percentile(effect.detours, p) - 1) * 100).toFixed(0)}%`;
    rows.push([
      city,
      String(effect.pairs),
      share(effect.direct, ['busy', 'shared']),
      share(effect.supersafe, ['busy', 'shared']),
      share(effect.direct, ['quiet', 'cycleway']),
      share(effect.supersafe, ['quiet', 'cycleway']),
      detour(50),
      detour(90),
    ]);
  }
  table(rows);
  emit();
}

async function growth(): Promise<void> {
  emit('### Growth with graph size');
  emit();
  emit('The stored DIMACS road graphs (`../shared/data/benchmark/`) are topology only, without coordinates or arc lengths, so the router cannot run on them. The curve uses generated grid cities instead (`test/bench/grid-city.ts`: Manhattan-like blocks of about 90 m, busy avenues and moderate cross streets with signals, cycle tracks, alternating one-way streets), compiled by the real builder, landmark tables and contraction hierarchies included (the hierarchy stage of the build apart in brackets: docs/benchmarks.md, "Grids and the hierarchy build"). Per size: 100 supersafe queries with full guidance between nodes 1 to 6 km apart, 100 supersafe route-only queries between random nodes anywhere, and graphology on 20 of the latter.');
  emit();
  const rows = [['Grid', 'Nodes', 'Directed edges', 'Build s (hierarchy s)', 'Load ms', '1-6 km p50 / p95 ms', 'anywhere p50 / p95 ms', 'settled p50 (anywhere)', 'graphology p50 ms (anywhere)', 'speed-up']];
  for (const size of GRID_SIZES) {
    const started = performance.now();
    let hierarchySeconds = 0;
    const path = await buildGridCity(size, (stage) => {
      if (stage.name === 'hierarchy') hierarchySeconds = stage.seconds;
    });
    const buildSeconds = (performance.now() - started) / 1000;
    const measured = loadMeasured('new-york', await readFile(path));
    const { network } = measured.loaded;
    const local = measureQueries(measured.loaded, randomPairs(network, 100, 1000, 6000, size), { supersafe: true, guidance: true });
    const anywherePairs = randomPairs(network, 100, 0, Infinity, size + 1);
    const anywhere = measureQueries(measured.loaded, anywherePairs, { supersafe: true, guidance: false });
    const baseline = compareWithGraphology(measured.loaded, anywherePairs.slice(0, 20));
    rows.push([
      `${size} x ${size}`,
      thousands(network.graph.nodeCount),
      thousands(network.graph.edgeCount),
      `${buildSeconds.toFixed(1)} (${hierarchySeconds.toFixed(1)})`,
      ms(measured.loadMilliseconds),
      `${ms(percentile(local.total, 50))} / ${ms(percentile(local.total, 95))}`,
      `${ms(percentile(anywhere.total, 50))} / ${ms(percentile(anywhere.total, 95))}`,
      thousands(percentile(anywhere.settled, 50)),
      ms(percentile(baseline.graphology, 50)),
      `${(percentile(baseline.graphology, 50) / percentile(baseline.oursTotal, 50)).toFixed(1)}x`,
    ]);
    console.log(`  grid ${size} done`);
  }
  table(rows);
  emit();
  emit('The graphology column is on the direct costing (its graph holds one weight per edge); the speed-up compares it with this router on the same pairs, direct and route only, whole query. Local queries stay flat as the graph grows: the hierarchy bound keeps the search near the route. Queries across the whole graph grow with the route, as any exact search does. For scale only (another graph and other weights), published figures on the DIMACS New York graph (264k nodes, 734k arcs) are a median of 34 ms for ngraph.path NBA*, 264 ms for Dijkstra and 0.36 ms for contraction-hierarchy-js after 16 minutes of preprocessing.');
  emit();
}

function routeQualitySection(): void {
  emit('## Route quality');
  emit();
  emit(`Measured by \`BENCH_SECTIONS=quality npm run bench\` (\`test/bench/route-quality.ts\`) on ${measuredOn()} (${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(2)} at the start; figures of the routes, not timings), departure ${EVENING_DEPARTURE.replace('T', ' ')} (a Wednesday evening, daylight in every city): ${QUALITY_PAIRS} random pairs of cycling-network nodes 1 to 4 km apart per city (seed ${QUALITY_SEED}), each routed supersafe and direct as the directions endpoint plans them (snapping included). Busy + shared and LTS 3-4 are shares of all route metres; pushed metres count by the class of the way pushed along (footways are shared) and by its stress (a footway is LTS 1). Kept: the supersafe routes' busy and shared metres as a share of the direct routes', ridden metres only (in brackets with pushed ones). Length: supersafe over direct per pair, median (90th percentile). test/routing/route-quality.test.ts holds the acceptance figures on other seeds.`);
  emit();
  const rows = [['City', 'Pairs', 'Direct longer than supersafe', 'Length p50 (p90)', 'Busy + shared, supersafe / direct', 'Kept by supersafe', 'LTS 3-4, supersafe / direct', 'Pushed, supersafe / direct']];
  const frontierRows = [['City', 'Pairs', 'Supersafe / direct length over shortest, p50', 'Fewest busy + shared within 1.05x (mean of pairs)', 'within 1.3x', 'Supersafe busy + shared', 'Fewest LTS 3-4 within 1.05x', 'within 1.3x', 'Supersafe LTS 3-4']];
  const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
  for (const city of cityIds) {
    const directory = graphOutputDir();
    const pointer = parseGraphPointer(readFileSync(join(directory, currentPointerKey(city)), 'utf8'));
    const { loaded } = loadMeasured(city, readFileSync(join(directory, pointer.key)));
    const quality = summarise(measurePairs(city, loaded, { count: QUALITY_PAIRS, seed: QUALITY_SEED, frontier: true }));
    rows.push([
      city,
      String(quality.pairs),
      String(quality.directLonger),
      `${quality.lengthRatioMedian.toFixed(3)}x (${quality.lengthRatioP90.toFixed(3)}x)`,
      `${percent(quality.busySharedShare.supersafe)} / ${percent(quality.busySharedShare.direct)}`,
      `${percent(quality.busySharedKept)} (${percent(quality.busySharedKeptWithPushed)})`,
      `${percent(quality.stress34Share.supersafe)} / ${percent(quality.stress34Share.direct)}`,
      `${(100 * quality.pushedShare.supersafe).toFixed(2)}% / ${(100 * quality.pushedShare.direct).toFixed(2)}%`,
    ]);
    const [near, far] = quality.frontier;
    frontierRows.push([
      city,
      String(near!.pairs),
      `${quality.supersafeOverShortestMedian.toFixed(3)}x / ${quality.directOverShortestMedian.toFixed(3)}x`,
      `${percent(near!.busyShared)} (${percent(near!.busySharedMean)})`,
      `${percent(far!.busyShared)} (${percent(far!.busySharedMean)})`,
      percent(quality.busySharedShare.supersafe),
      `${percent(near!.stress34)} (${percent(near!.stress34Mean)})`,
      `${percent(far!.stress34)} (${percent(far!.stress34Mean)})`,
      percent(quality.stress34Share.supersafe),
    ]);
  }
  table(rows);
  emit();
  emit('What the map allows (`test/bench/frontier.ts`): on the same pairs, from the same snapped ends and under the same rules at the departure (open ways, one-way directions, turn restrictions, barriers), the fewest busy + shared metres, and apart the fewest LTS 3-4 metres, of any route at most 1.05 and 1.3 times as long as the shortest, found by an exact resource-constrained search; shares of those routes\' metres, summed over the pairs (in brackets the mean of each pair\'s share).');
  emit();
  table(frontierRows);
  emit();
}

/** Replaces the marked section of docs/benchmarks.md with what was emitted since the last call. */
async function writeSection(name: string): Promise<void> {
  const emitted = lines;
  lines = [];
  if (WRITE_DOCS) await replaceDocSection(name, emitted);
}

async function routing(): Promise<void> {
  emit('## Routing (directions)');
  emit();
  emit(`Measured by \`npm run bench\` (\`test/bench/run.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core. Load average at the start: ${loadavg()[0]!.toFixed(1)}.`);
  emit();
  emit('Routes are exact (edge-based A* with turn costs and restrictions), sped up by the contraction hierarchy potentials stored with each graph (graph format 5; landmark bounds before it); docs/routing.md explains the search. Before the landmarks the same New York queries took a p50 of 12 to 15 ms and settled about 35,000 states each.');
  emit();
  newYork();
  supersafeOnRealExtracts();
  await growth();
  await writeSection('routing');
}

function alternativesSection(): void {
  emit('## Alternative routes');
  emit();
  emit(`Measured by \`BENCH_SECTIONS=alternatives npm run bench\` (\`test/bench/alternatives.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core. Load average at the start: ${loadavg()[0]!.toFixed(2)}. Per city ${ALTERNATIVES_PAIRS} seeded coordinate pairs 1 to 6 km apart (the Routino comparison's, \`coordinatePairs\`), cycling at ${ALTERNATIVES_DEPARTURE.replace('T', ' ')}; each pair planned as directions plans it, first without alternatives and then asking for ${ALTERNATIVES.maxCount} (\`alternatives: true\`), one after the other, each a request of its own with its own compute budget. Routed: pairs with a route (London's extracts are islands). The share of routed requests by how many alternatives they got; refused: requests with alternatives that reached the budget of ${thousands(ROUTE_BUDGET.statesSettled)} states (422) where the route alone did not. Cost ratio and shared share of every alternative found (docs/routing.md, "Alternative routes"). CPU: the process's user and system time per request (\`process.cpuUsage\`), which a busy machine inflates less than wall time; states: all the request's searches.`);
  emit();
  const rows = [ALTERNATIVES_HEADER];
  for (const city of cityIds) {
    const context = alternativesContext(city);
    const pairs = seededPairs(context, ALTERNATIVES_PAIRS, QUALITY_SEED);
    for (const supersafe of [true, false]) rows.push(alternativesRow(alternativesRun(context, pairs, supersafe)));
    console.log(`  ${city} done at load average ${loadavg()[0]!.toFixed(2)}`);
  }
  table(rows);
  emit();
  emit(`Load average at the end: ${loadavg()[0]!.toFixed(2)}. Each penalized search settles several times the route's states: the landmark bounds are computed on the costs without penalties, so along the penalized route they fall short by up to the penalty and the search widens; a request asking for ${ALTERNATIVES.maxCount} runs up to ${ALTERNATIVES.maxCount + ALTERNATIVES.extraSearches} of them and a T-test search per detour of each candidate that passes the sharing and cost tests. A request asking for fewer stops sooner.`);
}

function walkingSection(): void {
  emit('## Walking beside cycling');
  emit();
  emit(`Measured by \`BENCH_SECTIONS=walking npm run bench\` (\`test/bench/walking.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core. Load average at the start: ${loadavg()[0]!.toFixed(2)}. Per city ${WALKING_PAIRS} seeded coordinate pairs 1 to 6 km apart (the Routino comparison's, \`coordinatePairs\`); a query is both ends snapped for the costing plus the leg's search as every endpoint runs it (a direct cycling leg searches twice: its own and the supersafe route it may not be longer than). The three profiles run one after the other on each pair; one warm-up round, then two timed. CPU is this process's user + system time per query (process.cpuUsage, microsecond resolution), the steadier figure on a shared machine; wall is elapsed time. The last column is CPU p95 over cycling supersafe's CPU p95 on the same pairs. Every profile is bounded by the graph's contraction hierarchy potentials (docs/routing.md, "Search"), walking's by its own hierarchy.`);
  emit();
  const rows = [['City', 'Profile', 'Routes', 'CPU p50 / p95 ms', 'wall p50 / p95 ms', 'states settled p50 / p95', 'CPU p95 / supersafe CPU p95']];
  for (const city of cityIds) {
    const pointer = parseGraphPointer(readFileSync(join(graphOutputDir(), currentPointerKey(city)), 'utf8'));
    const { loaded } = loadMeasured(city, readFileSync(join(graphOutputDir(), pointer.key)));
    const runs = walkingBesideCycling(loaded, WALKING_PAIRS, 2026);
    for (const profile of WALKING_PROFILES) rows.push(profileRow(city, profile, runs[profile], runs['cycling supersafe']));
    console.log(`  ${city} done (load average ${loadavg()[0]!.toFixed(2)})`);
  }
  table(rows);
  emit();
  emit(`Load average at the end: ${loadavg()[0]!.toFixed(2)}.`);
  emit();
}

async function main(): Promise<void> {
  if (SECTIONS.has('routing')) await routing();
  if (SECTIONS.has('load')) await loadBenchmark(WRITE_DOCS);
  if (SECTIONS.has('alternatives')) {
    alternativesSection();
    await writeSection('alternatives');
  }
  if (SECTIONS.has('walking')) {
    walkingSection();
    await writeSection('walking');
  }
  if (SECTIONS.has('budget')) {
    const pointer = parseGraphPointer(readFileSync(join(graphOutputDir(), currentPointerKey('new-york')), 'utf8'));
    const { loaded } = loadMeasured('new-york', readFileSync(join(graphOutputDir(), pointer.key)));
    lines = computeBudgetSection(loaded, { requests: BUDGET_REQUESTS, budgets: BUDGET_STATES });
    await writeSection('compute-budget');
  }
  if (SECTIONS.has('quality')) {
    routeQualitySection();
    await writeSection('route-quality');
  }
  if (SECTIONS.has('graded-safety')) {
    gradedSafetySection(emit, table, { count: QUALITY_PAIRS, seed: QUALITY_SEED, frontierPairs: GRADED_FRONTIER_PAIRS });
    await writeSection('graded-safety');
  }
  if (SECTIONS.has('bicycle-types')) {
    bicycleTypesSection(emit, table, { count: BICYCLE_TYPE_PAIRS, seed: QUALITY_SEED });
    await writeSection('bicycle-types');
  }
  if (SECTIONS.has('city-scale')) {
    emit('## Routing at city scale');
    emit();
    emit(`Measured by \`BENCH_SECTIONS=city-scale npm run bench\` (\`test/bench/city-scale.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core. Load average at the start: ${loadavg()[0]!.toFixed(2)}.`);
    emit();
    await cityScale(emit);
    await writeSection('city-scale');
  }
  if (SECTIONS.has('metro')) {
    emit('## Routing at metro scale');
    emit();
    emit(`Measured by \`BENCH_SECTIONS=metro npm run bench\` (\`test/bench/metro.ts\`) on ${measuredOn()}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; warm, in process, one core. Load average at the start: ${loadavg()[0]!.toFixed(2)}.`);
    emit();
    await metroScale(emit);
    emit(`Load average at the end: ${loadavg()[0]!.toFixed(2)}.`);
    await writeSection('metro');
  }
  if (SECTIONS.has('routino')) {
    lines = await routinoComparison();
    await writeSection('routino');
  }
}

await main();
