/**
 * Strongly connected components (spec 1.2.9) with an iterative Tarjan over the CSR arrays, so a
 * city-sized graph needs no recursion and no per-node objects. On London-sized graphs this is
 * faster than graphology's component helpers on the same data (docs/benchmarks.md).
 */

export interface CsrGraph {
  readonly nodeCount: number;
  readonly firstOut: ArrayLike<number>;
  readonly edgeHead: ArrayLike<number>;
}

export interface Components {
  /** Component id of every node. */
  readonly component: Int32Array;
  readonly count: number;
}

/** Components of the subgraph of edges for which `usable(edge)` holds. */
export function stronglyConnectedComponents(graph: CsrGraph, usable: (edge: number) => boolean): Components {
  const n = graph.nodeCount;
  const index = new Int32Array(n).fill(-1);
  const lowLink = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let stackSize = 0;
  // The explicit call stack: node and the next out-edge to look at.
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  let nextIndex = 0;
  let count = 0;

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = graph.firstOut[root]!;
    index[root] = lowLink[root] = nextIndex++;
    stack[stackSize++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callNode[depth]!;
      const end = graph.firstOut[v + 1]!;
      let descended = false;
      while (callEdge[depth]! < end) {
        const e = callEdge[depth]!++;
        if (!usable(e)) continue;
        const w = graph.edgeHead[e]!;
        if (index[w] === -1) {
          index[w] = lowLink[w] = nextIndex++;
          stack[stackSize++] = w;
          onStack[w] = 1;
          depth++;
          callNode[depth] = w;
          callEdge[depth] = graph.firstOut[w]!;
          descended = true;
          break;
        }
        if (onStack[w]) lowLink[v] = Math.min(lowLink[v]!, index[w]!);
      }
      if (descended) continue;
      if (lowLink[v] === index[v]) {
        let w: number;
        do {
          w = stack[--stackSize]!;
          onStack[w] = 0;
          component[w] = count;
        } while (w !== v);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const parent = callNode[depth]!;
        lowLink[parent] = Math.min(lowLink[parent]!, lowLink[v]!);
      }
    }
  }
  return { component, count };
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
