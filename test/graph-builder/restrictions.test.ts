import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_RESTRICTION_FROM, RESTRICTION_BICYCLE_SPECIFIC, RESTRICTION_FROM_ONLY, RESTRICTION_SAME_CYCLEWAY, RESTRICTION_VIA_WAY } from '../../core/graph/flags.ts';
import { isWindowActive, restrictionsFrom } from '../../core/graph/rules.ts';
import { localMinutes } from '../../core/local-time.ts';
import { type Graph } from '../../core/graph/layout.ts';
import { parseRestriction } from '../../graph-builder/stages/restrictions/relations.ts';
import { Warnings } from '../../graph-builder/warnings.ts';
import { buildFixture, edgeFrom, type BuiltFixture } from './helpers.ts';

// Node coordinates of test/fixtures/osm/restrictions.osm.
const J = [-0.1, 51.5] as const;
const N = [-0.1, 51.501] as const;
const K = [-0.0984, 51.5] as const;
const S = [-0.1, 51.499] as const;
const W = [-0.1016, 51.5] as const;
const K_NORTH = [-0.0984, 51.501] as const;
const K_EAST = [-0.0968, 51.5] as const;
const BEND = [-0.1016, 51.501] as const;

let built: BuiltFixture;
let graph: Graph;
const edge = (way: number, from: readonly [number, number]): number => edgeFrom(graph, way, from[0], from[1]);

/** The restriction sequences starting with `from`, as edge lists with flags and window. */
function sequencesFrom(from: number): { edges: number[]; flags: number; window: number }[] {
  const [start, end] = restrictionsFrom(graph, from);
  const list = [];
  for (let t = start; t < end; t++) {
    list.push({
      edges: [...graph.restrictionEdges.subarray(graph.restrictionFirst[t]!, graph.restrictionFirst[t + 1]!)],
      flags: graph.restrictionFlags[t]!,
      window: graph.restrictionWindow[t]!,
    });
  }
  return list;
}

beforeAll(async () => {
  built = await buildFixture(['restrictions.osm']);
  graph = built.graph;
});

