import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CityId } from '../../core/cities/index.ts';
import { graphOutputDir } from '../../lib/local/paths.ts';
import { currentPointerKey, parseGraphPointer } from '../../core/graph/catalog.ts';
import { loadGraphBytes, type LoadedGraph } from '../../functions/graphs/graph-store.ts';
import type { RoutingNetwork } from '../../core/routing/network/network.ts';

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
