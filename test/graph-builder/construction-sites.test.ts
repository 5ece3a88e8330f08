import { describe, expect, it } from 'vitest';
import { EDGE_CYCLING, EDGE_ROADWORKS, EDGE_WALKING } from '../../core/graph/flags.ts';
import { realGraph } from '../routing/real-graphs.ts';
import { edgesOfWay } from './helpers.ts';

/** Ways under construction in the real extracts: building sites closed to walkers, roadworks to riders (spec 1.2.6). */
describe('a way under construction in a real city', () => {
  it("keeps San Francisco's 4th Street site (way 142845121, highway=construction) out of the walking network and in the cycling one as roadworks", () => {
    const graph = realGraph('sf-bay').network.graph;
    const edges = edgesOfWay(graph, 142845121);
    expect(edges.length).toBeGreaterThan(0);
    for (const edge of edges) {
      const flags = graph.edgeFlags[edge]!;
      expect(flags & EDGE_WALKING, `edge ${edge}`).toBe(0);
      expect(flags & EDGE_CYCLING, `edge ${edge}`).not.toBe(0);
      expect(flags & EDGE_ROADWORKS, `edge ${edge}`).not.toBe(0);
    }
  });
});
