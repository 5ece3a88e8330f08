import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildableCity } from './cities.ts';
import { GRAPH_FORMAT_VERSION, graphOf, type GraphHeader, type GraphSections } from '../core/graph/layout.ts';
import { currentPointerKey, graphKey, readGraphPointer, type CurrentGraphPointer } from '../core/graph/catalog.ts';
import { computeLandmarkSections } from '../core/routing/landmarks.ts';
import { RoutingNetwork } from '../core/routing/network.ts';
import { assembleGraph, readAreas, type AssembledGraph, type LandmarkSectionName } from './assemble.ts';
import { collectOsm, sourceName, type ProgressListener } from './collect.ts';
import { loadDem } from './elevation.ts';
import { cityInputPaths, hashFile, sourceHash, BUILDER_VERSION, type InputFile } from './source-hash.ts';
import { graphStatistics, spotCheck, type GraphStatistics, type SpotCheckResult } from './statistics.ts';
import { spotChecks } from './spot-checks.ts';
import { TimeWindowCompiler } from './time-windows.ts';
import { Warnings } from './warnings.ts';
import { serializeGraph, StringTable, writeFileAtomically, type HeaderWithoutSections } from './writer.ts';

/**
 * Building one city: hash the inputs, read the extracts, assemble, serialise, write the graph and
 * then the pointer (each atomically), and produce the build report. The output folder mirrors the
 * S3 layout: `cities/<city>/graphs/<graph_version>.graph` plus `cities/<city>/current.json`, with
 * the report beside it as `cities/<city>/report.json`.
 */

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
  readonly restrictions: AssembledGraph['restrictions'];
  readonly closures: AssembledGraph['closures'];
  readonly components: AssembledGraph['components'];
  readonly ways_outside_city: number;
  readonly separate_pavements: AssembledGraph['separatePavements'];
  readonly warnings: readonly { readonly key: string; readonly count: number; readonly examples: readonly string[] }[];
  readonly spot_checks: readonly SpotCheckResult[];
  readonly build_seconds: number;
  /** CPU seconds (user + system, all threads) of the build: steadier than wall time on a shared machine. */
  readonly cpu_seconds: number;
  readonly peak_rss_mb: number;
  readonly output_bytes: number;
}

export interface BuildOptions {
  readonly city: BuildableCity;
  readonly dataPath: string;
  readonly outDir: string;
  readonly onProgress?: ProgressListener;
  /** Build time (defaults to now); fixed in tests for reproducible windows. */
  readonly now?: Date;
}

export interface BuildResult {
  readonly graphPath: string;
  readonly pointer: CurrentGraphPointer;
  readonly report: BuildReport;
}

const DRIVING_SIDE = { gb: 'left', us: 'right' } as const;
/** Local graph versions kept besides the current one (the S3 bucket keeps history by lifecycle rule). */
const KEEP_OLD_VERSIONS = 1;

export async function cityInputs(city: BuildableCity, dataPath: string): Promise<{ files: InputFile[]; hash: string }> {
  const paths = cityInputPaths(city, dataPath);
  const files: InputFile[] = [];
  for (const path of [...paths.extracts, paths.dem, paths.areas]) {
    if (path) files.push(await hashFile(path));
  }
  return { files, hash: sourceHash(city, files) };
}

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

