import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSURE_DATED, CLOSURE_OUTSIDE_WINDOW, EDGE_CYCLE_ROUTE, EDGE_CYCLING, EDGE_ROADWORKS, EDGE_WALKING, SAFETY_CYCLEWAY, SAFETY_SHARED, safetyClassOf } from '../../core/graph/flags.ts';
import { isClosed } from '../../core/graph/rules.ts';
import { localMinutes } from '../../core/local-time.ts';
import { type Graph } from '../../core/graph/layout.ts';
import { buildFixture, edgesOfWay, type BuiltFixture } from './helpers.ts';

let built: BuiltFixture;
let graph: Graph;
const flagsOf = (way: number): number[] => edgesOfWay(graph, way).map((e) => graph.edgeFlags[e]!);
const closureOf = (way: number): number => graph.edgeClosure[edgesOfWay(graph, way)[0]!]! - 1;
const routeNames = (way: number): string[] => {
  const set = graph.segmentRouteSet[graph.edgeSegment[edgesOfWay(graph, way)[0]!]!]!;
  return [...graph.routeSetMembers.subarray(graph.routeSetFirst[set]!, graph.routeSetFirst[set + 1]!)].map((id) => graph.string(id));
};

beforeAll(async () => {
  built = await buildFixture(['network-attributes.osm']);
  graph = built.graph;
});

describe('route relations (network-attributes.osm)', () => {
  it('makes a quiet street on a signed route `cycleway` and names the route and its superroute', () => {
    for (const flags of flagsOf(50)) {
      expect(safetyClassOf(flags)).toBe(SAFETY_CYCLEWAY);
      expect(flags & EDGE_CYCLE_ROUTE).toBeTruthy();
    }
    expect(routeNames(50)).toEqual(['Grand Tour', 'Quietway 1']);
  });

  it('rates a cycleway on a walking route `shared`', () => {
    expect(flagsOf(51).map(safetyClassOf)).toEqual([SAFETY_SHARED, SAFETY_SHARED]);
    expect(routeNames(51)).toEqual([]);
  });
});

describe('roadworks and closures (spec 1.2.6)', () => {
  it('flags roadworks', () => {
    expect(flagsOf(52).every((flags) => flags & EDGE_ROADWORKS)).toBe(true);
  });

  it('closes a dated closure inside its dates only', () => {
    const closure = closureOf(53);
    expect(graph.closureFlags[closure]! & CLOSURE_DATED).toBeTruthy();
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 12, 10, 12, 0))).toBe(true);
    expect(isClosed(graph, closure, 'walking', localMinutes(2026, 12, 10, 12, 0))).toBe(true);
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 11, 25, 12, 0))).toBe(false);
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 12, 25, 12, 0))).toBe(false);
    expect(graph.string(graph.closureSource[closure]!)).toBe('access:conditional=no @ (2026 Dec 01-2026 Dec 24)');
  });

  it('closes a weekly bicycle closure only in its hours and only for cycling', () => {
    const closure = closureOf(54);
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 11, 22, 10, 0))).toBe(true); // Sunday
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 11, 22, 19, 0))).toBe(false);
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 11, 23, 10, 0))).toBe(false); // Monday
    expect(isClosed(graph, closure, 'walking', localMinutes(2026, 11, 22, 10, 0))).toBe(false);
  });

  it('ignores an unparseable condition with a count, never closing the way', () => {
    expect(graph.edgeClosure[edgesOfWay(graph, 55)[0]!]).toBe(0);
    expect(built.report.warnings).toContainEqual({ key: 'conditional tags with an unparseable time condition (ignored)', count: 1, examples: ['wet'] });
  });

  it('opens a closed footway only inside its `yes @` window', () => {
    const closure = closureOf(56);
    expect(graph.closureFlags[closure]! & CLOSURE_OUTSIDE_WINDOW).toBeTruthy();
    expect(isClosed(graph, closure, 'walking', localMinutes(2026, 11, 23, 12, 0))).toBe(false); // Monday noon
    expect(isClosed(graph, closure, 'walking', localMinutes(2026, 11, 21, 12, 0))).toBe(true); // Saturday
    expect(isClosed(graph, closure, 'cycling', localMinutes(2026, 11, 23, 20, 0))).toBe(true);
  });
});

describe('connectivity (spec 1.2.9)', () => {
  it('removes an island and reports it', () => {
    expect(edgesOfWay(graph, 60)).toEqual([]);
    expect(built.report.components.cycling.largestRemoved).toContainEqual(expect.objectContaining({ name: 'Island Lane' }));
    expect(built.report.components.cycling.kept).toHaveLength(1);
  });

  it('takes a one-way dead end out of the cycling network but keeps it for walking, both ways', () => {
    const flags = flagsOf(61);
    expect(flags).toHaveLength(2);
    expect(flags.every((f) => f & EDGE_WALKING && !(f & EDGE_CYCLING))).toBe(true);
  });
});
