import { EDGE_CONTRAFLOW, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_WALKING } from '../../core/graph/flags.ts';
import { selectComponents, stronglyConnectedComponents, type CsrGraph } from './connectivity/components.ts';
import type { Csr, EdgeArrays } from './edge-arrays.ts';
import type { GraphNodeIndex, SegmentTable } from './edges.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `connectivity` (spec 1.2.9), per mode: only the strongly connected networks kept by
 * `selectComponents` (one per source extract) keep the mode's bit; edges of the islands and edges
 * between components lose it.
 */

export interface ComponentInfo {
  readonly edges: number;
  readonly km: number;
  /** A node of the component, [lon, lat], to look it up on a map. */
  readonly at: readonly [number, number];
  /** A street name in it, if any. */
  readonly name: string;
}

export interface ComponentSummary {
  /** The networks kept (one per source extract at most), biggest first. */
  readonly kept: readonly ComponentInfo[];
  readonly removed: number;
  readonly removedKm: number;
  /** The largest removed components, biggest first. */
  readonly largestRemoved: readonly ComponentInfo[];
}

export interface ConnectivityInput {
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
  /** How many source extracts the ways came from. */
  readonly sourceCount: number;
  readonly graphNodes: GraphNodeIndex;
  readonly segments: Pick<SegmentTable, 'way'>;
  readonly edges: Pick<EdgeArrays, 'tail' | 'head' | 'length' | 'segment'>;
  readonly edgeFlags: Uint32Array;
  readonly csr: Pick<Csr, 'firstOut'>;
  /** The graph's string table so far, to name components. */
  readonly strings: readonly string[];
}

export interface ConnectivityOutput {
  readonly edgeFlags: Uint32Array;
  readonly components: { readonly cycling: ComponentSummary; readonly walking: ComponentSummary };
}

export function keepConnectedNetworks(input: ConnectivityInput): ConnectivityOutput {
  const flags = input.edgeFlags.slice();
  const cycling = pruneMode(input, flags, EDGE_CYCLING);
  const walking = pruneMode(input, flags, EDGE_WALKING);
  // Walking-only edges may carry cycling bits that now mean nothing; clear them for clarity.
  for (let e = 0; e < flags.length; e++) {
    if (!(flags[e]! & EDGE_CYCLING)) flags[e] = flags[e]! & ~(EDGE_DISMOUNT | EDGE_CONTRAFLOW);
  }
  return { edgeFlags: flags, components: { cycling, walking } };
}

interface Tally {
  edges: number;
  metres: number;
  /** A graph node of the component. */
  node: number;
  /** A street name id of it, 0 until one is seen. */
  name: number;
}

/** Clears `bit` in `flags` (the stage's own copy) outside the kept components of that mode. */
function pruneMode(input: ConnectivityInput, flags: Uint32Array, bit: number): ComponentSummary {
  const { ways, sourceCount, segments, edges } = input;
  const graph: CsrGraph & { readonly edgeTail: Uint32Array } = { nodeCount: input.graphNodes.count, firstOut: input.csr.firstOut, edgeHead: edges.head, edgeTail: edges.tail };
  const usable = (e: number): boolean => (flags[e]! & bit) !== 0;
  const components = stronglyConnectedComponents(graph, usable);
  const groupOf = (e: number): number => ways.source[segments.way[edges.segment[e]!]!]!;
  const selection = selectComponents(graph, components, usable, groupOf, sourceCount);
  let removedMetres = 0;
  const tally = new Map<number, Tally>();
  for (let e = 0; e < flags.length; e++) {
    if (!usable(e)) continue;
    const c = components.component[edges.tail[e]!]!;
    const inside = c === components.component[edges.head[e]!];
    if (!inside || !selection.keep[c]) {
      flags[e] = flags[e]! & ~bit;
      removedMetres += edges.length[e]!;
    }
    if (!inside) continue; // an edge between components belongs to neither
    const entry = tally.get(c) ?? { edges: 0, metres: 0, node: edges.tail[e]!, name: 0 };
    entry.edges++;
    entry.metres += edges.length[e]!;
    entry.name ||= ways.nameIds[segments.way[edges.segment[e]!]!]!;
    tally.set(c, entry);
  }
  const describe = ([, entry]: [number, Tally]): ComponentInfo => describeComponent(input, entry);
  const bySize = [...tally.entries()].sort((x, y) => y[1].metres - x[1].metres);
  const removed = bySize.filter(([c]) => !selection.keep[c]);
  return {
    kept: bySize.filter(([c]) => selection.keep[c]).map(describe),
    removed: removed.length,
    removedKm: Math.round(removedMetres) / 1000,
    largestRemoved: removed.slice(0, 5).map(describe),
  };
}

function describeComponent({ nodes, graphNodes, strings }: ConnectivityInput, entry: Tally): ComponentInfo {
  const d = graphNodes.dense[entry.node]!;
  return {
    edges: entry.edges,
    km: Math.round(entry.metres) / 1000,
    at: [nodes.lonE7[d]! / 1e7, nodes.latE7[d]! / 1e7],
    name: strings[entry.name] ?? '',
  };
}
