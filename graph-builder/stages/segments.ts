import { Growable } from '../growable.ts';
import type { StringTable } from '../writer.ts';
import type { SegmentEdges, SegmentTable } from './edges.ts';
import { routeNamesOfWay, type WayRouteMembership } from './plan-ways.ts';
import type { CollectedNodes, CollectedWays } from './read/collect.ts';

/**
 * Stage `segments`: the segment sections in final numbering. The geometry pool, each segment's
 * OSM way, name, ref, set of cycle routes and ride flags (surface and width for the bicycle types), its two edges, and its climb and descent along the
 * geometry (measured by the `elevation` stage).
 */

export interface SegmentsInput {
  readonly ways: CollectedWays;
  readonly nodes: Pick<CollectedNodes, 'lonE7' | 'latE7'>;
  readonly wayRoutes: ReadonlyMap<number, WayRouteMembership>;
  /** Segments in way order, with their final numbers and final edges. */
  readonly segments: Pick<SegmentTable, 'count' | 'way' | 'pointFirst' | 'points'>;
  readonly segmentNew: Int32Array;
  readonly liveSegments: number;
  readonly segmentEdges: SegmentEdges;
  /** Decimetres climbed and descended along each live segment's geometry, final numbering. */
  readonly segmentAscent: Uint16Array;
  readonly segmentDescent: Uint16Array;
  readonly strings: StringTable;
}

export interface SegmentSections {
  readonly segmentFirstPoint: Uint32Array;
  readonly pointCoords: Int32Array;
  readonly segmentWayId: Float64Array;
  readonly segmentName: Uint32Array;
  readonly segmentRef: Uint32Array;
  readonly segmentRouteSet: Uint32Array;
  readonly segmentAscent: Uint16Array;
  readonly segmentDescent: Uint16Array;
  readonly segmentRideFlags: Uint8Array;
  readonly segmentForwardEdge: Int32Array;
  readonly segmentBackwardEdge: Int32Array;
  readonly routeSetFirst: Uint32Array;
  readonly routeSetMembers: Uint32Array;
}

export function segmentSections(input: SegmentsInput): SegmentSections {
  const { ways, nodes, segments, segmentNew, liveSegments, segmentEdges } = input;
  const segmentFirstPoint = new Uint32Array(liveSegments + 1);
  let pointTotal = 0;
  for (let s = 0; s < segments.count; s++) if (segmentNew[s]! >= 0) pointTotal += segments.pointFirst[s + 1]! - segments.pointFirst[s]!;
  const pointCoords = new Int32Array(pointTotal * 2);
  const sections = {
    segmentWayId: new Float64Array(liveSegments), segmentName: new Uint32Array(liveSegments), segmentRef: new Uint32Array(liveSegments),
    segmentRouteSet: new Uint32Array(liveSegments), segmentAscent: input.segmentAscent, segmentDescent: input.segmentDescent,
    segmentRideFlags: new Uint8Array(liveSegments), segmentForwardEdge: new Int32Array(liveSegments), segmentBackwardEdge: new Int32Array(liveSegments),
  };
  const routeSets = new RouteSets(input.strings);
  const wayRouteSet = new Map<number, number>();
  let point = 0;
  for (let s = 0; s < segments.count; s++) {
    const t = segmentNew[s]!;
    if (t < 0) continue;
    const w = segments.way[s]!;
    segmentFirstPoint[t] = point;
    const forward = segmentEdges.forward[s]!;
    const backward = segmentEdges.backward[s]!;
    for (let p = segments.pointFirst[s]!; p < segments.pointFirst[s + 1]!; p++) {
      const d = segments.points[p]!;
      pointCoords[2 * point] = nodes.lonE7[d]!;
      pointCoords[2 * point + 1] = nodes.latE7[d]!;
      point++;
    }
    sections.segmentWayId[t] = ways.ids[w]!;
    sections.segmentName[t] = ways.nameIds[w]!;
    sections.segmentRef[t] = ways.refIds[w]!;
    sections.segmentRideFlags[t] = ways.attributes[ways.attributeIndex[w]!]!.rideFlags;
    let routeSet = wayRouteSet.get(w);
    if (routeSet === undefined) {
      routeSet = routeSets.idOf([...routeNamesOfWay(ways, input.wayRoutes, w)]);
      wayRouteSet.set(w, routeSet);
    }
    sections.segmentRouteSet[t] = routeSet;
    sections.segmentForwardEdge[t] = forward;
    sections.segmentBackwardEdge[t] = backward;
  }
  segmentFirstPoint[liveSegments] = point;
  return { segmentFirstPoint, pointCoords, ...sections, ...routeSets.sections() };
}

/** Distinct sets of cycle route names: set 0 is the empty one; members are string ids, sorted by name. */
class RouteSets {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly first = new Growable(Uint32Array);
  private readonly members = new Growable(Uint32Array);

  constructor(private readonly strings: StringTable) {
    this.first.push(0);
    this.first.push(0);
  }

  idOf(names: readonly string[]): number {
    const sorted = [...new Set(names)].sort();
    const key = sorted.join('\u0000');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(key, id);
      for (const name of sorted) this.members.push(this.strings.intern(name));
      this.first.push(this.members.length);
    }
    return id;
  }

  sections(): { routeSetFirst: Uint32Array; routeSetMembers: Uint32Array } {
    return { routeSetFirst: this.first.toArray(), routeSetMembers: this.members.toArray() };
  }
}
