import { describe, expect, it } from 'vitest';
import { LocalProjection } from '../../core/geo.ts';
import type { CityId } from '../../core/cities/index.ts';
import {
  EDGE_CYCLE_ROUTE,
  EDGE_CYCLING,
  EDGE_DISMOUNT,
  EDGE_WALKING,
  LIT_ASSUMED,
  LIT_NO,
  LIT_YES,
  NODE_CROSSING_SIGNALS,
  NODE_TRAFFIC_SIGNALS,
  SAFETY_CLASSES,
  litOf,
} from '../../core/graph/flags.ts';
import { COORDINATE_SCALE, openGraph, type Graph } from '../../core/graph/layout.ts';
import {
  baseMapOf,
  busiestSquare,
  OPENING_VIEW_METRES,
  OPENING_VIEW_STEP_METRES,
  simplifyLine,
  SIMPLIFY_TOLERANCE_METRES,
} from '../../lib/local/playground/base-map.ts';
import { sampleRoutes } from '../../lib/local/playground/samples.ts';
import { decodedLines, distanceToLineMetres } from '../support/base-map-coverage.ts';
import { realGraphBytes } from '../routing/real-graphs.ts';

/**
 * The playground's base map against the graph it is drawn from (London's real graph): one feature
 * per segment either profile uses, rated as the router rates it, and its line within the
 * simplification tolerance of every point of the original geometry.
 */

const graph = openGraph(realGraphBytes('london'));
const map = baseMapOf(graph);

/** The segments a route can use, in graph order, with the flags of their cycling edge, else walking edge. */
function usableSegments(source: Graph) {
  const segments: { segment: number; flags: number; cycling: boolean }[] = [];
  for (let segment = 0; segment < source.segmentCount; segment++) {
    const flags = [source.segmentForwardEdge[segment]!, source.segmentBackwardEdge[segment]!].filter((edge) => edge >= 0).map((edge) => source.edgeFlags[edge]!);
    const cycling = flags.find((value) => value & EDGE_CYCLING);
    const walking = flags.find((value) => value & EDGE_WALKING);
    if (cycling !== undefined) segments.push({ segment, flags: cycling, cycling: true });
    else if (walking !== undefined) segments.push({ segment, flags: walking, cycling: false });
  }
  return segments;
}

describe('the playground base map', () => {
  it('has one feature per usable segment, rated, lit and named as the graph says', () => {
    const usable = usableSegments(graph);
    expect(map.segments.count).toBe(usable.length);
    expect(map.graph_version).toBe(graph.header.graph_version);
    const counts = new Map<string, number>();
    usable.forEach(({ segment, flags, cycling }, feature) => {
      const kind = !cycling ? 'foot' : flags & EDGE_DISMOUNT ? 'push' : SAFETY_CLASSES[flags & 0b111]!;
      expect(map.kinds[map.segments.kind[feature]!], `segment ${segment}`).toBe(kind);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      const bits = map.segments.flags[feature]!;
      const lit = litOf(flags);
      expect(Boolean(bits & map.flag_bits.lit)).toBe(lit === LIT_YES || lit === LIT_ASSUMED);
      expect(Boolean(bits & map.flag_bits.lit_assumed)).toBe(lit === LIT_ASSUMED);
      expect(Boolean(bits & map.flag_bits.unlit)).toBe(lit === LIT_NO);
      expect(Boolean(bits & map.flag_bits.cycle_route)).toBe(Boolean(flags & EDGE_CYCLE_ROUTE));
      const nameId = graph.segmentName[segment]! || graph.segmentRef[segment]!;
      expect(map.names[map.segments.name[feature]!]).toBe(nameId ? graph.string(nameId) : '');
    });
    // London's graph has every kind, and lighting data: lit and unlit streets are both drawn.
    expect([...counts.keys()].sort()).toEqual(['busy', 'cycleway', 'foot', 'moderate', 'push', 'quiet', 'shared']);
    expect(map.segments.flags.some((bits) => bits & map.flag_bits.unlit)).toBe(true);
    expect(map.segments.flags.some((bits) => bits & map.flag_bits.lit)).toBe(true);
  });

  it('draws each segment from end node to end node, within the tolerance of every original point', () => {
    const usable = usableSegments(graph);
    const lines = decodedLines(map);
    const projection = new LocalProjection(51.5);
    // Simplification plus rounding to millionths of a degree (at most 0.08 m each way here).
    const tolerance = SIMPLIFY_TOLERANCE_METRES + 0.12;
    let original = 0;
    let kept = 0;
    usable.forEach(({ segment }, feature) => {
      const line = lines[feature]!;
      const points: [number, number][] = [];
      for (let point = graph.segmentFirstPoint[segment]!; point < graph.segmentFirstPoint[segment + 1]!; point++) {
        points.push([graph.pointCoords[2 * point]! / COORDINATE_SCALE, graph.pointCoords[2 * point + 1]! / COORDINATE_SCALE]);
      }
      for (const end of [0, -1]) {
        const [lon, lat] = points.at(end)!;
        const [drawnLon, drawnLat] = line.at(end)!;
        expect(Math.abs(drawnLon - lon)).toBeLessThanOrEqual(0.5e-6 + 1e-12);
        expect(Math.abs(drawnLat - lat)).toBeLessThanOrEqual(0.5e-6 + 1e-12);
      }
      for (const point of points) expect(distanceToLineMetres(projection, point, line)).toBeLessThanOrEqual(tolerance);
      original += points.length;
      kept += line.length;
    });
    // It does simplify: mapped ways carry many points on straight stretches.
    expect(kept).toBeLessThan(original);
  });

  it('simplifies a line: ends always kept, points off the line kept, points on it dropped', () => {
    expect(simplifyLine([0, 1], [0, 0], 0.5)).toEqual([0, 1]);
    // A straight run with a 0.2 m wobble, then a corner.
    expect(simplifyLine([0, 10, 20, 30, 30], [0, 0.2, 0, 0, 10], 0.5)).toEqual([0, 3, 4]);
    expect(simplifyLine([0, 10, 20], [0, 0.6, 0], 0.5)).toEqual([0, 1, 2]);
    // A loop back to its start keeps its far point.
    expect(simplifyLine([0, 10, 0], [0, 0, 0], 0.5)).toEqual([0, 1, 2]);
  });
});

