/**
 * Routing on one connected metro-scale network (`BENCH_SECTIONS=metro npm run bench`): the Lower
 * Manhattan extract cropped and tiled with alternate tiles mirrored so that the streets cut at
 * each seam meet their reflections (graph-builder/metro-city.ts), BENCH_METRO_TILES tiles
 * (default 9x9, columns x rows: about 5.3 million directed edges). The real builder builds it in a
 * process of its own (its time and peak memory are that process's); this process loads the graph
 * and routes BENCH_METRO_PAIRS seeded pairs of cycling-network nodes (default 500) 2 to 30 km
 * apart in a straight line, snap + search, with BENCH_METRO_CLOSURES accepted closure reports
 * (default 60) in force, per costing: direct, supersafe, walking, avoid_hills and night.
 * BENCH_METRO_WARM_UP pairs (default 50) are routed untimed first for each costing. Each costing
 * is routed twice, one run right after the other on the same pairs: bounded by the landmarks (the
 * straight line for walking, which has none: left out unless BENCH_METRO_STRAIGHT_WALKING=1, at
 * over 2 s a query), then by the contraction hierarchy potentials (core/routing/search/hierarchy.ts),
 * the graph's own where it stores them, else computed in this process (their time measured).
 * BENCH_METRO_COSTINGS (labels' first words, comma-separated, such as `supersafe` or
 * `direct,walking`) and BENCH_METRO_BOUNDS (`landmarks`, `hierarchy`) route only some, for quick
 * comparisons (run them with BENCH_WRITE_DOCS=0: the recorded figures are every costing with both bounds).
 * BENCH_METRO_DIR names the work folder (kept afterwards); a build already there (a run with the
 * same folder) is reused rather than built again, its figures as that build recorded them.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDataPath } from '../../lib/local/paths.ts';
import type { CostOptions } from '../../core/routing/costing/costing.ts';
import { createCosting } from '../../core/routing/costing/create-costing.ts';
import { haversineMetres } from '../../core/geo.ts';
import { localMinutes } from '../../core/local-time.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import type { ComponentSummary } from '../../graph-builder/stages/connectivity.ts';
import { metroCity } from '../../graph-builder/metro-city.ts';
import { buildOverlay } from '../../functions/graphs/report-overlay.ts';
import { buildInChild, RESULT_FILE } from './build-in-child.ts';
import type { BuildResult } from '../../graph-builder/build.ts';
import type { BuildableCity } from '../../graph-builder/city-recipes.ts';
import type { LoadedGraph } from '../../core/routing/planning/loaded-graph.ts';
import type { ContractedArcs } from '../../core/routing/search/contraction.ts';
import { computeHierarchies, HIERARCHY_METRICS, type HierarchySet } from '../../core/routing/search/hierarchy.ts';
import { SearchWorkspace } from '../../core/routing/search/workspace.ts';
import { cyclingNodes, cyclingRegions, loadMeasured, measureCosting, percentile, randomPairs } from './measure.ts';
import { seededReports } from './routino.ts';

const [COLUMNS, ROWS] = (process.env.BENCH_METRO_TILES ?? '9x9').split('x').map(Number) as [number, number];
const PAIRS = Number(process.env.BENCH_METRO_PAIRS ?? 500);
const WARM_UP = Number(process.env.BENCH_METRO_WARM_UP ?? 50);
const CLOSURES = Number(process.env.BENCH_METRO_CLOSURES ?? 60);
const STRAIGHT_WALKING = process.env.BENCH_METRO_STRAIGHT_WALKING === '1';
const ONLY_COSTINGS = process.env.BENCH_METRO_COSTINGS?.split(',').map((label) => label.trim());
const ONLY_BOUNDS = process.env.BENCH_METRO_BOUNDS?.split(',').map((bound) => bound.trim());
const PAIR_SEED = 3434;
const CLOSURE_SEED = 4343;
/** The graph is dated before the reports; they are accepted on 1 June, a third end on 22 June. */
const BUILT = new Date('2026-06-01T00:00:00Z');
/** A Monday: morning for the day costings, late evening (dark) for night. */
const MORNING = localMinutes(2026, 6, 15, 8, 30);
const NIGHT = localMinutes(2026, 6, 15, 22, 30);

const COSTINGS: readonly { label: string; options: CostOptions }[] = [
  { label: 'direct', options: { profile: 'cycling', supersafe: false, night: false, departureMinute: MORNING } },
  { label: 'supersafe', options: { profile: 'cycling', supersafe: true, night: false, departureMinute: MORNING } },
  { label: 'walking', options: { profile: 'walking', supersafe: false, night: false, departureMinute: MORNING } },
  { label: 'avoid_hills (supersafe)', options: { profile: 'cycling', supersafe: true, night: false, departureMinute: MORNING, avoidHills: true } },
  { label: 'night (supersafe, 22:30)', options: { profile: 'cycling', supersafe: true, night: true, departureMinute: NIGHT } },
  { label: 'night (direct, 22:30)', options: { profile: 'cycling', supersafe: false, night: true, departureMinute: NIGHT } },
];

