import { haversineMetresE7 } from '../../core/geo.ts';
import { EDGE_CYCLING, EDGE_WALKING } from '../../core/graph/flags.ts';
import { Growable } from '../growable.ts';
import { buildCsr, orderByTail, permuteEdges, remapSegmentEdges, type Csr, type EdgeArrays } from './edge-arrays.ts';
import { forEachStretch } from './graph-nodes.ts';
import type { WayPlans } from './plan-ways.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `edges`: every kept way cut into segments between graph nodes, each segment giving a
 * directed edge per direction that some mode may use, numbered in way order; then the edges
 * sorted by tail node and indexed (CSR). Graph nodes are numbered as ways first reach them.
 */

export interface EdgesInput {
  readonly ways: CollectedWays;
  readonly nodes: CollectedNodes;
  readonly wayKept: Uint8Array;
  readonly isGraphNode: Uint8Array;
  readonly plans: Pick<WayPlans, 'forwardFlags' | 'backwardFlags' | 'closure'>;
}

/** Graph nodes and the collected (dense) nodes they stand for. */
export interface GraphNodeIndex {
  readonly count: number;
  /** Dense node of each graph node. */
  readonly dense: Uint32Array;
  /** Graph node of each dense node, -1 for none. */
  readonly of: Int32Array;
}

/** Segments in way order: one stretch of a way between two graph nodes. */
export interface SegmentTable {
  readonly count: number;
  readonly way: Uint32Array;
  /** Graph nodes at the segment's ends, in way direction. */
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  /** Geometry of segment s: dense nodes `points[pointFirst[s]] .. points[pointFirst[s+1]-1]`. */
  readonly pointFirst: Uint32Array;
  readonly points: Uint32Array;
  readonly length: Float64Array;
  /** Segments of way w: `wayFirst[w] .. wayFirst[w+1]-1`. */
  readonly wayFirst: Uint32Array;
}

/** The edge of each segment in and against way direction, -1 for none. */
export interface SegmentEdges {
  readonly forward: Int32Array;
  readonly backward: Int32Array;
}

export interface EdgesOutput {
  readonly graphNodes: GraphNodeIndex;
  readonly segments: SegmentTable;
  /** Sorted by tail. */
  readonly edges: EdgeArrays;
  readonly segmentEdges: SegmentEdges;
  readonly csr: Csr;
}

export function buildEdges(input: EdgesInput): EdgesOutput {
  const created = createEdges(input);
  const nodeCount = created.graphNodes.count;
  const sorted = permuteEdges(created.edges, orderByTail(created.edges.tail, () => true, nodeCount));
  const segmentEdges = {
    forward: remapSegmentEdges(created.segmentEdges.forward, sorted.newIndexOf),
    backward: remapSegmentEdges(created.segmentEdges.backward, sorted.newIndexOf),
  };
  return { graphNodes: created.graphNodes, segments: created.segments, edges: sorted.edges, segmentEdges, csr: buildCsr(sorted.edges, nodeCount) };
}

/** Segments and edges in creation order. */
function createEdges({ ways, nodes, wayKept, isGraphNode, plans }: EdgesInput): Omit<EdgesOutput, 'csr'> {
  const graphNodeOf = new Int32Array(nodes.index.size).fill(-1);
  const graphNodeDense = new Growable(Uint32Array);
  const graphNode = (d: number): number => {
    if (graphNodeOf[d] === -1) {
      graphNodeOf[d] = graphNodeDense.length;
      graphNodeDense.push(d);
    }
    return graphNodeOf[d]!;
  };
  const seg = {
    way: new Growable(Uint32Array), start: new Growable(Uint32Array), end: new Growable(Uint32Array), pointFirst: new Growable(Uint32Array),
    points: new Growable(Uint32Array), length: new Growable(Float64Array), forward: new Growable(Int32Array), backward: new Growable(Int32Array),
  };
  const edges = {
    tail: new Growable(Uint32Array), head: new Growable(Uint32Array), length: new Growable(Float32Array), flags: new Growable(Uint32Array),
    segment: new Growable(Uint32Array), closure: new Growable(Uint16Array),
  };
  const wayFirst = new Uint32Array(ways.count + 1);
  seg.pointFirst.push(0);

  for (let w = 0; w < ways.count; w++) {
    wayFirst[w] = seg.way.length;
    if (!wayKept[w]) continue;
    const forwardFlags = plans.forwardFlags[w]!;
    const backwardFlags = plans.backwardFlags[w]!;
    const closure = plans.closure[w]!;
    forEachStretch(ways, nodes, isGraphNode, w, (points) => {
      const s = seg.way.length;
      const start = graphNode(points[0]!);
      const end = graphNode(points[points.length - 1]!);
      let length = 0;
      for (let i = 0; i < points.length; i++) {
        seg.points.push(points[i]!);
        if (i > 0) length += haversineMetresE7(nodes.lonE7[points[i - 1]!]!, nodes.latE7[points[i - 1]!]!, nodes.lonE7[points[i]!]!, nodes.latE7[points[i]!]!);
      }
      seg.pointFirst.push(seg.points.length);
      seg.way.push(w);
      seg.start.push(start);
      seg.end.push(end);
      seg.length.push(length);
      const addEdge = (from: number, to: number, flags: number): number => {
        if (!(flags & (EDGE_CYCLING | EDGE_WALKING))) return -1;
        edges.tail.push(from);
        edges.head.push(to);
        edges.length.push(length);
        edges.flags.push(flags);
        edges.segment.push(s);
        edges.closure.push(closure);
        return edges.head.length - 1;
      };
      seg.forward.push(addEdge(start, end, forwardFlags));
      seg.backward.push(addEdge(end, start, backwardFlags));
    });
  }
  wayFirst[ways.count] = seg.way.length;

  return {
    graphNodes: { count: graphNodeDense.length, dense: graphNodeDense.toArray(), of: graphNodeOf },
    segments: {
      count: seg.way.length, way: seg.way.toArray(), start: seg.start.toArray(), end: seg.end.toArray(),
      pointFirst: seg.pointFirst.toArray(), points: seg.points.toArray(), length: seg.length.toArray(), wayFirst,
    },
    edges: {
      tail: edges.tail.toArray(), head: edges.head.toArray(), length: edges.length.toArray(), flags: edges.flags.toArray(),
      segment: edges.segment.toArray(), closure: edges.closure.toArray(),
    },
    segmentEdges: { forward: seg.forward.toArray(), backward: seg.backward.toArray() },
  };
}
