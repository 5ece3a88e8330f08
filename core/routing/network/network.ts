import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_REVERSED, EDGE_CYCLING, EDGE_WALKING, NODE_BARRIER_NO_CYCLING, NODE_BARRIER_NO_WALKING, SAFETY_BUSY, SAFETY_MODERATE, safetyClassOf } from '../../graph/flags.ts';
import { bearingDegrees } from '../../geo.ts';
import { DisjointSets } from './disjoint-sets.ts';

/**
 * A loaded graph as the router reads it. Everything that can be computed when the graph is built
 * is in the file and read in place (the open core, the turn rows of the cost tables, the tables
 * themselves, the landmarks); what is left is answered on demand from the stored arrays (the
 * bearing at each end of an edge, the edge back over the same segment, the busiest road at a
 * node).
 */

export const CROSSES_NOTHING = 0;
export const CROSSES_MODERATE = 1;
export const CROSSES_BUSY = 2;

/** Bits of `openCore`: the edge is in the profile's open core. */
export const OPEN_CORE_CYCLING = 1;
export const OPEN_CORE_WALKING = 2;

/**
 * Names what `computeOpenCore` computes, recorded in the graph header (`open_core`) beside the
 * stored section: change it whenever the definition changes, so that a router never trusts a
 * stored open core computed under another one (it computes its own on load instead).
 */
export const OPEN_CORE_DEFINITION = 'largest-never-closed-network/1';

/**
 * Per edge, OPEN_CORE_* bits: the edge lies in the profile's largest network of ways that no time
 * rule ever closes, joined through nodes no barrier closes to the profile. Whatever the hour, an
 * edge there is connected to the city; snapping checks only points off the core for pockets. The
 * builder stores it in the graph (stage `open-core`).
 */
export function computeOpenCore(graph: Graph): Uint8Array {
  const core = new Uint8Array(graph.edgeCount);
  markOpenCore(graph, core, EDGE_CYCLING, NODE_BARRIER_NO_CYCLING, OPEN_CORE_CYCLING);
  markOpenCore(graph, core, EDGE_WALKING, NODE_BARRIER_NO_WALKING, OPEN_CORE_WALKING);
  return core;
}

/** Union-find over edges: two usable, never-closed edges meeting at a passable node are joined. */
function markOpenCore(graph: Graph, core: Uint8Array, usableFlag: number, barrierFlag: number, bit: number): void {
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
  for (let edge = 0; edge < graph.edgeCount; edge++) if (inCore(edge) && find(edge) === largest) core[edge]! |= bit;
}

/** The graph's stored open core when it was computed under today's definition, else null. */
function storedOpenCore(graph: Graph): Uint8Array | null {
  return graph.header.open_core === OPEN_CORE_DEFINITION && graph.openCore.length === graph.edgeCount ? graph.openCore : null;
}

export class RoutingNetwork {
  /** OPEN_CORE_* bits per edge (`computeOpenCore`): the graph's stored ones, or computed on load for a graph without. */
  readonly openCore: Uint8Array;
  /** Edge flags of the edges with a turn row in the stored turn tables (header `cost_tables.row_flags`). */
  readonly turnRowFlags: number;

  constructor(readonly graph: Graph) {
    this.turnRowFlags = graph.header.cost_tables.row_flags;
    this.openCore = storedOpenCore(graph) ?? computeOpenCore(graph);
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
    const graph = this.graph;
    const segment = graph.edgeSegment[edge]!;
    const forward = graph.segmentForwardEdge[segment]!;
    return edge === forward ? graph.segmentBackwardEdge[segment]! : edge === graph.segmentBackwardEdge[segment] ? forward : -1;
  }

  /** Whole degrees [0, 360) leaving the tail of the edge. */
  startBearing(edge: number): number {
    return Math.round(this.bearingBetween(edge, 0, 1)) % 360;
  }

  /** Whole degrees [0, 360) arriving at the head of the edge. */
  endBearing(edge: number): number {
    const count = this.pointCount(edge);
    return Math.round(this.bearingBetween(edge, count - 2, count - 1)) % 360;
  }

  /** CROSSES_* of the busiest cycling road meeting at the node. */
  busiestRoadAt(node: number): number {
    const graph = this.graph;
    let busiest = CROSSES_NOTHING;
    const meet = (edge: number) => {
      const flags = graph.edgeFlags[edge]!;
      if (!(flags & EDGE_CYCLING)) return;
      const safety = safetyClassOf(flags);
      const level = safety === SAFETY_BUSY ? CROSSES_BUSY : safety === SAFETY_MODERATE ? CROSSES_MODERATE : CROSSES_NOTHING;
      if (level > busiest) busiest = level;
    };
    for (let edge = graph.firstOut[node]!; edge < graph.firstOut[node + 1]!; edge++) meet(edge);
    for (let i = graph.firstIn[node]!; i < graph.firstIn[node + 1]!; i++) meet(graph.inEdges[i]!);
    return busiest;
  }

  /**
   * Where the turns out of `edge` sit in a stored turn table: the turn onto `next` (an edge
   * leaving the edge's head) is entry `turnBase(edge) + next`; NaN for an edge without a turn row
   * (one no stored metric may use). Node v's turns form a matrix (docs/graph-format.md): a row per
   * arriving edge with a turn row, a column per leaving edge. The search inlines this.
   */
  turnBase(edge: number): number {
    const graph = this.graph;
    if (!(graph.edgeFlags[edge]! & this.turnRowFlags)) return NaN;
    const node = graph.edgeHead[edge]!;
    let row = 0;
    for (let i = graph.firstIn[node]!; graph.inEdges[i] !== edge; i++) if (graph.edgeFlags[graph.inEdges[i]!]! & this.turnRowFlags) row++;
    const first = graph.firstOut[node]!;
    return graph.turnRowFirst[node]! + row * (graph.firstOut[node + 1]! - first) - first;
  }

  private bearingBetween(edge: number, i: number, j: number): number {
    const a = this.pointIndex(edge, i);
    const b = this.pointIndex(edge, j);
    return bearingDegrees(this.pointLon(a), this.pointLat(a), this.pointLon(b), this.pointLat(b));
  }
}
