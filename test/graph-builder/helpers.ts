import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildableCity, type BuildableCity } from '../../graph-builder/city-recipes.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { openGraph, type Graph } from '../../core/graph/layout.ts';
import { buildCity, type BuildReport } from '../../graph-builder/build.ts';
import { readOsmFile, type Tags } from '../../graph-builder/osm/reader.ts';
import type { DrivingSide } from '../../graph-builder/tag-rules/context.ts';
import { classifyWay, type WayAttributes } from '../../graph-builder/tag-rules/way.ts';
import { Warnings } from '../../graph-builder/warnings.ts';

export const fixtureDir = resolve(projectRoot, 'test/fixtures/osm');
export const fixturePath = (name: string): string => join(fixtureDir, name);

/** The ways of a rule fixture by their `fixture` tag. */
export async function fixtureWays(file: string): Promise<Map<string, Tags>> {
  const ways = new Map<string, Tags>();
  await readOsmFile(fixturePath(`rules/${file}`), {
    way(_id, _refs, tags) {
      const { fixture, ...rest } = tags;
      ways.set(fixture!, rest);
    },
  });
  return ways;
}

export interface Classified {
  readonly attributes: WayAttributes | null;
  readonly warnings: Warnings;
}

/** A rule fixture, classified case by case. */
export async function ruleFixture(file: string, options: { drivingSide?: DrivingSide; lightingData?: boolean } = {}): Promise<(fixtureCase: string) => Classified> {
  const ways = await fixtureWays(file);
  return (fixtureCase) => {
    const tags = ways.get(fixtureCase);
    if (!tags) throw new Error(`${file} has no case ${fixtureCase}`);
    const warnings = new Warnings();
    const attributes = classifyWay(tags, { drivingSide: options.drivingSide ?? 'left', lightingData: options.lightingData ?? false, warnings });
    return { attributes, warnings };
  };
}

/** A test city: London's zone and outline, built from fixture files only. */
export function fixtureCity(extracts: readonly string[], overrides: Partial<BuildableCity> = {}): BuildableCity {
  const london = buildableCity('london');
  return { ...london, ...overrides, graph: { extracts, nightlySources: [] } };
}

export interface BuiltFixture {
  readonly graph: Graph;
  readonly report: BuildReport;
  readonly outDir: string;
  readonly graphPath: string;
}

export async function buildFixture(files: readonly string[], overrides: Partial<BuildableCity> = {}, now = new Date('2026-11-20T12:00:00Z')): Promise<BuiltFixture> {
  const outDir = await mkdtemp(join(tmpdir(), 'graph-test-'));
  const result = await buildCity({ city: fixtureCity(files, overrides), dataPath: fixtureDir, outDir, now });
  const graph = openGraph(new Uint8Array(await readFile(result.graphPath)));
  return { graph, report: result.report, outDir, graphPath: result.graphPath };
}

/** Ids of the graph's edges whose segment belongs to OSM way `wayId`. */
export function edgesOfWay(graph: Graph, wayId: number): number[] {
  const edges: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) if (graph.segmentWayId[graph.edgeSegment[e]!] === wayId) edges.push(e);
  return edges;
}

const isAt = (graph: Graph, node: number, lon: number, lat: number): boolean =>
  Math.abs(graph.nodeCoords[2 * node]! / 1e7 - lon) < 1e-7 && Math.abs(graph.nodeCoords[2 * node + 1]! / 1e7 - lat) < 1e-7;

/** The edge of way `wayId` leaving the node at (lon, lat) degrees, towards `to` when the way goes both ways. */
export function edgeFrom(graph: Graph, wayId: number, lon: number, lat: number, to?: readonly [number, number]): number {
  for (const e of edgesOfWay(graph, wayId)) {
    if (!isAt(graph, graph.edgeTail[e]!, lon, lat)) continue;
    if (to && !isAt(graph, graph.edgeHead[e]!, to[0], to[1])) continue;
    return e;
  }
  throw new Error(`no edge of way ${wayId} leaves ${lon},${lat}${to ? ` towards ${to.join(',')}` : ''}`);
}
