/**
 * Strongly connected components with an iterative Tarjan in typed arrays, so a city-sized graph
 * needs no recursion and no per-vertex objects. One routine for every graph the platform builds
 * it on: the node graph of a city (the builder keeps its largest networks, spec 1.2.9) and the
 * edge graph whose arcs are allowed turns (the router's open core, open-core.ts).
 */

/** A directed graph whose arcs out of vertex `v` are the integers `[arcsBegin(v), arcsEnd(v))`. */
export interface ArcGraph {
  readonly vertexCount: number;
  arcsBegin(vertex: number): number;
  arcsEnd(vertex: number): number;
  /** The vertex an arc leads to. */
  head(arc: number): number;
}

export interface Components {
  /** Component id of every vertex; -1 for a vertex the search never reached. */
  readonly component: Int32Array;
  readonly count: number;
}

/**
 * Components of the subgraph of the arcs `usable(from, arc)` accepts, searched from every vertex
 * `isRoot` accepts (all by default). A vertex that is no root and that no usable arc reaches
 * keeps component -1.
 */
export function stronglyConnectedComponents(
  graph: ArcGraph,
  usable: (from: number, arc: number) => boolean,
  isRoot: (vertex: number) => boolean = () => true,
): Components {
  const n = graph.vertexCount;
  const index = new Int32Array(n).fill(-1);
  const lowLink = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  // The explicit call stack: a vertex and the next of its arcs to look at.
  const callVertex = new Int32Array(n);
  const callArc = new Int32Array(n);
  let stackSize = 0;
  let nextIndex = 0;
  let count = 0;

  const open = (vertex: number, depth: number): void => {
    index[vertex] = lowLink[vertex] = nextIndex++;
    stack[stackSize++] = vertex;
    onStack[vertex] = 1;
    callVertex[depth] = vertex;
    callArc[depth] = graph.arcsBegin(vertex);
  };

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1 || !isRoot(root)) continue;
    let depth = 0;
    open(root, 0);
    while (depth >= 0) {
      const v = callVertex[depth]!;
      const end = graph.arcsEnd(v);
      let descended = false;
      while (callArc[depth]! < end) {
        const arc = callArc[depth]!++;
        if (!usable(v, arc)) continue;
        const w = graph.head(arc);
        if (index[w] === -1) {
          open(w, ++depth);
          descended = true;
          break;
        }
        if (onStack[w] && index[w]! < lowLink[v]!) lowLink[v] = index[w]!;
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
        const parent = callVertex[depth]!;
        if (lowLink[v]! < lowLink[parent]!) lowLink[parent] = lowLink[v]!;
      }
    }
  }
  return { component, count };
}