const thousands = (value: number) => value.toLocaleString('en');
const ms = (value: number) => value.toFixed(2);

/**
 * What a bicycle type other than hybrid adds to its first route per graph and metric: its bound's
 * ratio and its cost tables (docs/routing.md, "Bicycle types"), supersafe, in this process's CPU.
 */
function bicycleTypesFirstUse(network: RoutingNetwork): string {
  const supersafe = COSTINGS.find(({ label }) => label === 'supersafe')!.options;
  const parts = (['road', 'cargo'] as const).map((bicycleType) => {
    const started = process.cpuUsage();
    createCosting(network, { ...supersafe, bicycleType }).tables();
    const used = process.cpuUsage(started);
    return `${bicycleType} ${thousands(Math.round((used.user + used.system) / 1000))} ms`;
  });
  return `A bicycle type other than hybrid computes its bound's ratio and its cost tables on its first route per graph and metric (docs/routing.md, "Bicycle types"), once per warm container; supersafe, in CPU: ${parts.join(', ')} (the road bike's turns share hybrid's stored table, the cargo bike's are a copy with narrow barriers forbidden).`;
}

/** Share of the cycling network's nodes in its largest weakly connected region. */
function largestRegionShare(network: RoutingNetwork, nodes: Uint32Array): number {
  const regionOf = cyclingRegions(network);
  const sizes = new Map<number, number>();
  for (const node of nodes) sizes.set(regionOf(node), (sizes.get(regionOf(node)) ?? 0) + 1);
  return Math.max(...sizes.values()) / nodes.length;
}

const describeKept = (summary: ComponentSummary): string =>
  `${summary.kept.length} network${summary.kept.length === 1 ? '' : 's'} of ${summary.kept.map((component) => thousands(component.edges)).join(', ')} directed edges, ${thousands(summary.removed)} islands removed`;

const hierarchyBytes = (arcs: ContractedArcs): number =>
  [arcs.upFirst, arcs.upHead, arcs.upWeight, arcs.downFirst, arcs.downTail, arcs.downWeight].reduce((sum, array) => sum + array.byteLength, 0);

/**
 * The hierarchies the router holds: the graph file's, or where it stores none, computed here, one
 * metric at a time, with each metric's CPU time and the process's resident memory after it.
 */
function routerHierarchies(loaded: LoadedGraph): { hierarchies: HierarchySet; computed: string | null } {
  const stored = loaded.workspace.hierarchies;
  if (HIERARCHY_METRICS.every((metric) => stored[metric])) return { hierarchies: stored, computed: null };
  const hierarchies: HierarchySet = {};
  const notes: string[] = [];
  for (const metric of HIERARCHY_METRICS) {
    const cpu = process.cpuUsage();
    Object.assign(hierarchies, computeHierarchies(loaded.network, [metric]));
    const used = process.cpuUsage(cpu);
    notes.push(`${metric} ${((used.user + used.system) / 1e6).toFixed(1)} s CPU (resident ${thousands(Math.round(process.memoryUsage().rss / 2 ** 20))} MB after)`);
  }
  return { hierarchies, computed: notes.join(', ') };
}

const landmarkSectionBytes = ({ graph }: RoutingNetwork): number =>
  [graph.landmarkNodes, graph.landmarkRowBits, graph.landmarkRowRank, graph.landmarkRowRegion, graph.landmarkLeave, graph.landmarkDistances].reduce((sum, array) => sum + array.byteLength, 0);
const hierarchySectionBytes = ({ graph }: RoutingNetwork): number =>
  [graph.hierarchyUpFirst, graph.hierarchyUpHead, graph.hierarchyUpWeight, graph.hierarchyDownFirst, graph.hierarchyDownTail, graph.hierarchyDownWeight].reduce((sum, array) => sum + array.byteLength, 0);

/** The city built into `outDir` in a process of its own, or the build a former run left there. */
async function buildOrReuse(city: BuildableCity, outDir: string): Promise<BuildResult> {
  const kept = join(outDir, `${city.id}-${RESULT_FILE}`);
  if (existsSync(kept)) {
    const result = JSON.parse(await readFile(kept, 'utf8')) as BuildResult;
    if (existsSync(result.graphPath)) return result;
  }
  return buildInChild(city, { dataPath: sharedDataPath(), outDir, now: BUILT });
}

