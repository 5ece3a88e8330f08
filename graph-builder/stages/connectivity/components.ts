import { stronglyConnectedComponents as componentsOf, type Components } from '../../../core/routing/network/strongly-connected.ts';

export type { Components };

/** A city's node graph in compressed sparse rows: the out-edges of node v are [firstOut[v], firstOut[v + 1]). */
export interface CsrGraph {
  readonly nodeCount: number;
  readonly firstOut: ArrayLike<number>;
  readonly edgeHead: ArrayLike<number>;
}

/**
 * Strongly connected components of the nodes (spec 1.2.9) over the edges for which `usable(edge)`
 * holds. On London-sized graphs this is faster than graphology's component helpers on the same
 * data (docs/benchmarks.md).
 */
export function stronglyConnectedComponents(graph: CsrGraph, usable: (edge: number) => boolean): Components {
  return componentsOf(
    {
      vertexCount: graph.nodeCount,
      arcsBegin: (node) => graph.firstOut[node]!,
      arcsEnd: (node) => graph.firstOut[node + 1]!,
      head: (edge) => graph.edgeHead[edge]!,
    },
    (_node, edge) => usable(edge),
  );
}

export interface KeptComponents {
  /** Per component: whether its edges stay in the network. */
  readonly keep: Uint8Array;
  /** Usable edges inside each component. */
  readonly edgeCounts: Int32Array;
}

/**
 * Which components to keep: for each group of edges (each source extract), the component holding
 * most of that group's edges. A whole-city extract is one group, so this is the classic "largest
 * component"; a city assembled from separate neighbourhood extracts (Bloomsbury, outer North
 * London, Elephant & Castle) keeps each neighbourhood's network instead of only the biggest.
 */
export function selectComponents(
  graph: CsrGraph & { readonly edgeTail: ArrayLike<number> },
  components: Components,
  usable: (edge: number) => boolean,
  groupOf: (edge: number) => number,
  groupCount: number,
): KeptComponents {
  // Edges grouped by component (counting sort), then each component's edges counted per group
  // in a scratch array: linear time, no per-edge hash lookups.
  const edgeCounts = new Int32Array(components.count);
  const edgeCount = graph.edgeHead.length;
  const componentOf = (e: number): number => {
    if (!usable(e)) return -1;
    const c = components.component[graph.edgeTail[e]!]!;
    return c === components.component[graph.edgeHead[e]!] ? c : -1;
  };
  for (let e = 0; e < edgeCount; e++) {
    const c = componentOf(e);
    if (c >= 0) edgeCounts[c]!++;
  }
  const first = new Int32Array(components.count + 1);
  for (let c = 0; c < components.count; c++) first[c + 1] = first[c]! + edgeCounts[c]!;
  const fill = first.slice(0, components.count);
  const byComponent = new Int32Array(first[components.count]!);
  for (let e = 0; e < edgeCount; e++) {
    const c = componentOf(e);
    if (c >= 0) byComponent[fill[c]!++] = e;
  }
  const bestComponent = new Int32Array(groupCount).fill(-1);
  const bestCount = new Int32Array(groupCount);
  const scratch = new Int32Array(groupCount);
  const touched: number[] = [];
  for (let c = 0; c < components.count; c++) {
    for (let i = first[c]!; i < first[c + 1]!; i++) {
      const group = groupOf(byComponent[i]!);
      if (scratch[group]!++ === 0) touched.push(group);
    }
    for (const group of touched) {
      if (scratch[group]! > bestCount[group]!) {
        bestCount[group] = scratch[group]!;
        bestComponent[group] = c;
      }
      scratch[group] = 0;
    }
    touched.length = 0;
  }
  const keep = new Uint8Array(components.count);
  for (const c of bestComponent) if (c >= 0) keep[c] = 1;
  return { keep, edgeCounts };
}