export async function buildCity(options: BuildOptions): Promise<BuildResult> {
  const { city, dataPath, outDir } = options;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
  try {
    const builtAt = options.now ?? new Date();
    const inputs = await cityInputs(city, dataPath);
    const paths = cityInputPaths(city, dataPath);
    const graphVersion = `${city.id}-${compactTimestamp(builtAt)}-${inputs.hash.slice(0, 8)}`;
    const warnings = new Warnings();
    const strings = new StringTable();
    const context = { drivingSide: DRIVING_SIDE[city.countryCode], lightingData: city.lightingData, warnings };
    const collected = await collectOsm(paths.extracts, context, strings, options.onProgress);
    const windows = new TimeWindowCompiler(city, builtAt, warnings);
    const dem = paths.dem ? await loadDem(paths.dem) : null;
    const areas = paths.areas && city.graph.areas ? await readAreas(paths.areas, city.graph.areas.kind, city.graph.areas.nameProperty) : [];
    const assembled = await assembleGraph({ city, collected, strings, windows, warnings, dem, areas });
    const { offsets, bytes: stringBytes } = strings.encode();
    const sections = { ...assembled.sections, stringOffsets: offsets, stringBytes };

    const header: Omit<HeaderWithoutSections, 'landmarks'> = {
      format_version: GRAPH_FORMAT_VERSION,
      city: city.id,
      graph_version: graphVersion,
      built_at: builtAt.toISOString(),
      builder_version: BUILDER_VERSION,
      source_hash: inputs.hash,
      sources: inputs.files.map((file) => ({ name: sourceName(file.path), bytes: file.bytes, sha256: file.sha256 })),
      time_zone: city.timeZone,
      lighting_data: city.lightingData,
      elevation: { source: assembled.elevation.source, nodes_by_source: assembled.elevation.nodesBySource },
      bbox: assembled.bbox,
      grid: assembled.grid,
      time_windows: { horizon: windows.horizon },
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
    const bytes = withLandmarks(header, sections);
    const key = graphKey(city.id, graphVersion);
    const graphPath = join(outDir, key);
    await writeFileAtomically(graphPath, bytes);
    const pointer: CurrentGraphPointer = { graph_version: graphVersion, key, built_at: header.built_at, source_hash: inputs.hash };

    const statistics = graphStatistics(sections);
    const cpu = process.cpuUsage(cpuStarted);
    const report: BuildReport = {
      city: city.id,
      city_name: city.name,
      graph_version: graphVersion,
      built_at: header.built_at,
      sources: collected.sources.map((source) => ({ name: source.name, bytes: source.bytes, new_ways: source.newWays })),
      nodes: header.counts.nodes,
      edges: header.counts.edges,
      segments: header.counts.segments,
      statistics,
      lighting_data: city.lightingData,
      elevation: header.elevation,
      restrictions: assembled.restrictions,
      closures: assembled.closures,
      components: assembled.components,
      ways_outside_city: assembled.waysOutsideCity,
      separate_pavements: assembled.separatePavements,
      warnings: warnings.entries(),
      spot_checks: (spotChecks[city.id] ?? []).map((check) => spotCheck(sections, strings.strings, check)),
      build_seconds: Math.round((performance.now() - started) / 10) / 100,
      cpu_seconds: Math.round((cpu.user + cpu.system) / 10_000) / 100,
      peak_rss_mb: Math.round(Math.max(peakRss, process.memoryUsage().rss) / 1048576),
      output_bytes: bytes.byteLength,
    };
    await writeFileAtomically(join(outDir, 'cities', city.id, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    // The pointer moves last, so a reader never sees a pointer to a graph that is not there.
    await writeFileAtomically(join(outDir, currentPointerKey(city.id)), `${JSON.stringify(pointer, null, 2)}\n`);
    await removeOldVersions(outDir, city.id, graphVersion);
    return { graphPath, pointer, report };
  } finally {
    clearInterval(sampler);
  }
}

async function removeOldVersions(outDir: string, cityId: string, current: string): Promise<void> {
  const folder = join(outDir, 'cities', cityId, 'graphs');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.graph') && file !== `${current}.graph`).sort().reverse();
  for (const file of files.slice(KEEP_OLD_VERSIONS)) await rm(join(folder, file), { force: true });
}

/**
 * Serialises the graph with its landmark tables, computed by the router's own costing on the
 * builder's arrays seen as the router will see the graph.
 */
function withLandmarks(header: Omit<HeaderWithoutSections, 'landmarks'>, sections: Omit<GraphSections, LandmarkSectionName>): Uint8Array {
  const noLandmarks = { landmarkNodes: new Uint32Array(0), landmarkLeave: new Uint8Array(0), landmarkFrom: new Uint16Array(0), landmarkTo: new Uint16Array(0) };
  const graph = graphOf({ ...header, landmarks: { costing: '', count: 0, metrics: [] } }, { ...sections, ...noLandmarks });
  const landmarks = computeLandmarkSections(new RoutingNetwork(graph));
  return serializeGraph({ ...header, landmarks: landmarks.header }, { ...sections, ...landmarks.sections });
}
