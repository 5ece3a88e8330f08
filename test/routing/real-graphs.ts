import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import { graphOutputDir } from '../../lib/local/paths.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { loadGraphBytes, type LoadedGraph } from '../../functions/graphs/graph-store.ts';
import type { Costing } from '../../core/routing/costing/costing.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import type { SearchWorkspace } from '../../core/routing/search/workspace.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import { expect } from 'vitest';

/** The bytes of a real city graph the test run built (test/support/graphs-setup.ts). */
export function realGraphBytes(city: CityId): Uint8Array {
  const directory = graphOutputDir();
  const pointer = parseGraphPointer(readFileSync(join(directory, currentPointerKey(city)), 'utf8'));
  return readFileSync(join(directory, pointer.key));
}

/** A real city graph, loaded in process. */
export function realGraph(city: CityId): LoadedGraph {
  return loadGraphBytes(city, realGraphBytes(city));
}

/** A small deterministic generator, so a failing random case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The location of a random node of the graph: always on the network, even in sparse extracts. */
export function randomNodeLocation(network: RoutingNetwork, random: () => number): [number, number] {
  const node = Math.floor(random() * network.graph.nodeCount);
  return [network.nodeLon(node), network.nodeLat(node)];
}

/**
 * The same `pairs` random routes searched with two workspaces (two bounds): each pair is routed by
 * both or by neither, at the same cost; answers the states each settled in all. `costingFor` gives
 * the pair's costing by its number.
 */
export function settledSideBySide(
  network: RoutingNetwork,
  costingFor: (pair: number) => Costing,
  [first, second]: readonly [SearchWorkspace, SearchWorkspace],
  random: () => number,
  pairs: number,
): [number, number] {
  const settled: [number, number] = [0, 0];
  let compared = 0;
  for (let attempt = 0; compared < pairs && attempt < pairs * 10; attempt++) {
    const costing = costingFor(compared);
    const usable = (edge: number) => costing.usable(edge);
    const from = snap(network, usable, randomNodeLocation(network, random));
    const to = snap(network, usable, randomNodeLocation(network, random));
    if (!from || !to) continue;
    const sources = positionsAt(network, usable, from);
    const targets = positionsAt(network, usable, to);
    const stats = [{ settled: 0 }, { settled: 0 }] as const;
    const a = findRoute(costing, first, sources, targets, to.location, stats[0]);
    const b = findRoute(costing, second, sources, targets, to.location, stats[1]);
    // A node behind a closed gate has no route either way.
    expect(a === null).toBe(b === null);
    if (!a || !b) continue;
    expect(a.cost).toBeCloseTo(b.cost, 6);
    settled[0] += stats[0].settled;
    settled[1] += stats[1].settled;
    compared++;
  }
  expect(compared).toBe(pairs);
  return settled;
}