/** One tile of the crop built alone: what the connectivity stage keeps of it, to compare the grid with. */
async function oneTile(workDir: string): Promise<{ edges: number; cycling: ComponentSummary }> {
  const tileDir = join(workDir, 'one-tile');
  await mkdir(tileDir, { recursive: true });
  const { city } = await metroCity(sharedDataPath(), 1, 1, tileDir);
  const { report } = await buildOrReuse(city, tileDir);
  return { edges: report.edges, cycling: report.components.cycling };
}

export async function metroScale(emit: (line?: string) => void): Promise<void> {
  const keptDir = process.env.BENCH_METRO_DIR;
  const workDir = keptDir ?? (await mkdtemp(join(tmpdir(), 'spoke-metro-')));
  if (keptDir) await mkdir(keptDir, { recursive: true });
  try {
    const single = await oneTile(workDir);
    const { city, extracts } = await metroCity(sharedDataPath(), COLUMNS, ROWS, workDir);
    const { graphPath, report } = await buildOrReuse(city, workDir);
    const bytes = await readFile(graphPath);
    const measured = loadMeasured('new-york', bytes);
    const { loaded } = measured;
    const { network } = loaded;
    const edges = network.graph.edgeCount;
    const riderNodes = cyclingNodes(network);
    const pairs = randomPairs(network, PAIRS, 2000, 30_000, PAIR_SEED, riderNodes);
    const straight = pairs.map(([a, b]) => haversineMetres(network.nodeLon(a), network.nodeLat(a), network.nodeLon(b), network.nodeLat(b)) / 1000);
    const { overlay, avoidances } = buildOverlay(loaded, seededReports(loaded, CLOSURES, CLOSURE_SEED, ['closed']));
    const closedEdges = avoidances.reduce((sum, avoidance) => sum + avoidance.edges.length, 0);
    const located = avoidances.filter((avoidance) => avoidance.edges.length > 0).length;

    emit(`The Lower Manhattan extract (osm/nyc/davidsaldubehere-osm-navigation-backend/nyc.osm.pbf) cropped to ${thousands(Math.round(extracts.bytes / 2 ** 20))} MB of PBF over ${COLUMNS} x ${ROWS} tiles (graph-builder/metro-city.ts): each street the crop cuts ends at a node on its side, and alternate tiles are mirrored, so at every seam the cut streets meet their reflections at shared nodes (${thousands(extracts.joins)} seam joins; the crop's sides cut west ${extracts.crossingsPerSide.west}, east ${extracts.crossingsPerSide.east}, south ${extracts.crossingsPerSide.south} and north ${extracts.crossingsPerSide.north} ways). One network: ${thousands(network.graph.nodeCount)} nodes, ${thousands(edges)} directed edges, graph file ${((await stat(graphPath)).size / 2 ** 20).toFixed(0)} MB.`);
    emit();
    emit(`Connected: the builder's connectivity stage (one group per tile file, each keeping the component that holds most of its edges) kept, cycling, ${describeKept(report.components.cycling)}; walking, ${describeKept(report.components.walking)}. ${(100 * largestRegionShare(network, riderNodes)).toFixed(2)}% of the loaded graph's cycling nodes lie in its largest region. The islands are the extract's own: one tile built alone (${thousands(single.edges)} directed edges) keeps, cycling, ${describeKept(single.cycling)}, and ${COLUMNS * ROWS} tiles x ${thousands(single.cycling.kept[0]?.edges ?? 0)} = ${thousands(COLUMNS * ROWS * (single.cycling.kept[0]?.edges ?? 0))}.`);
    emit();
    emit(`Build (the real builder, in a process of its own): ${report.build_seconds.toFixed(1)} s (${(report.cpu_seconds ?? 0).toFixed(1)} s CPU), peak RSS ${thousands(report.peak_rss_mb)} MB (the process's high-water mark, Node included), ${(extracts.bytes / 2 ** 20 / report.build_seconds).toFixed(1)} MB of PBF per second.`);
    emit();
    emit(`Of the build, by stage (wall seconds, and the build's peak resident memory after each): ${report.stages.filter((stage) => ['cost-tables', 'landmarks', 'hierarchy', 'write'].includes(stage.name)).map((stage) => `${stage.name} ${stage.seconds.toFixed(1)} s (peak ${thousands(stage.peak_rss_mb ?? 0)} MB)`).join(', ')}. The peak before the hierarchy stage was ${thousands(report.stages[report.stages.findIndex((stage) => stage.name === 'hierarchy') - 1]?.peak_rss_mb ?? 0)} MB.`);
    emit();
    emit(`Bytes per directed edge in the file: the landmark sections ${(landmarkSectionBytes(network) / edges).toFixed(1)} B, the hierarchy sections ${(hierarchySectionBytes(network) / edges).toFixed(1)} B.`);
    emit();
    emit(`Load, bytes in memory to routable: ${measured.loadMilliseconds.toFixed(0)} ms; to the first route: ${(measured.loadMilliseconds + measured.firstRouteMilliseconds).toFixed(0)} ms. Memory per directed edge: the graph file's ${(measured.fileBytes / edges).toFixed(0)} B (read in place) plus ${(measured.derivedBytes / edges).toFixed(0)} B the router derives (the search's buffers, the table of where each edge arrives at its head, the bit sets of edges with closure rules and turn restrictions, and each hierarchy's upward arcs side by side): ${((measured.fileBytes + measured.derivedBytes) / edges).toFixed(0)} B in all.`);
    emit();
    emit(`${pairs.length} seeded pairs of cycling-network nodes (seed ${PAIR_SEED}) ${ms(Math.min(...straight))} to ${ms(Math.max(...straight))} km apart in a straight line (median ${ms(percentile(straight, 50))} km). A query snaps both ends at the nodes' coordinates and searches (route only, as \`test/bench/measure.ts\` times it). ${CLOSURES} accepted closure reports on random cycling ways (a third temporary, all in force at the departures; ${located} located on ${closedEdges} edges) are in force for the cycling costings; the walking costing takes no report overlay. Departure Monday 15 June 2026 08:30, night 22:30 (dark). For each costing the first ${WARM_UP} pairs are routed untimed, then all of them timed. CPU is this process's user + system time per query (process.cpuUsage), the steadier figure on a shared machine; wall is elapsed time. The graph has no elevation (New York's extracts carry none), so avoid_hills is supersafe with a hill term that adds nothing.`);
    emit();
    const { hierarchies, computed } = routerHierarchies(loaded);
    const perEdge = HIERARCHY_METRICS.map((metric) => `${metric} ${(hierarchyBytes(hierarchies[metric]!) / edges).toFixed(1)} B (${thousands(hierarchies[metric]!.upHead.length + hierarchies[metric]!.downTail.length)} arcs)`).join(', ');
    emit(`Contraction hierarchies, one per metric (core/routing/search/contraction.ts and hierarchy.ts): ${computed === null ? 'stored in the graph file and read in place' : `not stored in this graph, so computed in this process: ${computed}`}. Their arcs per directed edge of the graph: ${perEdge}.`);
    const overlayStarted = performance.now();
    buildOverlay(loaded, seededReports(loaded, CLOSURES + 1, CLOSURE_SEED, ['closed']));
    emit();
    emit(`A newly accepted report costs what it cost before: the overlay is rebuilt (${(performance.now() - overlayStarted).toFixed(0)} ms wall for ${CLOSURES + 1} reports here) and nothing else, since reports only raise costs and the hierarchies hold the least costs.`);
    emit();
    const bounds = [
      { bound: 'landmarks', workspace: new SearchWorkspace(edges, loaded.workspace.landmarks) },
      // As the router loads a graph: the hierarchies bound the search, with the landmark tables' least cost of leaving each edge (core/routing/search/leaving.ts).
      { bound: 'hierarchy', workspace: new SearchWorkspace(edges, loaded.workspace.landmarks, hierarchies) },
    ];
    emit('| Costing | Bound | Routed | CPU p50 / p95 / p99 ms | wall p50 / p95 ms | states settled p50 / p95 / p99 |');
    emit('|---|---|---|---|---|---|');
    for (const { label, options } of COSTINGS) {
      if (ONLY_COSTINGS && !ONLY_COSTINGS.includes(label.split(' ')[0]!)) continue;
      const costing = createCosting(network, options, options.profile === 'cycling' ? overlay : null);
      for (const { bound, workspace } of bounds) {
        if (ONLY_BOUNDS && !ONLY_BOUNDS.includes(bound)) continue;
        if (options.profile === 'walking' && bound === 'landmarks' && !STRAIGHT_WALKING) {
          emit(`| ${label} | straight line (no landmarks) | not run | over 2,000 (mean; BENCH_METRO_STRAIGHT_WALKING=1 runs it) | | |`);
          continue;
        }
        const run = measureCosting({ ...loaded, workspace }, pairs, costing, { guidance: false, warmUpPairs: WARM_UP });
        emit(`| ${label} | ${bound} | ${run.cpu.length} of ${pairs.length} | ${ms(percentile(run.cpu, 50))} / ${ms(percentile(run.cpu, 95))} / ${ms(percentile(run.cpu, 99))} | ${ms(percentile(run.total, 50))} / ${ms(percentile(run.total, 95))} | ${thousands(percentile(run.settled, 50))} / ${thousands(percentile(run.settled, 95))} / ${thousands(percentile(run.settled, 99))} |`);
      }
    }
    emit();
    emit(bicycleTypesFirstUse(network));
    emit();
  } finally {
    if (process.env.BENCH_METRO_KEEP !== '1' && !keptDir) await rm(workDir, { recursive: true, force: true });
  }
}