/** The graph's signal-controlled nodes (traffic signals, signal crossings), [lon, lat]. */
function signalNodes(source: Graph): [number, number][] {
  const nodes: [number, number][] = [];
  for (let node = 0; node < source.nodeCount; node++) {
    if (source.nodeFlags[node]! & (NODE_TRAFFIC_SIGNALS | NODE_CROSSING_SIGNALS)) {
      nodes.push([source.nodeCoords[2 * node]! / COORDINATE_SCALE, source.nodeCoords[2 * node + 1]! / COORDINATE_SCALE]);
    }
  }
  return nodes;
}

const inside = ([lon, lat]: [number, number], [west, south, east, north]: readonly number[]) => lon >= west! && lon < east! && lat >= south! && lat < north!;

describe("the playground's opening view", () => {
  it.each(['london', 'new-york', 'los-angeles', 'sf-bay'] as CityId[])('%s: a square of the extract with as many signal-controlled junctions as any square of the grid, counted one by one', (city) => {
    const source = city === 'london' ? graph : openGraph(realGraphBytes(city));
    const view = busiestSquare(source);
    const [minLon, minLat, maxLon, maxLat] = source.header.bbox;
    const [west, south, east, north] = view;
    expect(west).toBeGreaterThanOrEqual(minLon);
    expect(south).toBeGreaterThanOrEqual(minLat);
    expect(east).toBeLessThanOrEqual(maxLon);
    expect(north).toBeLessThanOrEqual(maxLat);
    const projection = new LocalProjection((minLat + maxLat) / 2);
    const side = (from: number, to: number, project: (value: number) => number) => project(to) - project(from);
    // The square's side, or the extract's where the extract is smaller.
    const width = Math.min(OPENING_VIEW_METRES, Math.ceil(side(minLon, maxLon, (lon) => projection.x(lon)) / OPENING_VIEW_STEP_METRES) * OPENING_VIEW_STEP_METRES);
    const height = Math.min(OPENING_VIEW_METRES, Math.ceil(side(minLat, maxLat, (lat) => projection.y(lat)) / OPENING_VIEW_STEP_METRES) * OPENING_VIEW_STEP_METRES);
    expect(side(west, east, (lon) => projection.x(lon))).toBeLessThanOrEqual(width + 1e-6);
    expect(side(south, north, (lat) => projection.y(lat))).toBeLessThanOrEqual(height + 1e-6);

    // Every square the grid allows, its signals counted by brute force.
    const signals = signalNodes(source);
    const count = (square: readonly number[]) => signals.filter((node) => inside(node, square)).length;
    const stepLon = OPENING_VIEW_STEP_METRES / projection.metresPerDegreeLon;
    const stepLat = OPENING_VIEW_STEP_METRES / projection.metresPerDegreeLat;
    let most = 0;
    for (let south = minLat; south + height / projection.metresPerDegreeLat <= maxLat + stepLat; south += stepLat) {
      for (let west = minLon; west + width / projection.metresPerDegreeLon <= maxLon + stepLon; west += stepLon) {
        most = Math.max(most, count([west, south, west + width / projection.metresPerDegreeLon, south + height / projection.metresPerDegreeLat]));
      }
    }
    expect(count(view)).toBe(most);
  });

  it("opens London on its centre, where the README's sample route is, not on the outer North London suburbs its largest extract covers", () => {
    const view = busiestSquare(graph);
    for (const point of sampleRoutes.london) expect(inside(point as [number, number], view)).toBe(true);
    expect(view[3]).toBeLessThan(51.55);
    expect(map.opening_view).toEqual(view);
  });
});
