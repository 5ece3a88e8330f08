import type { Graph } from './layout.ts';

/** The edge over the same segment in the other direction, or -1 for a one-way segment. */
export function reverseEdgeOf(graph: Pick<Graph, 'edgeSegment' | 'segmentForwardEdge' | 'segmentBackwardEdge'>, edge: number): number {
  const segment = graph.edgeSegment[edge]!;
  const forward = graph.segmentForwardEdge[segment]!;
  const backward = graph.segmentBackwardEdge[segment]!;
  return edge === forward ? backward : edge === backward ? forward : -1;
}
