import { describe, expect, it } from 'vitest';
import { EDGE_RESTRICTION_FROM } from '../../core/graph/flags.ts';
import { hasBit } from '../../core/routing/network/bits.ts';
import { RouteOverlay } from '../../core/routing/costing/overlay.ts';
import { PenaltyOverlay } from '../../core/routing/costing/penalty-overlay.ts';
import { realGraph, seededRandom } from './real-graphs.ts';

/**
 * The bit sets the search reads in place of per-edge columns (core/routing/network/bits.ts) hold
 * exactly the edges those columns mark, on New York's real graph: every edge checked.
 */
describe('edge bit sets on the real New York graph', () => {
  const { network } = realGraph('new-york');
  const graph = network.graph;
  const members = (bits: Uint32Array) => Array.from({ length: graph.edgeCount }, (_, edge) => edge).filter((edge) => hasBit(bits, edge));

  it('holds the edges a turn restriction begins at, and those with a closure rule', () => {
    const restricting = Array.from({ length: graph.edgeCount }, (_, edge) => edge).filter((edge) => (graph.edgeFlags[edge]! & EDGE_RESTRICTION_FROM) !== 0);
    const closed = Array.from({ length: graph.edgeCount }, (_, edge) => edge).filter((edge) => graph.edgeClosure[edge] !== 0);
    expect(restricting.length).toBeGreaterThan(0);
    expect(closed.length).toBeGreaterThan(0);
    expect(members(network.restrictionEdges())).toEqual(restricting);
    expect(members(network.closureEdges())).toEqual(closed);
  });

  it("marks the edges an overlay's effects touch, and a penalty overlay those and its own", () => {
    const random = seededRandom(34);
    const picked = Array.from({ length: 200 }, () => Math.floor(random() * graph.edgeCount));
    const overlay = new RouteOverlay(graph.edgeCount);
    const source = { id: 'report:1', kind: 'closed', untilMinute: Infinity } as const;
    for (const edge of picked.slice(0, 100)) overlay.block(edge, source);
    // The last edge of each word and of the graph, where an off-by-one in the bit arithmetic would show.
    for (const edge of [31, 32, graph.edgeCount - 1]) overlay.block(edge, source);
    const blocked = [...new Set([...picked.slice(0, 100), 31, 32, graph.edgeCount - 1])].sort((a, b) => a - b);
    expect(members(overlay.marked)).toEqual(blocked);
    const penalties = new PenaltyOverlay(graph.edgeCount, overlay);
    for (const edge of picked.slice(100)) penalties.penalize(edge, 2);
    expect(members(penalties.marked)).toEqual([...new Set([...blocked, ...picked.slice(100)])].sort((a, b) => a - b));
    expect(members(overlay.marked)).toEqual(blocked);
  });
});
