import { describe, expect, it } from 'vitest';
import { ContractionStopped, contractGraph, type WeightedArcs } from '../../core/routing/search/contraction.ts';
import { HierarchyPotential, PotentialBuffers } from '../../core/routing/search/hierarchy.ts';
import { seededRandom } from './real-graphs.ts';

/** Compressed rows of the arcs [tail, head, weight], in the order given per tail. */
function arcRows(nodeCount: number, arcs: readonly (readonly [number, number, number])[]): WeightedArcs {
  const byTail = [...arcs].sort((a, b) => a[0] - b[0]);
  const first = new Uint32Array(nodeCount + 1);
  for (const [tail] of byTail) first[tail + 1]!++;
  for (let node = 0; node < nodeCount; node++) first[node + 1]! += first[node]!;
  return {
    first,
    head: Uint32Array.from(byTail, ([, head]) => head),
    weight: Float64Array.from(byTail, ([, , weight]) => weight),
  };
}

/** Least costs between all pairs (Floyd and Warshall): [from * nodeCount + to]. */
function allPairs(nodeCount: number, arcs: readonly (readonly [number, number, number])[]): Float64Array {
  const cost = new Float64Array(nodeCount * nodeCount).fill(Infinity);
  for (let node = 0; node < nodeCount; node++) cost[node * nodeCount + node] = 0;
  for (const [tail, head, weight] of arcs) cost[tail * nodeCount + head] = Math.min(cost[tail * nodeCount + head]!, weight);
  for (let via = 0; via < nodeCount; via++) {
    for (let from = 0; from < nodeCount; from++) {
      for (let to = 0; to < nodeCount; to++) {
        const through = cost[from * nodeCount + via]! + cost[via * nodeCount + to]!;
        if (through < cost[from * nodeCount + to]!) cost[from * nodeCount + to] = through;
      }
    }
  }
  return cost;
}

/** Random arcs with whole weights 1 to 100, some repeated (the dearer copy is dropped), loops and unusable ones among them. */
function randomArcs(nodeCount: number, arcCount: number, seed: number): [number, number, number][] {
  const random = seededRandom(seed);
  const pick = (): number => Math.floor(random() * nodeCount);
  const arcs: [number, number, number][] = [];
  for (let i = 0; i < arcCount; i++) arcs.push([pick(), pick(), random() < 0.02 ? Infinity : 1 + Math.floor(random() * 100)]);
  return arcs;
}

/** Checks the hierarchy's least cost from every node to every target against Floyd and Warshall's. */
function expectExact(nodeCount: number, arcs: [number, number, number][]): void {
  const hierarchy = contractGraph(arcRows(nodeCount, arcs));
  const exact = allPairs(nodeCount, arcs);
  const buffers = new PotentialBuffers(nodeCount);
  for (let target = 0; target < nodeCount; target++) {
    const potential = new HierarchyPotential(hierarchy, buffers, [{ node: target, cost: 0 }]);
    for (let from = 0; from < nodeCount; from++) {
      const want = exact[from * nodeCount + target]!;
      const got = potential.at(from);
      if (want === Infinity) {
        expect(got, `${from}→${target}`).toBe(Infinity);
      } else {
        // Stored weights are rounded down to single precision: never above, and only just below.
        expect(got, `${from}→${target}`).toBeLessThanOrEqual(want);
        expect(want - got, `${from}→${target}`).toBeLessThanOrEqual(want * 1e-5);
      }
    }
  }
}

describe('contraction', () => {
  // The shortcuts of both graphs outgrow the room the arc lists start with (half as much again
  // as the graph's arcs, 1,024 at least), so the lists are moved, packed and moved to bigger storage.
  it('answers every least cost of a sparse random graph exactly', () => {
    expectExact(300, randomArcs(300, 900, 7));
  });

  it('answers every least cost of a denser random graph exactly', () => {
    expectExact(400, randomArcs(400, 1600, 3));
  });

  it('stops when told, asking now and then rather than at every node', () => {
    const arcs = arcRows(3000, randomArcs(3000, 9000, 11));
    expect(() => contractGraph(arcs, () => true)).toThrow(ContractionStopped);
    let asked = 0;
    // Told to stop at the third question: the nodes were ranked (three questions for 3,000), and it is still contracting.
    expect(() => contractGraph(arcs, () => ++asked > 3)).toThrow(ContractionStopped);
    expect(asked).toBe(4);
    let askedToTheEnd = 0;
    contractGraph(arcs, () => {
      askedToTheEnd++;
      return false;
    });
    expect(askedToTheEnd).toBeGreaterThan(3);
    expect(askedToTheEnd).toBeLessThanOrEqual(2 * Math.ceil(3000 / 1024));
  });

  it('keeps every node of a graph without arcs, each with no arcs up or down', () => {
    const hierarchy = contractGraph(arcRows(3, []));
    expect([...hierarchy.upFirst]).toEqual([0, 0, 0, 0]);
    expect([...hierarchy.downFirst]).toEqual([0, 0, 0, 0]);
  });
});
