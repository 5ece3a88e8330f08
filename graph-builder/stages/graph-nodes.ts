import type { Warnings } from '../warnings.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `graph-nodes`: which OSM nodes become graph nodes. Junctions (nodes two kept ways use, or
 * one way twice), way ends, control points (signals, stop signs, crossings), the neighbours of
 * nodes missing from the extracts (the way is split there), and a middle node on every stretch
 * that starts and ends at the same node, so every segment joins two distinct nodes.
 */

export interface GraphNodesInput {
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
  readonly wayKept: Uint8Array;
  readonly warnings: Warnings;
}

export interface GraphNodesOutput {
  /** 1 for each collected node (dense index) that is a graph node. */
  readonly isGraphNode: Uint8Array;
}

export function findGraphNodes({ ways, nodes, wayKept, warnings }: GraphNodesInput): GraphNodesOutput {
  const denseRef = (position: number): number => nodes.index.get(ways.nodeRefs[position]!);
  const usage = new Uint8Array(nodes.index.size);
  const isGraphNode = new Uint8Array(nodes.index.size);
  for (const d of nodes.controls.keys()) isGraphNode[d] = 1;
  for (let w = 0; w < ways.count; w++) {
    if (!wayKept[w]) continue;
    const first = ways.nodeFirst[w]!;
    const last = ways.nodeFirst[w + 1]! - 1;
    for (let p = first; p <= last; p++) {
      const d = denseRef(p);
      if (!nodes.present[d]) {
        warnings.count('way nodes missing from the extracts (way split there)', String(ways.ids[w]));
        if (p > first) isGraphNode[denseRef(p - 1)] = 1;
        if (p < last) isGraphNode[denseRef(p + 1)] = 1;
        continue;
      }
      if (usage[d]! < 255) usage[d]!++;
      if (usage[d]! >= 2 || p === first || p === last) isGraphNode[d] = 1;
    }
  }
  for (let w = 0; w < ways.count; w++) {
    if (!wayKept[w]) continue;
    forEachStretch(ways, nodes, isGraphNode, w, (points) => {
      if (points[0] === points[points.length - 1] && points.length >= 3) isGraphNode[points[Math.floor(points.length / 2)]!] = 1;
    });
  }
  return { isGraphNode };
}

/**
 * Visits way `w` stretch by stretch: the dense nodes from one graph node to the next (a node
 * repeated in a row counted once; a node missing from the extracts ends the stretch unvisited).
 */
export function forEachStretch(ways: CollectedWays, nodes: CollectedNodes, isGraphNode: Uint8Array, w: number, visit: (points: number[]) => void): void {
  let points: number[] = [];
  for (let p = ways.nodeFirst[w]!; p < ways.nodeFirst[w + 1]!; p++) {
    const d = nodes.index.get(ways.nodeRefs[p]!);
    if (!nodes.present[d]) {
      points = [];
      continue;
    }
    if (points.length > 0 && points[points.length - 1] === d) continue;
    points.push(d);
    if (isGraphNode[d] && points.length > 1) {
      visit(points);
      points = [d];
    }
  }
}