describe('turn restrictions from restrictions.osm', () => {
  it('stores a via-node no_* restriction as a forbidden (from, to) pair, flagged on the from edge', () => {
    const from = edge(13, W);
    expect(sequencesFrom(from)).toContainEqual({ edges: [from, edge(10, J)], flags: 0, window: 0 });
    expect(graph.edgeFlags[from]! & EDGE_RESTRICTION_FROM).toBeTruthy();
  });

  it('turns only_straight_on into prohibitions of every other exit, u-turn included', () => {
    const from = edge(12, S);
    const forbidden = sequencesFrom(from).map((r) => r.edges[1]);
    expect(forbidden.sort()).toEqual([edge(11, J), edge(13, J), edge(12, J)].sort());
    expect(sequencesFrom(from).every((r) => r.flags & RESTRICTION_FROM_ONLY)).toBe(true);
    expect(forbidden).not.toContain(edge(10, J));
  });

  it('does not apply restrictions with except=bicycle or for other vehicles only', () => {
    expect(sequencesFrom(edge(10, N)).map((r) => r.edges[1])).not.toContain(edge(13, J));
    expect(sequencesFrom(edge(10, N)).map((r) => r.edges[1])).not.toContain(edge(11, J));
    const warnings = built.report.warnings.map((w) => w.key);
    expect(warnings).toContain('restrictions with except=bicycle (not applied to bicycles)');
    expect(warnings).toContain('restrictions for other vehicles only (not applied to bicycles)');
  });

  it('applies restriction:bicycle and marks it bicycle-specific', () => {
    const from = edge(11, J);
    expect(sequencesFrom(from)).toContainEqual({ edges: [from, edge(11, K)], flags: RESTRICTION_BICYCLE_SPECIFIC, window: 0 });
  });

  it('keeps the window of a conditional restriction', () => {
    const from = edge(15, K_EAST);
    const [restriction] = sequencesFrom(from);
    expect(restriction?.edges).toEqual([from, edge(14, K)]);
    const window = restriction!.window - 1;
    expect(graph.string(graph.windowSource[window]!)).toBe('Mo-Fr 07:00-10:00');
    expect(isWindowActive(graph, window, localMinutes(2026, 11, 23, 8, 30))).toBe(true); // a Monday
    expect(isWindowActive(graph, window, localMinutes(2026, 11, 22, 8, 30))).toBe(false); // a Sunday
  });

  it('reads the old day_on/hour_on tagging as a window', () => {
    const from = edge(14, K_NORTH);
    const [restriction] = sequencesFrom(from);
    expect(graph.string(graph.windowSource[restriction!.window - 1]!)).toBe('Mo-Fr 07:00-09:00');
  });

  it('resolves a via-way restriction to the whole edge sequence', () => {
    const from = edge(13, W);
    expect(sequencesFrom(from)).toContainEqual({ edges: [from, edge(11, J), edge(15, K)], flags: RESTRICTION_VIA_WAY, window: 0 });
  });

  it('ignores a restriction whose condition is not a time (length > 10), with a count', () => {
    expect(sequencesFrom(edge(10, N)).map((r) => r.edges[1])).not.toContain(edge(12, J));
    expect(built.report.warnings.find((w) => w.key === 'restrictions with an unparseable time condition (ignored)')?.count).toBe(1);
    expect(built.report.restrictions.skipped['unparseable condition']).toBe(1);
  });

  it('records the exemption when both approaches are on the same cycleway (spec 1.2.4)', () => {
    const from = edge(20, W);
    expect(sequencesFrom(from)).toEqual([{ edges: [from, edge(21, BEND)], flags: RESTRICTION_SAME_CYCLEWAY, window: 0 }]);
  });

  it('keeps a U-turn across a dual carriageway with cycle tracks: a track is part of its road (spec 1.2.4)', async () => {
    const uTurn = await buildFixture(['u-turn-cycle-tracks.osm']);
    const g = uTurn.graph;
    const from = edgeFrom(g, 30, -0.2, 51.51);
    const [start, end] = restrictionsFrom(g, from);
    const stored = [];
    for (let t = start; t < end; t++) stored.push({ edges: [...g.restrictionEdges.subarray(g.restrictionFirst[t]!, g.restrictionFirst[t + 1]!)], flags: g.restrictionFlags[t]! });
    expect(stored).toEqual([{ edges: [from, edgeFrom(g, 31, -0.199, 51.51), edgeFrom(g, 32, -0.199, 51.5099)], flags: RESTRICTION_VIA_WAY }]);
    expect(uTurn.report.restrictions.sameCyclewayExempt).toBe(0);
  });

  it('reports what it applied', () => {
    expect(built.report.restrictions).toMatchObject({ relations: 8, applied: 7, conditional: 2, bicycleSpecific: 1, viaWay: 1, sameCyclewayExempt: 1 });
  });
});

describe('parseRestriction', () => {
  const members = [
    { type: 'way' as const, ref: 1, role: 'from' },
    { type: 'node' as const, ref: 5, role: 'via' },
    { type: 'way' as const, ref: 2, role: 'to' },
  ];

  it('prefers restriction:bicycle over the general restriction', () => {
    const spec = parseRestriction(1, { type: 'restriction', restriction: 'no_left_turn', 'restriction:bicycle': 'no_right_turn' }, members, new Warnings());
    expect(spec).toMatchObject({ value: 'no_right_turn', bicycleSpecific: true, kind: 'no', via: { type: 'node', id: 5 } });
  });

  it('rejects unknown values and invalid members with a count', () => {
    const warnings = new Warnings();
    expect(parseRestriction(1, { type: 'restriction', restriction: 'no_parking' }, members, warnings)).toBeNull();
    expect(parseRestriction(2, { type: 'restriction', restriction: 'no_left_turn' }, members.slice(0, 2), warnings)).toBeNull();
    expect(warnings.get('restrictions with unknown restriction value (ignored)')).toBe(1);
    expect(warnings.get('restrictions with invalid members (ignored)')).toBe(1);
  });
});
