import type { Costing } from '../../core/routing/costing/costing.ts';
import { RESTRICTION_SAME_CYCLEWAY } from '../../core/graph/flags.ts';
import { isWindowActive } from '../../core/graph/rules.ts';
import { MinHeap } from '../../core/routing/search/heap.ts';
import type { EdgePosition } from '../../core/routing/search/workspace.ts';
import { findRoute } from '../../core/routing/search/search.ts';
import { positionsAt, snap } from '../../core/routing/snap/snap.ts';
import type { LoadedGraph } from '../../functions/graphs/graph-store.ts';
import { expect } from 'vitest';
import { randomNodeLocation } from './real-graphs.ts';

/**
 * A plain edge-based Dijkstra written independently of the router: no heuristic, and turn
 * restrictions checked against each label's own chain of edges. Its costs are the truth the
 * router's A* must match.
 */
export function referenceCost(costing: Costing, sources: EdgePosition[], targets: EdgePosition[]): number {
  const graph = costing.network.graph;
  const sequences: number[][] = [];
  if (costing.obeysRestrictions) {
    for (let t = 0; t < graph.restrictionFlags.length; t++) {
      if (graph.restrictionFlags[t]! & RESTRICTION_SAME_CYCLEWAY) continue;
      const window = graph.restrictionWindow[t]!;
      if (window !== 0 && !isWindowActive(graph, window - 1, costing.options.departureMinute)) continue;
      sequences.push(Array.from(graph.restrictionEdges.subarray(graph.restrictionFirst[t]!, graph.restrictionFirst[t + 1]!)));
    }
  }
  type Label = { cost: number; edge: number; chain: number[] };
  // States: an edge plus the tail of its chain that could still complete a sequence.
  const viaWay = sequences.filter((sequence) => sequence.length > 2);
  const byLastEdge = new Map<number, number[][]>();
  for (const sequence of sequences) {
    const last = sequence[sequence.length - 1]!;
    byLastEdge.set(last, [...(byLastEdge.get(last) ?? []), sequence]);
  }
  const pending = (chain: number[]) => viaWay.filter((sequence) => prefixEndsChain(sequence, chain)).map((s) => s.join(','));
  const prefixEndsChain = (sequence: number[], chain: number[]) => {
    for (let k = 1; k < sequence.length - 1; k++) {
      if (k > chain.length) break;
      if (sequence.slice(0, k).every((edge, i) => edge === chain[chain.length - k + i])) return true;
    }
    return false;
  };
  const forbidden = (chain: number[], next: number) =>
    (byLastEdge.get(next) ?? []).some((sequence) => sequence.length - 1 <= chain.length && sequence.slice(0, -1).every((edge, i) => edge === chain[chain.length - (sequence.length - 1) + i]));
  const best = new Map<string, number>();
  const labels: Label[] = [];
  const queue = new MinHeap();
  const push = (label: Label) => {
    labels.push(label);
    queue.push(label.cost, labels.length - 1);
  };
  const targetAt = new Map(targets.map((target) => [target.edge, target.fraction]));
  let answer = Infinity;
  for (const source of sources) {
    const cost = costing.edgeCost(source.edge);
    if (cost === Infinity) continue;
    const ahead = targetAt.get(source.edge);
    if (ahead !== undefined && ahead >= source.fraction) answer = Math.min(answer, (ahead - source.fraction) * cost);
    push({ cost: (1 - source.fraction) * cost, edge: source.edge, chain: [source.edge] });
  }
  while (queue.size > 0) {
    const label = labels[queue.pop()]!;
    if (label.cost >= answer) break;
    const key = `${label.edge}|${pending(label.chain).join(';')}`;
    if (best.has(key)) continue;
    best.set(key, label.cost);
    const node = graph.edgeHead[label.edge]!;
    for (let next = graph.firstOut[node]!; next < graph.firstOut[node + 1]!; next++) {
      const cost = costing.edgeCost(next);
      const turn = costing.turnCost(label.edge, next);
      if (cost === Infinity || turn === Infinity || forbidden(label.chain, next)) continue;
      const fraction = targetAt.get(next);
      if (fraction !== undefined) answer = Math.min(answer, label.cost + turn + fraction * cost);
      push({ cost: label.cost + turn + cost, edge: next, chain: [...label.chain.slice(-6), next] });
    }
  }
  return answer;
}

/**
 * One random pair of the graph routed by the search and by `referenceCost`: expects the same cost
 * (or no route from either). False when a random point did not snap, so nothing was compared.
 */
export function expectSearchMatchesReference(costing: Costing, loaded: LoadedGraph, random: () => number, label: string): boolean {
  const { network } = loaded;
  const usable = (edge: number) => costing.usable(edge);
  const from = snap(network, usable, randomNodeLocation(network, random));
  const to = snap(network, usable, randomNodeLocation(network, random));
  if (!from || !to) return false;
  const sources = positionsAt(network, usable, from);
  const targets = positionsAt(network, usable, to);
  const found = findRoute(costing, loaded.workspace, sources, targets, to.location);
  const expected = referenceCost(costing, sources, targets);
  if (expected === Infinity) expect(found, label).toBeNull();
  else expect(found!.cost, label).toBeCloseTo(expected, 6);
  return true;
}
