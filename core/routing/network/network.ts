import { COORDINATE_SCALE, type Graph } from '../../graph/layout.ts';
import { EDGE_REVERSED, EDGE_CYCLING, EDGE_RESTRICTION_FROM, SAFETY_BUSY, SAFETY_MODERATE, safetyClassOf } from '../../graph/flags.ts';
import { bearingDegrees } from '../../geo.ts';
import { bitsWhere } from './bits.ts';
import { computeOpenCore, storedOpenCore } from './open-core.ts';
import { reverseEdgeOf } from '../../graph/reverse-edge.ts';

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

export class RoutingNetwork {
  /**
   * OPEN_CORE_* bits per edge (open-core.ts): the edge lies in its region's open core for the
   * profile, the network every departure leaves open and connected. The graph's stored bits, or
   * computed on load for a graph built without them or under another definition.
   */
  readonly openCore: Uint8Array;
  /** Edge flags of the edges with a turn row in the stored turn tables (header `cost_tables.row_flags`). */
  readonly turnRowFlags: number;

  constructor(readonly graph: Graph) {
    this.turnRowFlags = graph.header.cost_tables.row_flags;
    this.openCore = storedOpenCore(graph) ?? computeOpenCore(graph);
  }

  /**
   * Per edge, where it arrives at its head: its place among the edges arriving there (`inEdges`
   * from `firstIn[head]`, the low byte) and its row in the head's turn matrix (the high byte: the
   * arriving edges with a turn row before it; see `turnBase`): each fits a byte, since the builder
   * refuses a node with more than MAX_ARRIVING_EDGES (search/workspace.ts). What the search reads for every
   * state it settles; derived from the graph on the first search (2 bytes per edge), since
   * counting along `inEdges` each time reads several other edges' flags.
   */
  arrivals(): Uint16Array {
    if (this.arrivalPlaces) return this.arrivalPlaces;
    const { nodeCount, edgeCount, firstIn, inEdges, edgeFlags } = this.graph;
    const places = new Uint16Array(edgeCount);
    for (let node = 0; node < nodeCount; node++) {
      let row = 0;
      for (let i = firstIn[node]!, place = 0; i < firstIn[node + 1]!; i++, place++) {
        const edge = inEdges[i]!;
        places[edge] = place | (row << 8);
        if (edgeFlags[edge]! & this.turnRowFlags) row++;
      }
    }
    return (this.arrivalPlaces = places);
  }

  private arrivalPlaces: Uint16Array | undefined;

  /** The edges a turn restriction begins at (EDGE_RESTRICTION_FROM), as bits (bits.ts): derived on first use. */
  restrictionEdges(): Uint32Array {
    const { edgeFlags, edgeCount } = this.graph;
    return (this.restrictionBits ??= bitsWhere(edgeCount, (edge) => (edgeFlags[edge]! & EDGE_RESTRICTION_FROM) !== 0));
  }

  private restrictionBits: Uint32Array | undefined;

  /** The edges with a closure rule (non-zero `edgeClosure`), as bits (bits.ts): derived on first use. */
  closureEdges(): Uint32Array {
    const { edgeClosure, edgeCount } = this.graph;
    return (this.closureBits ??= bitsWhere(edgeCount, (edge) => edgeClosure[edge] !== 0));
  }

  private closureBits: Uint32Array | undefined;

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
    return reverseEdgeOf(this.graph, edge);
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
   * arriving edge with a turn row, a column per leaving edge (the row: `arrivals`). The search inlines this.
   */
  turnBase(edge: number): number {
    const graph = this.graph;
    if (!(graph.edgeFlags[edge]! & this.turnRowFlags)) return NaN;
    const node = graph.edgeHead[edge]!;
    const first = graph.firstOut[node]!;
    return graph.turnRowFirst[node]! + (this.arrivals()[edge]! >> 8) * (graph.firstOut[node + 1]! - first) - first;
  }

  private bearingBetween(edge: number, i: number, j: number): number {
    const a = this.pointIndex(edge, i);
    const b = this.pointIndex(edge, j);
    return bearingDegrees(this.pointLon(a), this.pointLat(a), this.pointLon(b), this.pointLat(b));
  }
}
