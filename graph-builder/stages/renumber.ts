import { emptyBoundingBox, extendBoundingBox } from '../../core/geo.ts';
import { EDGE_CYCLING, EDGE_WALKING } from '../../core/graph/flags.ts';
import { buildCsr, orderByTail, permuteEdges, remapSegmentEdges, type Csr, type EdgeArrays } from './edge-arrays.ts';
import type { GraphNodeIndex, SegmentEdges } from './edges.ts';
import type { CollectedNodes } from './read/collect.ts';

/**
 * Stage `renumber`: the final numbering. Edges no mode may use any more are dropped, and with
 * them nodes and segments left without edges; live nodes are ordered along a Hilbert curve over
 * their bounding box (neighbours on the map end up near each other in memory), edges by tail
 * node, live segments in way order.
 */

export interface RenumberInput {
  readonly nodes: Pick<CollectedNodes, 'lonE7' | 'latE7'>;
  readonly graphNodes: GraphNodeIndex;
  readonly edges: Omit<EdgeArrays, 'flags'>;
  /** The edges' flags after connectivity. */
  readonly edgeFlags: Uint32Array;
  readonly segmentEdges: SegmentEdges;
}

export interface RenumberOutput {
  readonly nodeCount: number;
  /** Dense (collected) node of each final node. */
  readonly denseOfNode: Uint32Array;
  /** Live edges in final order, flags included. */
  readonly edges: EdgeArrays;
  readonly csr: Csr;
  /** Final number of each edge of the `edges` stage, -1 when dropped. */
  readonly edgeNewIndex: Int32Array;
  /** Final edge numbers, still indexed by segment in way order (`segments` stage numbering). */
  readonly segmentEdges: SegmentEdges;
  /** Final number of each segment, -1 when it has no live edge. */
  readonly segmentNew: Int32Array;
  readonly liveSegments: number;
  /** [west, south, east, north] of the live nodes, degrees; zeros for an empty graph. */
  readonly bbox: readonly [number, number, number, number];
}

export function renumber({ nodes, graphNodes, edges, edgeFlags, segmentEdges }: RenumberInput): RenumberOutput {
  const liveEdge = (e: number): boolean => (edgeFlags[e]! & (EDGE_CYCLING | EDGE_WALKING)) !== 0;
  const { liveNodes, box } = hilbertOrder(nodes, graphNodes, edges, liveEdge);
  const newNode = new Int32Array(graphNodes.count).fill(-1);
  liveNodes.forEach((v, i) => (newNode[v] = i));
  const nodeCount = liveNodes.length;
  const tail = edges.tail.slice();
  const head = edges.head.slice();
  for (let e = 0; e < head.length; e++) {
    if (!liveEdge(e)) continue;
    tail[e] = newNode[tail[e]!]!;
    head[e] = newNode[head[e]!]!;
  }
  const permuted = permuteEdges({ ...edges, tail, head, flags: edgeFlags }, orderByTail(tail, liveEdge, nodeCount));
  const edgeNewIndex = permuted.newIndexOf;
  const finalSegmentEdges = {
    forward: remapSegmentEdges(segmentEdges.forward, edgeNewIndex),
    backward: remapSegmentEdges(segmentEdges.backward, edgeNewIndex),
  };
  const segmentNew = new Int32Array(segmentEdges.forward.length).fill(-1);
  let liveSegments = 0;
  for (let s = 0; s < segmentNew.length; s++) {
    if (finalSegmentEdges.forward[s]! >= 0 || finalSegmentEdges.backward[s]! >= 0) segmentNew[s] = liveSegments++;
  }
  const segment = permuted.edges.segment.map((s) => segmentNew[s]!);
  const finalEdges = { ...permuted.edges, segment };
  return {
    nodeCount,
    denseOfNode: Uint32Array.from(liveNodes, (v) => graphNodes.dense[v]!),
    edges: finalEdges,
    csr: buildCsr(finalEdges, nodeCount),
    edgeNewIndex,
    segmentEdges: finalSegmentEdges,
    segmentNew,
    liveSegments,
    bbox: nodeCount > 0 ? [box[0] / 1e7, box[1] / 1e7, box[2] / 1e7, box[3] / 1e7] : [0, 0, 0, 0],
  };
}

/** Graph nodes with a live edge, in Hilbert order, and their bounding box in 1e-7 degrees. */
function hilbertOrder(
  nodes: RenumberInput['nodes'],
  graphNodes: GraphNodeIndex,
  edges: Pick<EdgeArrays, 'tail' | 'head'>,
  liveEdge: (e: number) => boolean,
): { liveNodes: number[]; box: readonly [number, number, number, number] } {
  const nodeLive = new Uint8Array(graphNodes.count);
  for (let e = 0; e < edges.head.length; e++) {
    if (liveEdge(e)) nodeLive[edges.tail[e]!] = nodeLive[edges.head[e]!] = 1;
  }
  const liveNodes: number[] = [];
  for (let v = 0; v < graphNodes.count; v++) if (nodeLive[v]) liveNodes.push(v);
  const box = emptyBoundingBox();
  for (const v of liveNodes) {
    const d = graphNodes.dense[v]!;
    extendBoundingBox(box, nodes.lonE7[d]!, nodes.latE7[d]!);
  }
  const [minLon, minLat, maxLon, maxLat] = box;
  const spanLon = Math.max(1, maxLon - minLon);
  const spanLat = Math.max(1, maxLat - minLat);
  const hilbert = new Float64Array(graphNodes.count);
  for (const v of liveNodes) {
    const d = graphNodes.dense[v]!;
    hilbert[v] = hilbertIndex(Math.floor(((nodes.lonE7[d]! - minLon) / spanLon) * 65535), Math.floor(((nodes.latE7[d]! - minLat) / spanLat) * 65535));
  }
  liveNodes.sort((x, y) => hilbert[x]! - hilbert[y]!);
  return { liveNodes, box };
}

/** Position along a Hilbert curve of order 16 over the graph's bounding box (for memory locality). */
function hilbertIndex(x: number, y: number): number {
  let d = 0;
  for (let s = 1 << 15; s > 0; s >>>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return d;
}
