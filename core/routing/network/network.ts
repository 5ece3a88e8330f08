import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_REVERSED, EDGE_CYCLING, EDGE_WALKING, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, SAFETY_BUSY, SAFETY_MODERATE, safetyClassOf } from '../../graph/flags.ts';
import { bearingDegrees } from '../../geo.ts';
import { DisjointSets } from './disjoint-sets.ts';

/**
 * A loaded graph plus the few derived arrays the router needs, computed once per graph when it
 * is loaded and shared by every query: the bearing at each end of every edge (for turn costs and
 * guidance), per node the busiest road meeting there (for the supersafe crossing penalty), and
 * per edge whether it belongs to the city's open core (for snapping).
 */

export const CROSSES_NOTHING = 0;
export const CROSSES_MODERATE = 1;
export const CROSSES_BUSY = 2;

/** Bits of `openCore`: the edge is in the profile's open core. */
export const OPEN_CORE_CYCLING = 1;
export const OPEN_CORE_WALKING = 2;

export class RoutingNetwork {
  /** Degrees [0, 360) leaving the tail of each edge. */
  readonly startBearing: Uint16Array;
  /** Degrees [0, 360) arriving at the head of each edge. */
  readonly endBearing: Uint16Array;
  /** CROSSES_* of the busiest cycling road at each node. */
  readonly busiestRoadAt: Uint8Array;
  /**
   * OPEN_CORE_* bits: the edge lies in the profile's largest network of ways that no time rule
   * ever closes, joined through nodes no barrier closes to the profile. Whatever the hour, an edge
   * there is connected to the city; snapping checks only points off the core for pockets.
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
    this.openCore = new Uint8Array(edges);
    this.markOpenCore(EDGE_CYCLING, NODE_BARRIER_NO_CYCLING, OPEN_CORE_CYCLING);
    this.markOpenCore(EDGE_WALKING, NODE_BARRIER_NO_WALKING, OPEN_CORE_WALKING);
  }

  /** Union-find over edges: two usable, never-closed edges meeting at a passable node are joined. */
  private markOpenCore(usableFlag: number, barrierFlag: number, bit: number): void {
    const graph = this.graph;
    const sets = new DisjointSets(graph.edgeCount);
    const find = (edge: number) => sets.find(edge);
    const inCore = (edge: number) => (graph.edgeFlags[edge]! & usableFlag) !== 0 && graph.edgeClosure[edge] === 0;
    for (let node = 0; node < graph.nodeCount; node++) {
      if (graph.nodeFlags[node]! & barrierFlag) continue;
      let first = -1;
      const join = (edge: number) => {
        if (!inCore(edge)) return;
        if (first < 0) first = find(edge);
        else sets.union(edge, first);
      };
      for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) join(edge);
      for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) join(graph.inEdges[i]!);
    }
    const size = new Map<number, number>();
    for (let edge = 0; edge < graph.edgeCount; edge++) if (inCore(edge)) size.set(find(edge), (size.get(find(edge)) ?? 0) + 1);
    let largest = -1;
    for (const [root, count] of size) if (largest < 0 || count > size.get(largest)!) largest = root;
    for (let edge = 0; edge < graph.edgeCount; edge++) if (inCore(edge) && find(edge) === largest) this.openCore[edge]! |= bit;
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
