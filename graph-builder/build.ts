import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildableCity } from './city-recipes.ts';
import { GRAPH_FORMAT_VERSION, type GraphHeader, type GraphSections, type GridSpec } from '../core/graph/layout.ts';
import { currentPointerKey, readGraphPointer, type CurrentGraphPointer } from '../core/graph/catalog.ts';
import { sourceName, type ProgressListener, type SourceSummary } from './stages/read/collect.ts';
import { cityInputPaths, cityInputs, BUILDER_VERSION, type InputFile } from './source-hash.ts';
import { graphStatistics, spotCheck, type GraphStatistics, type SpotCheckResult } from './statistics.ts';
import { spotChecks } from './spot-checks.ts';
import { TimeWindowCompiler } from './time-windows.ts';
import { Warnings } from './warnings.ts';
import { StringTable, writeFileAtomically, type HeaderWithoutSections } from './writer.ts';
import { clipToCity } from './stages/clip.ts';
import { keepConnectedNetworks, type ComponentSummary } from './stages/connectivity.ts';
import { buildEdges } from './stages/edges.ts';
import { nodeElevations } from './stages/elevation.ts';
import { findGraphNodes } from './stages/graph-nodes.ts';
import { markJunctionControl } from './stages/junction-control.ts';
import { costTables, type CostTableSectionName } from './stages/cost-tables.ts';
import { openCoreTable } from './stages/open-core.ts';
import { landmarkTables, type LandmarkSectionName } from './stages/landmarks.ts';
import { hierarchyTables, type HierarchySectionName } from './stages/hierarchy.ts';
import { removeCarriagewaysWithPavements, type PavementsOutput } from './stages/pavements.ts';
import { planWays } from './stages/plan-ways.ts';
import { readInputs } from './stages/read.ts';
import { renumber } from './stages/renumber.ts';
import { resolveRestrictions, restrictionTable, type RestrictionSummary } from './stages/restrictions.ts';
import { layoutSections } from './stages/sections.ts';
import { segmentSections } from './stages/segments.ts';
import { writeGraph } from './stages/write.ts';

/**
 * Building one city: a fixed list of named stages, each a function from what it needs to what it
 * produces (modules in graph-builder/stages/; docs/graph-format.md, "How a graph is built"). The
 * `clock.run(name, …)` calls below are that list, in order: `hash-inputs`, the stages of
 * `assembleGraph` from `read` to `sections`, then `open-core`, `cost-tables`, `landmarks`, `hierarchy`, `write` and `statistics`. Then the
 * report file and, last, the pointer are written (each atomically). The output folder mirrors the
 * S3 layout: `cities/<city>/graphs/<graph_version>.graph` plus `cities/<city>/current.json`, with
 * the report beside it as `cities/<city>/report.json`.
 */

/** Wall-clock seconds one stage of a build took, and the memory the build held at its end. */
export interface StageTiming {
  readonly name: string;
  readonly seconds: number;
  /** Resident memory when the stage returned (what it left for the next stages to carry). */
  readonly rss_mb?: number;
  /** The build's peak resident memory so far: a rise over the previous stage's peak is this stage's. */
  readonly peak_rss_mb?: number;
}

/** Called after every stage, in build order: how a long build reports its progress. */
export type StageListener = (stage: StageTiming) => void;

