/**
 * The directed edges as parallel arrays while the graph is being built, and the two operations
 * every renumbering needs: reorder them, and index them by tail and by head (CSR).
 */

export interface EdgeArrays {
  readonly tail: Uint32Array;
  readonly head: Uint32Array;
  readonly length: Float32Array;
  readonly flags: Uint32Array;
  readonly segment: Uint32Array;
  readonly closure: Uint16Array;
}

/** Out-edges of node v are `firstOut[v] .. firstOut[v+1]-1` (edges sorted by tail); in-edges are listed by `inEdges`. */
export interface Csr {
  readonly firstOut: Uint32Array;
  readonly firstIn: Uint32Array;
  readonly inEdges: Uint32Array;
}

/** Edge arrays in the given order (order[newIndex] = oldIndex); returns old -> new too (-1 for dropped edges). */
export function permuteEdges(edges: EdgeArrays, order: ArrayLike<number>): { edges: EdgeArrays; newIndexOf: Int32Array } {
  const n = order.length;
  const out = {
    tail: new Uint32Array(n), head: new Uint32Array(n), length: new Float32Array(n), flags: new Uint32Array(n),
    segment: new Uint32Array(n), closure: new Uint16Array(n),
  };
  const newIndexOf = new Int32Array(edges.head.length).fill(-1);
  for (let i = 0; i < n; i++) {
    const old = order[i]!;
    newIndexOf[old] = i;
    out.tail[i] = edges.tail[old]!;
    out.head[i] = edges.head[old]!;
    out.length[i] = edges.length[old]!;
    out.flags[i] = edges.flags[old]!;
    out.segment[i] = edges.segment[old]!;
    out.closure[i] = edges.closure[old]!;
  }
  return { edges: out, newIndexOf };
}

/** Order of the kept edges sorted by tail (stable), for a node count. */
export function orderByTail(tail: ArrayLike<number>, keep: (edge: number) => boolean, nodeCount: number): Uint32Array {
  const counts = new Uint32Array(nodeCount + 1);
  let kept = 0;
  for (let e = 0; e < tail.length; e++) {
    if (keep(e)) {
      counts[tail[e]! + 1]!++;
      kept++;
    }
  }
  for (let v = 0; v < nodeCount; v++) counts[v + 1]! += counts[v]!;
  const order = new Uint32Array(kept);
  for (let e = 0; e < tail.length; e++) if (keep(e)) order[counts[tail[e]!]!++] = e;
  return order;
}

/** The CSR of edges already sorted by tail. */
export function buildCsr(edges: Pick<EdgeArrays, 'tail' | 'head'>, nodeCount: number): Csr {
  const firstOut = new Uint32Array(nodeCount + 1);
  const firstIn = new Uint32Array(nodeCount + 1);
  for (let e = 0; e < edges.head.length; e++) {
    firstOut[edges.tail[e]! + 1]!++;
    firstIn[edges.head[e]! + 1]!++;
  }
  for (let v = 0; v < nodeCount; v++) {
    firstOut[v + 1]! += firstOut[v]!;
    firstIn[v + 1]! += firstIn[v]!;
  }
  const fill = firstIn.slice(0, nodeCount);
  const inEdges = new Uint32Array(edges.head.length);
  for (let e = 0; e < edges.head.length; e++) inEdges[fill[edges.head[e]!]!++] = e;
  return { firstOut, firstIn, inEdges };
}

/** Edge indexes of a segment remapped after a permutation (-1 stays -1). */
export function remapSegmentEdges(segmentEdges: Int32Array, newIndexOf: Int32Array): Int32Array {
  return segmentEdges.map((e) => (e >= 0 ? newIndexOf[e]! : -1));
}
