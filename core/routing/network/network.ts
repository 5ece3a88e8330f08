import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_REVERSED, EDGE_CYCLING, SAFETY_BUSY, SAFETY_MODERATE, safetyClassOf } from '../../graph/flags.ts';
import { bearingDegrees } from '../../geo.ts';
import { computeOpenCore } from './open-core.ts';

/**
 * A loaded graph plus the few derived arrays the router needs, computed once per graph when it
 * is loaded and shared by every query: the bearing at each end of every edge (for turn costs and
 * guidance), per node the busiest road meeting there (for the supersafe crossing penalty), and
 * per edge whether it belongs to its region's open core (for snapping; open-core.ts).
 */

export const CROSSES_NOTHING = 0;
export const CROSSES_MODERATE = 1;
export const CROSSES_BUSY = 2;

export class RoutingNetwork {
  /** Degrees [0, 360) leaving the tail of each edge. */
  readonly startBearing: Uint16Array;
  /** Degrees [0, 360) arriving at the head of each edge. */
  readonly endBearing: Uint16Array;
  /** CROSSES_* of the busiest cycling road at each node. */
  readonly busiestRoadAt: Uint8Array;
  /**
   * OPEN_CORE_* bits (open-core.ts): the edge lies in its region's open core for the profile, the
   * network every departure leaves open and connected. Whatever the hour, an edge there reaches
   * and is reached from the rest of its region; snapping checks only points off the core.
   */
  readonly openCore: Uint8Array;
  /** The edge over the same segment the other way, or -1 (read on every turn the search weighs). */
  readonly reverseEdge: Int32Array;
  /**
   * Per edge, where the turns out of it start in a per-turn table: the turn from `edge` onto
   * `next` (an edge leaving its head) is entry `turnFirst[edge] + next - firstOut[head]`.
   */
  readonly turnFirst: Uint32Array;
  /** Entries of a per-turn table: every pair of an edge and an edge leaving its head. */
  readonly turnCount: number;

  constructor(readonly graph: Graph) {
    const edges = graph.edgeCount;
    this.reverseEdge = new Int32Array(edges);
    for (let edge = 0; edge < edges; edge++) {
      const segment = graph.edgeSegment[edge]!;
      const forward = graph.segmentForwardEdge[segment]!;
      const backward = graph.segmentBackwardEdge[segment]!;
      this.reverseEdge[edge] = edge === forward ? backward : edge === backward ? forward : -1;
    }
    this.turnFirst = new Uint32Array(edges);
    let turns = 0;
    for (let edge = 0; edge < edges; edge++) {
      this.turnFirst[edge] = turns;
      const head = graph.edgeHead[edge]!;
      turns += graph.firstOut[head + 1]! - graph.firstOut[head]!;
    }
    this.turnCount = turns;
    this.startBearing = new Uint16Array(edges);
    this.endBearing = new Uint16Array(edges);
    for (let edge = 0; edge < edges; edge++) {
      const count = this.pointCount(edge);
      this.startBearing[edge] = Math.round(this.bearingBetween(edge, 0, 1)) % 360;
      this.endBearing[edge] = Math.round(this.bearingBetween(edge, count - 2, count - 1)) % 360;
    }
    this.busiestRoadAt = new Uint8Array(graph.nodeCount);
    for (let edge = 0; edge < edges; edge++) {
      const flags = graph.edgeFlags[edge]!;
      if (!(flags & EDGE_CYCLING)) continue;
      const safety = safetyClassOf(flags);
      const level = safety === SAFETY_BUSY ? CROSSES_BUSY : safety === SAFETY_MODERATE ? CROSSES_MODERATE : CROSSES_NOTHING;
      for (const node of [graph.edgeTail[edge]!, graph.edgeHead[edge]!]) {
        if (level > this.busiestRoadAt[node]!) this.busiestRoadAt[node] = level;
      }
    }
    this.openCore = computeOpenCore(graph, this.reverseEdge);
  }

  nodeLon(node: number): number {
    return this.graph.nodeCoords[2 * node]! / COORDINATE_SCALE;
  }

  nodeLat(node: number): number {
    return this.graph.nodeCoords[2 * node + 1]! / COORDINATE_SCALE;
  }

  /** Geometry points of an edge, both end nodes included. */
  pointCount(edge: number): number {
    const segment = this.graph.edgeSegment[edge]!;
    return this.graph.segmentFirstPoint[segment + 1]! - this.graph.segmentFirstPoint[segment]!;
  }

  /** Index into pointCoords of the edge's i-th point in travel order. */
  pointIndex(edge: number, i: number): number {
    const segment = this.graph.edgeSegment[edge]!;
    const first = this.graph.segmentFirstPoint[segment]!;
    if (this.graph.edgeFlags[edge]! & EDGE_REVERSED) return this.graph.segmentFirstPoint[segment + 1]! - 1 - i;
    return first + i;
  }

  pointLon(pointIndex: number): number {
    return this.graph.pointCoords[2 * pointIndex]! / COORDINATE_SCALE;
  }

  pointLat(pointIndex: number): number {
    return this.graph.pointCoords[2 * pointIndex + 1]! / COORDINATE_SCALE;
  }

  /** The edge over the same segment in the other direction, or -1. */
  reverseOf(edge: number): number {
    return this.reverseEdge[edge]!;
  }

  private bearingBetween(edge: number, i: number, j: number): number {
    const a = this.pointIndex(edge, i);
    const b = this.pointIndex(edge, j);
    return bearingDegrees(this.pointLon(a), this.pointLat(a), this.pointLon(b), this.pointLat(b));
  }
}
