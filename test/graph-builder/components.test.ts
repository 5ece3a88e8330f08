import { describe, expect, it } from 'vitest';
import { selectComponents, stronglyConnectedComponents } from '../../graph-builder/stages/connectivity/components.ts';

/** A CSR graph from an edge list (edges must be sorted by tail). */
function csr(nodeCount: number, edges: [number, number][]): { nodeCount: number; firstOut: Uint32Array; edgeHead: Uint32Array; edgeTail: Uint32Array } {
  const firstOut = new Uint32Array(nodeCount + 1);
  for (const [tail] of edges) firstOut[tail + 1]!++;
  for (let v = 0; v < nodeCount; v++) firstOut[v + 1]! += firstOut[v]!;
  return { nodeCount, firstOut, edgeHead: Uint32Array.from(edges.map(([, head]) => head)), edgeTail: Uint32Array.from(edges.map(([tail]) => tail)) };
}

describe('strongly connected components', () => {
  it('finds cycles and leaves one-way spurs as singletons', () => {
    // 0 <-> 1 <-> 2 (two-way), 2 -> 3 (one-way spur), 4 <-> 5 (an island)
    const graph = csr(6, [[0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [4, 5], [5, 4]]);
    const { component, count } = stronglyConnectedComponents(graph, () => true);
    expect(count).toBe(3);
    expect(component[0]).toBe(component[1]);
    expect(component[1]).toBe(component[2]);
    expect(component[3]).not.toBe(component[2]);
    expect(component[4]).toBe(component[5]);
  });

  it('respects the edge filter (a mode\'s edges only)', () => {
    const graph = csr(2, [[0, 1], [1, 0]]);
    expect(stronglyConnectedComponents(graph, (e) => e === 0).count).toBe(2);
  });

  it('handles long chains without recursion', () => {
    const n = 200_000;
    const edges: [number, number][] = [];
    for (let v = 0; v < n; v++) {
      if (v > 0) edges.push([v, v - 1]);
      if (v < n - 1) edges.push([v, v + 1]);
    }
    expect(stronglyConnectedComponents(csr(n, edges), () => true).count).toBe(1);
  });

  it('keeps the main component of each source extract and drops the rest', () => {
    // Extract 0: 0<->1<->2 and a stray 3<->4; extract 1: 5<->6.
    const graph = csr(7, [[0, 1], [1, 0], [1, 2], [2, 1], [3, 4], [4, 3], [5, 6], [6, 5]]);
    const components = stronglyConnectedComponents(graph, () => true);
    const selection = selectComponents(graph, components, () => true, (e) => (e < 6 ? 0 : 1), 2);
    expect(selection.keep[components.component[0]!]).toBe(1);
    expect(selection.keep[components.component[3]!]).toBe(0);
    expect(selection.keep[components.component[5]!]).toBe(1);
  });
});