export interface BuildReport {
  readonly city: string;
  readonly city_name: string;
  readonly graph_version: string;
  readonly built_at: string;
  readonly sources: readonly { readonly name: string; readonly bytes: number; readonly new_ways: number }[];
  readonly nodes: number;
  readonly edges: number;
  readonly segments: number;
  readonly statistics: GraphStatistics;
  readonly lighting_data: boolean;
  readonly elevation: GraphHeader['elevation'];
  readonly restrictions: RestrictionSummary;
  readonly closures: AssembledGraph['closures'];
  readonly components: AssembledGraph['components'];
  readonly ways_outside_city: number;
  readonly separate_pavements: PavementsOutput['separatePavements'];
  readonly warnings: readonly { readonly key: string; readonly count: number; readonly examples: readonly string[] }[];
  readonly spot_checks: readonly SpotCheckResult[];
  readonly build_seconds: number;
  /** CPU seconds (user + system, all threads) of the build: steadier than wall time on a shared machine. */
  readonly cpu_seconds: number;
  /** Peak resident memory of the build, Node included (see PeakMemory). */
  readonly peak_rss_mb: number;
  readonly output_bytes: number;
  /** Each stage's wall-clock time, in build order. */
  readonly stages: readonly StageTiming[];
}

export interface BuildOptions {
  readonly city: BuildableCity;
  readonly dataPath: string;
  readonly outDir: string;
  readonly onProgress?: ProgressListener;
  /** Told of each stage as it ends (the nightly job logs them). */
  readonly onStage?: StageListener;
  /** Build time (defaults to now); fixed in tests for reproducible windows. */
  readonly now?: Date;
  /**
   * Epoch milliseconds by which the hierarchy stage must have finished (the nightly build's
   * invocation end less the time to write and publish): the metrics it has not contracted by then
   * are left out of the graph, with a warning (`hierarchy_left_out_out_of_time`), and the router
   * bounds their searches by the landmarks. None: every hierarchy is built however long it takes.
   */
  readonly hierarchyDeadline?: number;
}

export interface BuildResult {
  readonly graphPath: string;
  readonly pointer: CurrentGraphPointer;
  readonly report: BuildReport;
}

const DRIVING_SIDE = { gb: 'left', us: 'right' } as const;
/** Local graph versions kept besides the current one (the S3 bucket keeps history by lifecycle rule). */
const KEEP_OLD_VERSIONS = 1;

const compactTimestamp = (date: Date): string => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '');

