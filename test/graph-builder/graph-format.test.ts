import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { GRAPH_FORMAT_VERSION, openGraph, readGraphHeader, sectionNames } from '../../core/graph/layout.ts';
import { currentPointerKey, graphKey } from '../../core/graph/catalog.ts';
import { haversineMetresE7 } from '../../core/geo.ts';
import { localMinutes, minuteOfWeek } from '../../core/local-time.ts';
import { buildFixture, type BuiltFixture } from './helpers.ts';
import { HIERARCHY_METRICS, storedHierarchies } from '../../core/routing/search/hierarchy.ts';

let built: BuiltFixture;
let bytes: Uint8Array;

beforeAll(async () => {
  built = await buildFixture(['restrictions.osm']);
  bytes = new Uint8Array(await readFile(built.graphPath));
});

describe('graph file', () => {
  it('has a header with version, hashes, counts and 8-byte aligned sections', () => {
    const header = readGraphHeader(bytes);
    expect(header).toMatchObject({ format_version: GRAPH_FORMAT_VERSION, city: 'london', time_zone: 'Europe/London', lighting_data: true, builder_version: expect.any(String) });
    expect(header.graph_version).toMatch(/^london-20261120T120000-[0-9a-f]{8}$/);
    expect(header.graph_version.endsWith(header.source_hash.slice(0, 8))).toBe(true);
    expect(header.sources).toEqual([{ name: 'osm/restrictions.osm', bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    for (const name of sectionNames) expect(header.sections[name].offset % 8, name).toBe(0);
    expect(header.counts.nodes).toBe(built.graph.nodeCount);
  });

  it('stores a contraction hierarchy per metric, each part where the header says, read back as views', () => {
    const graph = openGraph(bytes);
    const { metrics } = graph.header.hierarchies;
    expect(metrics.map((metric) => metric.name)).toEqual(HIERARCHY_METRICS);
    const rows = graph.nodeCount + 1;
    expect(graph.hierarchyUpFirst).toHaveLength(metrics.length * rows);
    expect(graph.hierarchyUpHead).toHaveLength(metrics.reduce((sum, metric) => sum + metric.up_arcs, 0));
    expect(graph.hierarchyDownWeight).toHaveLength(metrics.reduce((sum, metric) => sum + metric.down_arcs, 0));
    const stored = storedHierarchies(graph);
    for (const { name, up_arcs: upArcs, down_arcs: downArcs } of metrics) {
      const arcs = stored[name as (typeof HIERARCHY_METRICS)[number]]!;
      expect(arcs.upFirst[graph.nodeCount], name).toBe(upArcs);
      expect(arcs.downFirst[graph.nodeCount], name).toBe(downArcs);
      expect(upArcs, name).toBeGreaterThan(0);
      expect(arcs.upHead.buffer).toBe(bytes.buffer);
      // Costs, never negative (the potential's climb is a Dijkstra).
      for (const weight of [...arcs.upWeight, ...arcs.downWeight]) expect(weight).toBeGreaterThanOrEqual(0);
    }
  });

  it('opens as zero-copy views on the bytes', () => {
    const graph = openGraph(bytes);
    expect(graph.edgeHead.buffer).toBe(bytes.buffer);
    expect(graph.firstOut).toHaveLength(graph.nodeCount + 1);
    expect(graph.firstOut[graph.nodeCount]).toBe(graph.edgeCount);
    // Reverse adjacency lists every edge once, grouped by head.
    expect([...graph.inEdges].sort((a, b) => a - b)).toEqual([...Array(graph.edgeCount).keys()]);
    for (let v = 0; v < graph.nodeCount; v++) {
      for (let i = graph.firstIn[v]!; i < graph.firstIn[v + 1]!; i++) expect(graph.edgeHead[graph.inEdges[i]!]).toBe(v);
    }
    expect(graph.string(graph.segmentName[graph.edgeSegment[0]!]!)).toEqual(expect.any(String));
  });

  it('copies once when the bytes are not 8-byte aligned', () => {
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const graph = openGraph(shifted.subarray(1));
    expect(graph.edgeCount).toBe(built.graph.edgeCount);
    expect([...graph.edgeFlags]).toEqual([...built.graph.edgeFlags]);
  });

  it('rejects other files and truncated graphs with a clear error', () => {
    expect(() => openGraph(new TextEncoder().encode('definitely not a graph'))).toThrow(/bad magic/);
    expect(() => openGraph(bytes.subarray(0, bytes.length - 64))).toThrow(/truncated in section/);
  });

  it('stores each edge length as the great-circle length of its segment geometry in 1e-7 degrees', () => {
    const graph = built.graph;
    for (let e = 0; e < graph.edgeCount; e++) {
      const s = graph.edgeSegment[e]!;
      let metres = 0;
      for (let p = graph.segmentFirstPoint[s]! + 1; p < graph.segmentFirstPoint[s + 1]!; p++) {
        metres += haversineMetresE7(graph.pointCoords[2 * p - 2]!, graph.pointCoords[2 * p - 1]!, graph.pointCoords[2 * p]!, graph.pointCoords[2 * p + 1]!);
      }
      expect(graph.edgeLength[e], `edge ${e}`).toBe(Math.fround(metres));
    }
  });

  it('names objects in the S3 layout', () => {
    expect(graphKey('london', 'london-20261121T030000-1a2b3c4d')).toBe('cities/london/graphs/london-20261121T030000-1a2b3c4d.graph');
    expect(currentPointerKey('sf-bay')).toBe('cities/sf-bay/current.json');
  });
});

describe('build report', () => {
  it('times every stage of the build once, in build order, within the build time', () => {
    const stages = built.report.stages;
    expect(stages.map((stage) => stage.name)).toEqual([
      'hash-inputs', 'read', 'clip', 'graph-nodes', 'plan-ways', 'edges', 'pavements', 'restrictions', 'junction-control',
      'connectivity', 'renumber', 'restriction-table', 'elevation', 'segments', 'sections', 'open-core', 'cost-tables', 'landmarks', 'hierarchy', 'write', 'statistics',
    ]);
    for (const stage of stages) expect(stage.seconds, stage.name).toBeGreaterThanOrEqual(0);
    const total = stages.reduce((sum, stage) => sum + stage.seconds, 0);
    expect(total).toBeLessThanOrEqual(built.report.build_seconds + 0.01);
  });
});

describe('local time helpers', () => {
  it('count minutes of the week from Monday 00:00', () => {
    expect(minuteOfWeek(localMinutes(2026, 11, 23, 0, 0))).toBe(0); // Monday
    expect(minuteOfWeek(localMinutes(2026, 11, 22, 23, 59))).toBe(7 * 1440 - 1); // Sunday
    expect(minuteOfWeek(localMinutes(1969, 12, 29, 1, 0))).toBe(60); // before 1970, still a Monday
  });
});
