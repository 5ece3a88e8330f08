import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_CYCLING, EDGE_WALKING } from '../../core/graph/flags.ts';
import { type Graph } from '../../core/graph/layout.ts';
import { buildFixture, edgesOfWay, type BuiltFixture } from './helpers.ts';

let built: BuiltFixture;
let graph: Graph;
const flagsOf = (way: number): number[] => edgesOfWay(graph, way).map((e) => graph.edgeFlags[e]!);

beforeAll(async () => {
  built = await buildFixture(['sidewalks.osm']);
  graph = built.graph;
});

describe('carriageways with separately drawn pavements (sidewalks.osm)', () => {
  it('takes a street with a parallel footway=sidewalk out of the walking network, not the cycling one', () => {
    expect(flagsOf(1)).toHaveLength(2);
    expect(flagsOf(1).every((flags) => !(flags & EDGE_WALKING) && flags & EDGE_CYCLING)).toBe(true);
    expect(flagsOf(2).every((flags) => flags & EDGE_WALKING)).toBe(true);
  });

  it('keeps a street whose only nearby sidewalk crosses it as the walking fallback', () => {
    expect(flagsOf(4).every((flags) => flags & EDGE_WALKING)).toBe(true);
  });

  it('reports what it left out', () => {
    expect(built.report.separate_pavements).toEqual({ segments: 1, km: expect.closeTo(0.139, 2) });
  });
});