/** Reads objects of the output folder, which mirrors the graphs bucket. */
export const folderReader = (outDir: string) => async (key: string): Promise<string | null> => {
  try {
    return await readFile(join(outDir, key), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** The folder's current pointer; null when there is none or it cannot be read, so the city is built afresh. */
export function readPointer(outDir: string, cityId: string): Promise<CurrentGraphPointer | null> {
  return readGraphPointer(folderReader(outDir), cityId).catch(() => null);
}

/**
 * Peak resident memory of one build. A timer samples RSS, but timers only fire while the build
 * waits for I/O, never inside a synchronous stage, so sampling alone misses most peaks. The
 * process's high-water mark (getrusage `maxrss`) does not; it is the answer whenever this build
 * raised it, as it always does in a process of its own (the CLI and the benchmark build each city
 * in one). Otherwise the build stayed below an earlier one's peak and the samples are all we know.
 */
class PeakMemory {
  private readonly highWaterAtStart = process.resourceUsage().maxRSS;
  private sampled = process.memoryUsage().rss;
  private readonly timer = setInterval(() => this.sample(), 25);

  sample(): void {
    this.sampled = Math.max(this.sampled, process.memoryUsage().rss);
  }

  /** The peak so far, in bytes. */
  peak(): number {
    this.sample();
    const highWater = process.resourceUsage().maxRSS;
    return highWater > this.highWaterAtStart ? highWater * 1024 : this.sampled;
  }

  /** Stops sampling; the peak in bytes. */
  stop(): number {
    clearInterval(this.timer);
    return this.peak();
  }
}

const megabytes = (bytes: number): number => Math.round(bytes / 1048576);

/** Runs the stages of one build and records each one's wall-clock time, in order. */
class StageClock {
  readonly timings: StageTiming[] = [];

  constructor(private readonly memory: PeakMemory, private readonly onStage?: StageListener) {}

  async run<T>(name: string, stage: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await stage();
    const timing: StageTiming = {
      name,
      seconds: Math.round(performance.now() - started) / 1000,
      rss_mb: megabytes(process.memoryUsage().rss),
      peak_rss_mb: megabytes(this.memory.peak()),
    };
    this.timings.push(timing);
    this.onStage?.(timing);
    return result;
  }
}

/** Everything the build knows once the graph's sections are laid out, but for the open core and the cost and landmark tables. */
interface AssembledGraph {
  readonly sections: Omit<GraphSections, LandmarkSectionName | HierarchySectionName | CostTableSectionName | 'openCore'>;
  readonly grid: GridSpec;
  readonly bbox: readonly [number, number, number, number];
  readonly horizon: readonly [number, number];
  readonly elevation: GraphHeader['elevation'];
  readonly components: { readonly cycling: ComponentSummary; readonly walking: ComponentSummary };
  readonly restrictions: RestrictionSummary;
  readonly closures: { readonly ways: number; readonly records: number };
  readonly waysOutsideCity: number;
  readonly separatePavements: PavementsOutput['separatePavements'];
  readonly sources: readonly SourceSummary[];
}

interface AssembleJob {
  readonly city: BuildableCity;
  readonly dataPath: string;
  readonly builtAt: Date;
  readonly strings: StringTable;
  readonly warnings: Warnings;
  readonly onProgress?: ProgressListener;
}

/**
 * The stages from the extracts to the graph's sections, in build order. Their intermediate
 * arrays live only until this returns, before the open core, the cost and landmark tables and the file are made.
 */
async function assembleGraph({ city, dataPath, builtAt, strings, warnings, onProgress }: AssembleJob, clock: StageClock): Promise<AssembledGraph> {
  const context = { drivingSide: DRIVING_SIDE[city.countryCode], lightingData: city.lightingData, warnings };
  const read = await clock.run('read', () => readInputs({ city, paths: cityInputPaths(city, dataPath), context, strings, onProgress }));
  const { collected, models } = read;
  const { ways, nodes } = collected;
  const windows = new TimeWindowCompiler(city, builtAt, warnings);

  const clip = await clock.run('clip', () => clipToCity({ boundary: city.boundary, ways, nodes }));
  const { wayKept } = clip;
  const { isGraphNode } = await clock.run('graph-nodes', () => findGraphNodes({ ways, nodes, wayKept, warnings }));
  const plans = await clock.run('plan-ways', () => planWays({ ways, wayKept, routes: collected.routes, strings, windows, warnings }));
  const wayRoutes = plans.routes;
  const { graphNodes, segments, edges, segmentEdges, csr } = await clock.run('edges', () => buildEdges({ ways, nodes, wayKept, isGraphNode, plans }));
  const pavements = await clock.run('pavements', () => removeCarriagewaysWithPavements({ ways, nodes, segments, segmentEdges, edgeFlags: edges.flags }));
  const restrictions = await clock.run('restrictions', () => resolveRestrictions({
    specs: collected.restrictions, ways, wayKept, nodes, graphNodes, segments, segmentEdges, edges, edgeFlags: pavements.edgeFlags, csr, wayRoutes, windows,
  }));
  const controlled = await clock.run('junction-control', () => markJunctionControl({ nodes, graphNodes, edges, edgeFlags: pavements.edgeFlags, csr }));
  const connected = await clock.run('connectivity', () => keepConnectedNetworks({
    ways, nodes, sourceCount: collected.sources.length, graphNodes, segments, edges, edgeFlags: controlled.edgeFlags, csr, strings: strings.strings,
  }));

  const final = await clock.run('renumber', () => renumber({ nodes, graphNodes, edges, edgeFlags: connected.edgeFlags, segmentEdges }));
  const { nodeCount, denseOfNode } = final;
  const table = await clock.run('restriction-table', () => restrictionTable({ pending: restrictions.pending, edgeNewIndex: final.edgeNewIndex, edgeFlags: final.edges.flags }));
  const elevation = await clock.run('elevation', () => nodeElevations({
    models, nodes, graphNodes, segments, nodeCount, denseOfNode, segmentNew: final.segmentNew, liveSegments: final.liveSegments, edges: final.edges, csr: final.csr, warnings,
  }));
  const segmentArrays = await clock.run('segments', () => segmentSections({
    ways, nodes, wayRoutes, segments, segmentNew: final.segmentNew, liveSegments: final.liveSegments, segmentEdges: final.segmentEdges,
    segmentAscent: elevation.segmentAscent, segmentDescent: elevation.segmentDescent, strings,
  }));
  const laidOut = await clock.run('sections', () => layoutSections({
    nodes, nodeCount, denseOfNode, nodeElevationKnown: elevation.nodeElevationKnown, edges: final.edges, csr: final.csr, pointCoords: segmentArrays.pointCoords, segmentFirstPoint: segmentArrays.segmentFirstPoint,
    areas: read.areas, windows, strings,
  }));
  return {
    sections: {
      ...laidOut.sections, ...segmentArrays, nodeElevation: elevation.nodeElevation,
      firstOut: final.csr.firstOut, firstIn: final.csr.firstIn, inEdges: final.csr.inEdges,
      edgeHead: final.edges.head, edgeTail: final.edges.tail, edgeLength: final.edges.length, edgeFlags: table.edgeFlags,
      edgeSegment: final.edges.segment, edgeClosure: final.edges.closure,
      restrictionFirst: table.restrictionFirst, restrictionEdges: table.restrictionEdges, restrictionFlags: table.restrictionFlags, restrictionWindow: table.restrictionWindow,
      closureWindow: plans.closureRecords.window, closureFlags: plans.closureRecords.flags, closureSource: plans.closureRecords.source,
    },
    grid: laidOut.grid,
    bbox: final.bbox,
    horizon: windows.horizon,
    elevation: elevation.summary,
    components: connected.components,
    restrictions: {
      relations: collected.restrictions.length, applied: restrictions.applied, sequences: table.restrictionFlags.length, conditional: restrictions.conditional,
      bicycleSpecific: restrictions.bicycleSpecific, viaWay: restrictions.viaWay, sameCyclewayExempt: table.sameCyclewayExempt, skipped: restrictions.skipped,
    },
    closures: { ways: plans.closedWays, records: plans.closureRecords.window.length },
    waysOutsideCity: clip.waysOutsideCity,
    separatePavements: pavements.separatePavements,
    sources: collected.sources,
  };
}

function graphHeader(city: BuildableCity, graphVersion: string, builtAt: Date, inputs: { files: InputFile[]; hash: string }, graph: AssembledGraph, strings: StringTable): Omit<HeaderWithoutSections, 'landmarks' | 'hierarchies' | 'cost_tables' | 'open_core'> {
  const { sections } = graph;
  return {
    format_version: GRAPH_FORMAT_VERSION,
    city: city.id,
    graph_version: graphVersion,
    built_at: builtAt.toISOString(),
    builder_version: BUILDER_VERSION,
    source_hash: inputs.hash,
    sources: inputs.files.map((file) => ({ name: sourceName(file.path), bytes: file.bytes, sha256: file.sha256 })),
    time_zone: city.timeZone,
    lighting_data: city.lightingData,
    ...(city.graph.folded ? { folded_reports: [...city.graph.folded.reports] } : {}),
    elevation: graph.elevation,
    bbox: graph.bbox,
    grid: graph.grid,
    time_windows: { horizon: graph.horizon },
    counts: {
      nodes: sections.nodeElevation.length,
      edges: sections.edgeHead.length,
      segments: sections.segmentWayId.length,
      points: sections.pointCoords.length / 2,
      strings: strings.strings.length,
      route_sets: sections.routeSetFirst.length - 1,
      restrictions: sections.restrictionFlags.length,
      closures: sections.closureFlags.length,
      time_windows: sections.windowKind.length,
      areas: sections.areaName.length,
    },
  };
}

export async function buildCity(options: BuildOptions): Promise<BuildResult> {
  const { city, dataPath, outDir } = options;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const memory = new PeakMemory();
  try {
    const builtAt = options.now ?? new Date();
    const clock = new StageClock(memory, options.onStage);
    const inputs = await clock.run('hash-inputs', () => cityInputs(city, dataPath));
    const graphVersion = `${city.id}-${compactTimestamp(builtAt)}-${inputs.hash.slice(0, 8)}`;
    const warnings = new Warnings();
    const strings = new StringTable();
    const graph = await assembleGraph({ city, dataPath, builtAt, strings, warnings, onProgress: options.onProgress }, clock);
    const assembledHeader = graphHeader(city, graphVersion, builtAt, inputs, graph, strings);
    const cored = await clock.run('open-core', () => openCoreTable({ header: assembledHeader, sections: graph.sections }));
    const coredHeader = { ...assembledHeader, open_core: cored.definition };
    const coredSections = { ...graph.sections, openCore: cored.openCore };
    const costed = await clock.run('cost-tables', () => costTables({ header: coredHeader, sections: coredSections }));
    const header = { ...coredHeader, cost_tables: costed.header };
    const sections = { ...coredSections, ...costed.sections };
    const landmarks = await clock.run('landmarks', () => landmarkTables({ header, sections }));
    const hierarchies = await clock.run('hierarchy', () => hierarchyTables({ header: { ...header, landmarks: landmarks.header }, sections: { ...sections, ...landmarks.sections } }, options.hierarchyDeadline));
    for (const metric of hierarchies.leftOut) warnings.count('hierarchy_left_out_out_of_time', metric);
    const written = await clock.run('write', () => writeGraph({ outDir, header, sections, landmarks, hierarchies }));
    const pointer: CurrentGraphPointer = { graph_version: graphVersion, key: written.key, built_at: header.built_at, source_hash: inputs.hash };
    const checks = await clock.run('statistics', () => ({
      statistics: graphStatistics(sections),
      spotChecks: (spotChecks[city.id] ?? []).map((check) => spotCheck(sections, strings.strings, check)),
    }));
    const cpu = process.cpuUsage(cpuStarted);
    const report: BuildReport = {
      city: city.id,
      city_name: city.name,
      graph_version: graphVersion,
      built_at: header.built_at,
      sources: graph.sources.map((source) => ({ name: source.name, bytes: source.bytes, new_ways: source.newWays })),
      nodes: header.counts.nodes,
      edges: header.counts.edges,
      segments: header.counts.segments,
      statistics: checks.statistics,
      lighting_data: city.lightingData,
      elevation: header.elevation,
      restrictions: graph.restrictions,
      closures: graph.closures,
      components: graph.components,
      ways_outside_city: graph.waysOutsideCity,
      separate_pavements: graph.separatePavements,
      warnings: warnings.entries(),
      spot_checks: checks.spotChecks,
      build_seconds: Math.round((performance.now() - started) / 10) / 100,
      cpu_seconds: Math.round((cpu.user + cpu.system) / 10_000) / 100,
      peak_rss_mb: megabytes(memory.stop()),
      output_bytes: written.bytes,
      stages: clock.timings,
    };
    await writeFileAtomically(join(outDir, 'cities', city.id, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    // The pointer moves last, so a reader never sees a pointer to a graph that is not there.
    await writeFileAtomically(join(outDir, currentPointerKey(city.id)), `${JSON.stringify(pointer, null, 2)}\n`);
    await removeOldVersions(outDir, city.id, graphVersion);
    return { graphPath: written.path, pointer, report };
  } finally {
    memory.stop();
  }
}

async function removeOldVersions(outDir: string, cityId: string, current: string): Promise<void> {
  const folder = join(outDir, 'cities', cityId, 'graphs');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.graph') && file !== `${current}.graph`).sort().reverse();
  for (const file of files.slice(KEEP_OLD_VERSIONS)) await rm(join(folder, file), { force: true });
}
