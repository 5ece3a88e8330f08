import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildableCity } from '../../graph-builder/city-recipes.ts';
import { pointInRing } from '../../core/cities/lookup.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { EDGE_CYCLING, EDGE_DISMOUNT, SAFETY_BUSY, SAFETY_CYCLEWAY, SAFETY_MODERATE, SAFETY_SHARED, safetyClassOf, STRESS_UNKNOWN, trafficStressOf } from '../../core/graph/flags.ts';
import { openGraph, type Graph } from '../../core/graph/layout.ts';
import { buildCity, type BuildReport } from '../../graph-builder/build.ts';
import { sharedDataPresent } from '../support/shared-data.ts';

/**
 * Builds the real London graph from the shared data (the OSM extracts listed in the registry)
 * and checks what anyone who rides there knows.
 */
const available = sharedDataPresent(...buildableCity('london').graph.extracts);

describe.skipIf(!available)('London from real OpenStreetMap data', () => {
  let graph: Graph;
  let report: BuildReport;

  /** Rideable metres per safety class over edges matching `include`. */
  const metresByClass = (include: (edge: number) => boolean): Map<number, number> => {
    const metres = new Map<number, number>();
    for (let e = 0; e < graph.edgeCount; e++) {
      const flags = graph.edgeFlags[e]!;
      if (!(flags & EDGE_CYCLING) || flags & EDGE_DISMOUNT || !include(e)) continue;
      metres.set(safetyClassOf(flags), (metres.get(safetyClassOf(flags)) ?? 0) + graph.edgeLength[e]!);
    }
    return metres;
  };
  const share = (metres: Map<number, number>, classes: number[]): number => {
    const total = [...metres.values()].reduce((a, b) => a + b, 0);
    return classes.reduce((sum, c) => sum + (metres.get(c) ?? 0), 0) / total;
  };
  const onRoute = (name: string) => (edge: number): boolean => {
    const set = graph.segmentRouteSet[graph.edgeSegment[edge]!]!;
    for (let i = graph.routeSetFirst[set]!; i < graph.routeSetFirst[set + 1]!; i++) if (graph.string(graph.routeSetMembers[i]!) === name) return true;
    return false;
  };
  const named = (name: string) => (edge: number): boolean => graph.string(graph.segmentName[graph.edgeSegment[edge]!]!) === name;

  beforeAll(async () => {
    const result = await buildCity({ city: buildableCity('london'), dataPath: sharedDataPath(), outDir: await mkdtemp(join(tmpdir(), 'london-')) });
    graph = openGraph(new Uint8Array(await readFile(result.graphPath)));
    report = result.report;
  });

  it('rates the Cycleway 6 track (former CS6) as cycleway', () => {
    expect(share(metresByClass(onRoute('Cycleway 6')), [SAFETY_CYCLEWAY])).toBeGreaterThan(0.5);
  });

  it('rates Euston Road, a six-lane A road, busy or moderate, never quiet', () => {
    const metres = metresByClass(named('Euston Road'));
    expect(share(metres, [SAFETY_BUSY, SAFETY_MODERATE])).toBe(1);
    expect(share(metres, [SAFETY_BUSY])).toBeGreaterThan(0.5);
  });

  it('reads the Level of Traffic Stress from London\'s tags: 20 mph streets low, Euston Road high, Cycleway 6 separated or calm', () => {
    /** Rideable metres per LTS over edges matching `include`. */
    const metresByStress = (include: (edge: number) => boolean): Map<number, number> => {
      const metres = new Map<number, number>();
      for (let e = 0; e < graph.edgeCount; e++) {
        const flags = graph.edgeFlags[e]!;
        if (!(flags & EDGE_CYCLING) || flags & EDGE_DISMOUNT || !include(e)) continue;
        metres.set(trafficStressOf(flags), (metres.get(trafficStressOf(flags)) ?? 0) + graph.edgeLength[e]!);
      }
      return metres;
    };
    const everywhere = metresByStress(() => true);
    expect(everywhere.get(STRESS_UNKNOWN) ?? 0).toBe(0);
    // Most of London's streets carry a 20 mph limit: most rideable metres are LTS 1 or 2.
    expect(share(everywhere, [1, 2])).toBeGreaterThan(0.7);
    expect(share(metresByStress(named('Euston Road')), [3, 4])).toBeGreaterThan(0.8);
    expect(share(metresByStress(onRoute('Cycleway 6')), [1])).toBeGreaterThan(0.4);
    expect(share(metresByStress(onRoute('Cycleway 6')), [1, 2])).toBeGreaterThan(0.9);
  });

  it('rates Bloomsbury\'s shared paths as shared, not cycleway', () => {
    expect(share(metresByClass(() => true), [SAFETY_SHARED])).toBeGreaterThan(0);
  });

  it('has a high lit share, turn restrictions, signals and no warnings about most tags', () => {
    expect(report.statistics.litShare).toBeGreaterThan(0.6);
    expect(report.restrictions.sequences).toBeGreaterThan(50);
    expect(report.statistics.approachesWith.traffic_signal).toBeGreaterThan(500);
    expect(report.components.cycling.kept.length).toBeGreaterThanOrEqual(2); // Bloomsbury and outer North London
  });

  it('finds Gower Street through the spatial grid near a Gower Street coordinate', () => {
    const { min_lon_e7: minLon, min_lat_e7: minLat, cell_lon_e7: cellLon, cell_lat_e7: cellLat, cols } = graph.header.grid;
    const col = Math.floor((-0.1325 * 1e7 - minLon) / cellLon);
    const row = Math.floor((51.5225 * 1e7 - minLat) / cellLat);
    const names = new Set<string>();
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = col - 1; c <= col + 1; c++) {
        const cell = r * cols + c;
        for (let i = graph.gridFirst[cell]!; i < graph.gridFirst[cell + 1]!; i++) names.add(graph.string(graph.segmentName[graph.gridSegments[i]!]!));
      }
    }
    expect(names).toContain('Gower Street');
  });

  it('embeds the 33 London boroughs for parking rules', () => {
    expect(graph.areaName).toHaveLength(33);
    const camden = [...graph.areaName.keys()].find((a) => graph.string(graph.areaName[a]!) === 'london_borough:Camden')!;
    const rings: [number, number][][] = [];
    for (let r = graph.areaFirstRing[camden]!; r < graph.areaFirstRing[camden + 1]!; r++) {
      const ring: [number, number][] = [];
      for (let p = graph.ringFirstPoint[r]!; p < graph.ringFirstPoint[r + 1]!; p++) ring.push([graph.areaCoords[2 * p]! / 1e7, graph.areaCoords[2 * p + 1]! / 1e7]);
      rings.push(ring);
    }
    expect(rings.some((ring) => pointInRing([-0.13, 51.522], ring))).toBe(true); // Bloomsbury is in Camden
  });
});
