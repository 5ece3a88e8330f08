import { readFile } from 'node:fs/promises';
import type { City } from '../core/cities/cities.ts';
import { pointInRing } from '../core/cities/lookup.ts';
import { CLOSURE_CONTINUES, CLOSURE_CYCLING, CLOSURE_DATED, CLOSURE_OUTSIDE_WINDOW, CLOSURE_WALKING, EDGE_ARRIVAL_CONTROL_SHIFT, EDGE_CONTRAFLOW, EDGE_CYCLE_ROUTE, EDGE_CYCLING, EDGE_DISMOUNT, EDGE_JUNCTION_CONTROLLED, EDGE_LINK, EDGE_LIT_SHIFT, EDGE_RESTRICTION_FROM, EDGE_REVERSED, EDGE_ROAD_CLASS_SHIFT, EDGE_ROADWORKS, EDGE_ROUNDABOUT, EDGE_STEPS, EDGE_SURFACE_SHIFT, EDGE_WALK_KIND_SHIFT, EDGE_WALKING, NODE_JUNCTION, WALK_CARRIAGEWAY, RESTRICTION_BICYCLE_SPECIFIC, RESTRICTION_FROM_ONLY, RESTRICTION_SAME_CYCLEWAY, RESTRICTION_VIA_WAY, ROAD_CLASSES, SAFETY_CYCLEWAY, roadClassOf, safetyClassOf } from '../core/graph/flags.ts';
import { type ElevationSource, type GraphSections, type GridSpec } from '../core/graph/layout.ts';
import type { Collected } from './collect.ts';
import { selectComponents, stronglyConnectedComponents } from './components.ts';
import { OSM_ELEVATION_MIN_COVERAGE, type Dem } from './elevation.ts';
import { Growable } from './growable.ts';
import { assignArrivalControls, distinctNeighbourCounts, type NodeControl } from './junction-control.ts';
import { resolveRestriction, type RestrictionGraph } from './restrictions.ts';
import { roadsWithSeparateSidewalks } from './sidewalks.ts';
import { buildGrid } from './spatial-index.ts';
import { routeMembershipRule, type WayAttributes } from './tag-rules.ts';
import type { TimeWindowCompiler } from './time-windows.ts';
import type { Warnings } from './warnings.ts';
import type { StringTable } from './writer.ts';

/**
 * Turns collected ways and nodes into the routing graph: clip to the city, split ways into
 * segments at junctions and control points, create directed edges per mode, resolve restrictions
 * and junction control, keep the connected networks, order nodes along a Hilbert curve and lay
 * everything out as the typed arrays of functions/routing/graph-format.ts.
 */

const ROAD_RANK: Readonly<Record<string, number>> = {
  trunk: 6, primary: 5, secondary: 4, tertiary: 3, unclassified: 2, residential: 2, living_street: 1, service: 1, other: 1, track: 1,
};

export interface AssembleInput {
  readonly city: City;
  readonly collected: Collected;
  readonly strings: StringTable;
  readonly windows: TimeWindowCompiler;
  readonly warnings: Warnings;
  readonly dem: Dem | null;
  /** Named areas to embed, already read: name and rings of [lon, lat]. */
  readonly areas: readonly { readonly name: string; readonly rings: readonly (readonly [number, number])[][] }[];
}

export interface ComponentInfo {
  readonly edges: number;
  readonly km: number;
  /** A node of the component, [lon, lat], to look it up on a map. */
  readonly at: readonly [number, number];
  /** A street name in it, if any. */
  readonly name: string;
}

export interface ComponentSummary {
  /** The networks kept (one per source extract at most), biggest first. */
  readonly kept: readonly ComponentInfo[];
  readonly removed: number;
  readonly removedKm: number;
  /** The largest removed components, biggest first. */
  readonly largestRemoved: readonly ComponentInfo[];
}

export interface RestrictionSummary {
  readonly relations: number;
  readonly applied: number;
  readonly sequences: number;
  readonly conditional: number;
  readonly bicycleSpecific: number;
  readonly viaWay: number;
  readonly sameCyclewayExempt: number;
  readonly skipped: Readonly<Record<string, number>>;
}

export type LandmarkSectionName = 'landmarkNodes' | 'landmarkLeave' | 'landmarkFrom' | 'landmarkTo';

export interface AssembledGraph {
  /** Everything but the string table (the caller's) and the landmark tables (computed on the result). */
  readonly sections: Omit<GraphSections, 'stringOffsets' | 'stringBytes' | LandmarkSectionName>;
  readonly grid: GridSpec;
  readonly bbox: readonly [number, number, number, number];
  readonly elevation: { readonly source: ElevationSource; readonly nodesBySource: Record<ElevationSource, number> };
  readonly components: { readonly cycling: ComponentSummary; readonly walking: ComponentSummary };
  readonly restrictions: RestrictionSummary;
  readonly closures: { readonly ways: number; readonly records: number };
  readonly waysOutsideCity: number;
  /** Carriageways taken out of the walking network because a pavement runs alongside as its own way. */
  readonly separatePavements: { readonly segments: number; readonly km: number };
}

const EARTH_RADIUS_METRES = 6_371_008.8;

function haversineMetres(lon1E7: number, lat1E7: number, lon2E7: number, lat2E7: number): number {
  const toRadians = Math.PI / 180 / 1e7;
  const dLat = (lat2E7 - lat1E7) * toRadians;
  const dLon = (lon2E7 - lon1E7) * toRadians;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1E7 * toRadians) * Math.cos(lat2E7 * toRadians) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(a)));
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

/** Edges of one direction per segment, with everything the later stages need. */
class EdgeList {
  tail = new Growable(Uint32Array);
  head = new Growable(Uint32Array);
  length = new Growable(Float32Array);
  flags = new Growable(Uint32Array);
  segment = new Growable(Uint32Array);
  closure = new Growable(Uint16Array);

  get count(): number {
    return this.head.length;
  }
}

interface EdgeArrays {
  tail: Uint32Array;
  head: Uint32Array;
  length: Float32Array;
  flags: Uint32Array;
  segment: Uint32Array;
  closure: Uint16Array;
}

/** Edge arrays in the given order (order[newIndex] = oldIndex); returns old -> new too. */
function permuteEdges(edges: EdgeArrays, order: ArrayLike<number>): { edges: EdgeArrays; newIndexOf: Int32Array } {
  const n = order.length;
  const out: EdgeArrays = {
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

interface Csr {
  firstOut: Uint32Array;
  firstIn: Uint32Array;
  inEdges: Uint32Array;
}

/** Order of edges sorted by tail (stable), for a node count. */
function orderByTail(tail: ArrayLike<number>, keep: (edge: number) => boolean, nodeCount: number): Uint32Array {
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

function buildCsr(edges: EdgeArrays, nodeCount: number): Csr {
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

export async function assembleGraph(input: AssembleInput): Promise<AssembledGraph> {
  const { city, collected, strings, windows, warnings, dem } = input;
  const { ways, nodes } = collected;
  const nodeTotal = nodes.index.size;

  // ---- clip: keep ways with a node inside the city ----
  const [bLon0, bLat0, bLon1, bLat1] = [
    Math.min(...city.boundary.map((p) => p[0])), Math.min(...city.boundary.map((p) => p[1])),
    Math.max(...city.boundary.map((p) => p[0])), Math.max(...city.boundary.map((p) => p[1])),
  ];
  const inside = new Int8Array(nodeTotal).fill(-1);
  const isInside = (d: number): boolean => {
    if (inside[d] === -1) {
      const lon = nodes.lonE7[d]! / 1e7;
      const lat = nodes.latE7[d]! / 1e7;
      inside[d] = lon >= bLon0 && lon <= bLon1 && lat >= bLat0 && lat <= bLat1 && pointInRing([lon, lat], city.boundary) ? 1 : 0;
    }
    return inside[d] === 1;
  };
  const denseRef = (position: number): number => nodes.index.get(ways.nodeRefs[position]!);
  const wayKept = new Uint8Array(ways.count);
  let waysOutsideCity = 0;
  for (let w = 0; w < ways.count; w++) {
    for (let p = ways.nodeFirst[w]!; p < ways.nodeFirst[w + 1]!; p++) {
      const d = denseRef(p);
      if (nodes.present[d] && isInside(d)) {
        wayKept[w] = 1;
        break;
      }
    }
    if (!wayKept[w]) waysOutsideCity++;
  }

  // ---- graph nodes: junctions, way ends, control points, gaps ----
  const usage = new Uint8Array(nodeTotal);
  const isGraphNode = new Uint8Array(nodeTotal);
  for (const d of nodes.controls.keys()) isGraphNode[d] = 1;
  for (let w = 0; w < ways.count; w++) {
    if (!wayKept[w]) continue;
    const first = ways.nodeFirst[w]!;
    const last = ways.nodeFirst[w + 1]! - 1;
    for (let p = first; p <= last; p++) {
      const d = denseRef(p);
      if (!nodes.present[d]) {
        warnings.count('way nodes missing from the extracts (way split there)', String(ways.ids[w]));
        if (p > first) isGraphNode[denseRef(p - 1)] = 1;
        if (p < last) isGraphNode[denseRef(p + 1)] = 1;
        continue;
      }
      if (usage[d]! < 255) usage[d]!++;
      if (usage[d]! >= 2 || p === first || p === last) isGraphNode[d] = 1;
    }
  }
  // A stretch that starts and ends at the same node (closed ways, lollipops) gets a middle node,
  // so every segment joins two distinct nodes.
  const forEachStretch = (w: number, visit: (points: number[]) => void): void => {
    let points: number[] = [];
    for (let p = ways.nodeFirst[w]!; p < ways.nodeFirst[w + 1]!; p++) {
      const d = denseRef(p);
      if (!nodes.present[d]) {
        points = [];
        continue;
      }
      if (points.length > 0 && points[points.length - 1] === d) continue;
      points.push(d);
      if (isGraphNode[d] && points.length > 1) {
        visit(points);
        points = [d];
      }
    }
  };
  for (let w = 0; w < ways.count; w++) {
    if (!wayKept[w]) continue;
    forEachStretch(w, (points) => {
      if (points[0] === points[points.length - 1] && points.length >= 3) isGraphNode[points[Math.floor(points.length / 2)]!] = 1;
    });
  }

  // ---- way-level attributes: routes, closures ----
  const wayRoutes = new Map<number, { names: Set<string>; cycle: boolean; foot: boolean }>();
  const addRoute = (wayId: number, name: string | null, kind: 'bicycle' | 'foot'): void => {
    const w = ways.index.get(wayId);
    if (w < 0) return;
    let entry = wayRoutes.get(w);
    if (!entry) {
      entry = { names: new Set(), cycle: false, foot: false };
      wayRoutes.set(w, entry);
    }
    if (kind === 'bicycle') {
      entry.cycle = true;
      if (name) entry.names.add(name);
    } else entry.foot = true;
  };
  for (const route of collected.routes.values()) {
    // Ways of member relations (a superroute's stages) carry the parent's name too.
    const visited = new Set<number>();
    const walk = (relation: typeof route, depth: number): void => {
      for (const wayId of relation.ways) addRoute(wayId, route.name, route.kind);
      if (depth >= 4) return;
      for (const child of relation.relations) {
        const childRoute = collected.routes.get(child);
        if (childRoute && !visited.has(child)) {
          visited.add(child);
          walk(childRoute, depth + 1);
        }
      }
    };
    walk(route, 0);
  }
  const routeSetIds = new Map<string, number>([['', 0]]);
  const routeSetFirst = new Growable(Uint32Array);
  const routeSetMembers = new Growable(Uint32Array);
  routeSetFirst.push(0);
  routeSetFirst.push(0);
  const routeSetOf = (names: readonly string[]): number => {
    const sorted = [...new Set(names)].sort();
    const key = sorted.join('\u0000');
    let id = routeSetIds.get(key);
    if (id === undefined) {
      id = routeSetIds.size;
      routeSetIds.set(key, id);
      for (const name of sorted) routeSetMembers.push(strings.intern(name));
      routeSetFirst.push(routeSetMembers.length);
    }
    return id;
  };

  const closureWindow = new Growable(Uint16Array);
  const closureFlags = new Growable(Uint8Array);
  const closureSource = new Growable(Uint32Array);
  const closureGroups = new Map<string, number>();
  let closedWays = 0;

  interface WayPlan {
    attributes: WayAttributes;
    cyclingForward: boolean;
    cyclingBackward: boolean;
    walking: boolean;
    onCycleRoute: boolean;
    onFootRoute: boolean;
    closure: number;
  }
  const planWay = (w: number): WayPlan => {
    const attributes = ways.attributes[ways.attributeIndex[w]!]!;
    let cyclingForward = attributes.forward.cycling;
    let cyclingBackward = attributes.backward.cycling;
    let walking = attributes.walking;
    const records: { window: number; flags: number; source: number }[] = [];
    for (const rule of attributes.timeRules) {
      const window = windows.compile(rule.condition, 'conditional tags with an unparseable time condition (ignored)');
      if (window === null) {
        if (rule.grantsAccess && rule.cycling) cyclingForward = cyclingBackward = false;
        if (rule.grantsAccess && rule.walking) walking = false;
        continue;
      }
      const flags = (rule.cycling ? CLOSURE_CYCLING : 0) | (rule.walking ? CLOSURE_WALKING : 0)
        | (rule.outsideWindow ? CLOSURE_OUTSIDE_WINDOW : 0) | (windows.windows[window]!.dated ? CLOSURE_DATED : 0);
      records.push({ window, flags, source: strings.intern(rule.source) });
    }
    let closure = 0;
    if (records.length > 0) {
      closedWays++;
      const key = JSON.stringify(records);
      let start = closureGroups.get(key);
      if (start === undefined) {
        start = closureWindow.length;
        records.forEach((record, i) => {
          closureWindow.push(record.window);
          closureFlags.push(record.flags | (i < records.length - 1 ? CLOSURE_CONTINUES : 0));
          closureSource.push(record.source);
        });
        closureGroups.set(key, start);
      }
      if (start + 1 > 0xffff) warnings.count('closures beyond the 65535 the format holds (dropped)');
      else closure = start + 1;
    }
    const routes = wayRoutes.get(w);
    const onCycleRoute = attributes.signedRoute || routes?.cycle === true;
    return { attributes, cyclingForward, cyclingBackward, walking, onCycleRoute, onFootRoute: routes?.foot === true, closure };
  };

  // ---- segments and directed edges ----
  const graphNodeOf = new Int32Array(nodeTotal).fill(-1);
  const graphNodeDense = new Growable(Uint32Array);
  const graphNode = (d: number): number => {
    if (graphNodeOf[d] === -1) {
      graphNodeOf[d] = graphNodeDense.length;
      graphNodeDense.push(d);
    }
    return graphNodeOf[d]!;
  };
  const segWay = new Growable(Uint32Array);
  const segStart = new Growable(Uint32Array);
  const segEnd = new Growable(Uint32Array);
  const segPointFirst = new Growable(Uint32Array);
  const segPoints = new Growable(Uint32Array);
  const segLength = new Growable(Float64Array);
  const segForward = new Growable(Int32Array);
  const segBackward = new Growable(Int32Array);
  const wayFirstSegment = new Uint32Array(ways.count + 1);
  const edges = new EdgeList();
  segPointFirst.push(0);

  for (let w = 0; w < ways.count; w++) {
    wayFirstSegment[w] = segWay.length;
    if (!wayKept[w]) continue;
    const plan = planWay(w);
    const a = plan.attributes;
    const shared = (a.lit << EDGE_LIT_SHIFT) | (a.surfacePenalty << EDGE_SURFACE_SHIFT) | (a.roadworks ? EDGE_ROADWORKS : 0)
      | (a.walkKind << EDGE_WALK_KIND_SHIFT) | (a.steps ? EDGE_STEPS : 0) | (a.roundabout ? EDGE_ROUNDABOUT : 0)
      | (a.roadClass << EDGE_ROAD_CLASS_SHIFT) | (a.link ? EDGE_LINK : 0) | (plan.onCycleRoute ? EDGE_CYCLE_ROUTE : 0)
      | (plan.walking ? EDGE_WALKING : 0);
    const directionFlags = (forward: boolean): number => {
      const d = forward ? a.forward : a.backward;
      const cycling = forward ? plan.cyclingForward : plan.cyclingBackward;
      const safety = routeMembershipRule(d.safety, a.kind, plan.onCycleRoute, plan.onFootRoute, a.segregated);
      return shared | safety | (cycling ? EDGE_CYCLING : 0) | (cycling && d.dismount ? EDGE_DISMOUNT : 0)
        | (cycling && d.contraflow ? EDGE_CONTRAFLOW : 0) | (forward ? 0 : EDGE_REVERSED);
    };
    const forwardFlags = directionFlags(true);
    const backwardFlags = directionFlags(false);
    forEachStretch(w, (points) => {
      const s = segWay.length;
      const start = graphNode(points[0]!);
      const end = graphNode(points[points.length - 1]!);
      let length = 0;
      for (let i = 0; i < points.length; i++) {
        segPoints.push(points[i]!);
        if (i > 0) length += haversineMetres(nodes.lonE7[points[i - 1]!]!, nodes.latE7[points[i - 1]!]!, nodes.lonE7[points[i]!]!, nodes.latE7[points[i]!]!);
      }
      segPointFirst.push(segPoints.length);
      segWay.push(w);
      segStart.push(start);
      segEnd.push(end);
      segLength.push(length);
      const addEdge = (from: number, to: number, flags: number): number => {
        if (!(flags & (EDGE_CYCLING | EDGE_WALKING))) return -1;
        edges.tail.push(from);
        edges.head.push(to);
        edges.length.push(length);
        edges.flags.push(flags);
        edges.segment.push(s);
        edges.closure.push(plan.closure);
        return edges.count - 1;
      };
      segForward.push(addEdge(start, end, forwardFlags));
      segBackward.push(addEdge(end, start, backwardFlags));
    });
  }
  wayFirstSegment[ways.count] = segWay.length;

  // ---- edges contiguous by tail ----
  let nodeCount = graphNodeDense.length;
  let edgeArrays: EdgeArrays = {
    tail: edges.tail.toArray(), head: edges.head.toArray(), length: edges.length.toArray(), flags: edges.flags.toArray(),
    segment: edges.segment.toArray(), closure: edges.closure.toArray(),
  };
  const segmentForward = segForward.toArray();
  const segmentBackward = segBackward.toArray();
  const remapSegmentEdges = (newIndexOf: Int32Array): void => {
    for (let s = 0; s < segmentForward.length; s++) {
      segmentForward[s] = segmentForward[s]! >= 0 ? newIndexOf[segmentForward[s]!]! : -1;
      segmentBackward[s] = segmentBackward[s]! >= 0 ? newIndexOf[segmentBackward[s]!]! : -1;
    }
  };
  {
    const sorted = permuteEdges(edgeArrays, orderByTail(edgeArrays.tail, () => true, nodeCount));
    edgeArrays = sorted.edges;
    remapSegmentEdges(sorted.newIndexOf);
  }
  let csr = buildCsr(edgeArrays, nodeCount);

  // ---- carriageways whose pavement is drawn separately leave the walking network (spec 1.2.10) ----
  const segmentEdges = (s: number): number[] => [segmentForward[s]!, segmentBackward[s]!].filter((e) => e >= 0);
  const attributesOfSegment = (s: number): WayAttributes => ways.attributes[ways.attributeIndex[segWay.get(s)]!]!;
  const separatePavement = roadsWithSeparateSidewalks({
    segmentCount: segWay.length,
    first: segPointFirst.toArray(),
    points: segPoints.toArray(),
    lonE7: nodes.lonE7,
    latE7: nodes.latE7,
    isRoad: (s) => {
      const attributes = attributesOfSegment(s);
      return attributes.kind === 'road' && attributes.walkKind === WALK_CARRIAGEWAY && segmentEdges(s).some((e) => edgeArrays.flags[e]! & EDGE_WALKING);
    },
    isSidewalk: (s) => attributesOfSegment(s).sidewalk && segmentEdges(s).some((e) => edgeArrays.flags[e]! & EDGE_WALKING),
  });
  let separatePavementSegments = 0;
  let separatePavementMetres = 0;
  for (let s = 0; s < segWay.length; s++) {
    if (!separatePavement[s]) continue;
    separatePavementSegments++;
    separatePavementMetres += segLength.get(s);
    for (const e of segmentEdges(s)) edgeArrays.flags[e] = edgeArrays.flags[e]! & ~EDGE_WALKING;
  }

  // ---- turn restrictions ----
  const isCycling = (e: number): boolean => (edgeArrays.flags[e]! & EDGE_CYCLING) !== 0;
  const segmentStartArray = segStart.toArray();
  const segmentEndArray = segEnd.toArray();
  const restrictionGraph: RestrictionGraph = {
    wayIndex: (id) => {
      const w = ways.index.get(id);
      return w >= 0 && wayKept[w] ? w : -1;
    },
    nodeIndex: (id) => {
      const d = nodes.index.get(id);
      return d >= 0 ? graphNodeOf[d]! : -1;
    },
    waySegments: (w) => {
      const list: number[] = [];
      for (let s = wayFirstSegment[w]!; s < wayFirstSegment[w + 1]!; s++) list.push(s);
      return list;
    },
    segmentStart: (s) => segmentStartArray[s]!,
    segmentEnd: (s) => segmentEndArray[s]!,
    cyclingEdge: (s, forward) => {
      const e = forward ? segmentForward[s]! : segmentBackward[s]!;
      return e >= 0 && isCycling(e) ? e : -1;
    },
    cyclingEdgesFrom: (v) => {
      const list: number[] = [];
      for (let e = csr.firstOut[v]!; e < csr.firstOut[v + 1]!; e++) if (isCycling(e)) list.push(e);
      return list;
    },
  };
  const routeNamesOfWay = (w: number): ReadonlySet<string> =>
    new Set([...ways.attributes[ways.attributeIndex[w]!]!.routeNames, ...(wayRoutes.get(w)?.names ?? [])]);
  const cyclePathClasses = new Set([ROAD_CLASSES.indexOf('cycleway'), ROAD_CLASSES.indexOf('path')]);
  /**
   * Spec 1.2.4: both approaches are on the same cycleway: a cycle path of its own (not a road with
   * a lane or track, whose restrictions bind its riders too), the same way, the same named route
   * or the same name.
   */
  const sameCycleway = (from: number, to: number): boolean => {
    const fromFlags = edgeArrays.flags[from]!;
    const toFlags = edgeArrays.flags[to]!;
    if (safetyClassOf(fromFlags) !== SAFETY_CYCLEWAY || safetyClassOf(toFlags) !== SAFETY_CYCLEWAY) return false;
    if (!cyclePathClasses.has(roadClassOf(fromFlags)) || !cyclePathClasses.has(roadClassOf(toFlags))) return false;
    const fromWay = segWay.get(edgeArrays.segment[from]!);
    const toWay = segWay.get(edgeArrays.segment[to]!);
    if (fromWay === toWay) return true;
    const fromRoutes = routeNamesOfWay(fromWay);
    for (const name of routeNamesOfWay(toWay)) if (fromRoutes.has(name)) return true;
    const name = ways.nameIds[fromWay]!;
    return name !== 0 && name === ways.nameIds[toWay];
  };

  interface PendingRestriction { edges: number[]; flags: number; window: number }
  let restrictionsApplied = 0;
  let conditionalCount = 0;
  let bicycleSpecificCount = 0;
  let viaWayCount = 0;
  const skipped: Record<string, number> = {};
  const pending: PendingRestriction[] = [];
  const seen = new Set<string>();
  for (const spec of collected.restrictions) {
    let window = 0;
    if (spec.condition !== null) {
      const compiled = windows.compile(spec.condition, 'restrictions with an unparseable time condition (ignored)');
      if (compiled === null) {
        skipped['unparseable condition'] = (skipped['unparseable condition'] ?? 0) + 1;
        continue;
      }
      window = compiled + 1;
    }
    const resolution = resolveRestriction(spec, restrictionGraph);
    if ('skipped' in resolution) {
      skipped[resolution.skipped] = (skipped[resolution.skipped] ?? 0) + 1;
      continue;
    }
    restrictionsApplied++;
    if (window) conditionalCount++;
    if (spec.bicycleSpecific) bicycleSpecificCount++;
    if (spec.via.type === 'ways') viaWayCount++;
    for (const sequence of resolution.sequences) {
      let flags = (spec.kind === 'only' ? RESTRICTION_FROM_ONLY : 0) | (spec.bicycleSpecific ? RESTRICTION_BICYCLE_SPECIFIC : 0)
        | (sequence.length > 2 ? RESTRICTION_VIA_WAY : 0);
      if (spec.kind === 'no' && sameCycleway(sequence[0]!, sequence[sequence.length - 1]!)) flags |= RESTRICTION_SAME_CYCLEWAY;
      const key = `${sequence.join(',')}|${flags}|${window}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pending.push({ edges: sequence, flags, window });
    }
  }

  // ---- junction control ----
  const arrival = assignArrivalControls({
    nodeCount,
    edgeTail: edgeArrays.tail,
    edgeHead: edgeArrays.head,
    edgeLength: edgeArrays.length,
    edgeReversed: Uint8Array.from(edgeArrays.flags, (f) => (f & EDGE_REVERSED ? 1 : 0)),
    edgeRoadRank: Uint8Array.from(edgeArrays.flags, (f) => ROAD_RANK[ROAD_CLASSES[roadClassOf(f)]!] ?? 0),
    firstOut: csr.firstOut,
    firstIn: csr.firstIn,
    inEdges: csr.inEdges,
    control: (v): NodeControl | null => nodes.controls.get(graphNodeDense.get(v)) ?? null,
  });
  for (let e = 0; e < edgeArrays.flags.length; e++) {
    edgeArrays.flags[e] = edgeArrays.flags[e]! | (arrival.control[e]! << EDGE_ARRIVAL_CONTROL_SHIFT) | (arrival.junctionControlled[e] ? EDGE_JUNCTION_CONTROLLED : 0);
  }

  // ---- connectivity (spec 1.2.9), per mode ----
  const csrGraph = { nodeCount, firstOut: csr.firstOut, edgeHead: edgeArrays.head, edgeTail: edgeArrays.tail };
  const pruneMode = (bit: number): ComponentSummary => {
    const usable = (e: number): boolean => (edgeArrays.flags[e]! & bit) !== 0;
    const components = stronglyConnectedComponents(csrGraph, usable);
    const groupOf = (e: number): number => ways.source[segWay.get(edgeArrays.segment[e]!)]!;
    const selection = selectComponents(csrGraph, components, usable, groupOf, collected.sources.length);
    let removedMetres = 0;
    const tally = new Map<number, { edges: number; metres: number; node: number; name: number }>();
    for (let e = 0; e < edgeArrays.flags.length; e++) {
      if (!usable(e)) continue;
      const c = components.component[edgeArrays.tail[e]!]!;
      const inside = c === components.component[edgeArrays.head[e]!];
      if (!inside || !selection.keep[c]) {
        edgeArrays.flags[e] = edgeArrays.flags[e]! & ~bit;
        removedMetres += edgeArrays.length[e]!;
      }
      if (!inside) continue; // an edge between components belongs to neither
      const entry = tally.get(c) ?? { edges: 0, metres: 0, node: edgeArrays.tail[e]!, name: 0 };
      entry.edges++;
      entry.metres += edgeArrays.length[e]!;
      entry.name ||= ways.nameIds[segWay.get(edgeArrays.segment[e]!)]!;
      tally.set(c, entry);
    }
    const describe = ([, entry]: [number, { edges: number; metres: number; node: number; name: number }]): ComponentInfo => {
      const d = graphNodeDense.get(entry.node);
      return {
        edges: entry.edges,
        km: Math.round(entry.metres) / 1000,
        at: [nodes.lonE7[d]! / 1e7, nodes.latE7[d]! / 1e7],
        name: strings.strings[entry.name] ?? '',
      };
    };
    const bySize = [...tally.entries()].sort((x, y) => y[1].metres - x[1].metres);
    const removed = bySize.filter(([c]) => !selection.keep[c]);
    return {
      kept: bySize.filter(([c]) => selection.keep[c]).map(describe),
      removed: removed.length,
      removedKm: Math.round(removedMetres) / 1000,
      largestRemoved: removed.slice(0, 5).map(describe),
    };
  };
  const cyclingComponents = pruneMode(EDGE_CYCLING);
  const walkingComponents = pruneMode(EDGE_WALKING);
  // Walking-only edges may carry cycling bits that now mean nothing; clear them for clarity.
  for (let e = 0; e < edgeArrays.flags.length; e++) {
    if (!(edgeArrays.flags[e]! & EDGE_CYCLING)) edgeArrays.flags[e] = edgeArrays.flags[e]! & ~(EDGE_DISMOUNT | EDGE_CONTRAFLOW);
  }

  // ---- final numbering: live nodes in Hilbert order, edges by tail, live segments in way order ----
  const liveEdge = (e: number): boolean => (edgeArrays.flags[e]! & (EDGE_CYCLING | EDGE_WALKING)) !== 0;
  const nodeLive = new Uint8Array(nodeCount);
  for (let e = 0; e < edgeArrays.head.length; e++) {
    if (liveEdge(e)) nodeLive[edgeArrays.tail[e]!] = nodeLive[edgeArrays.head[e]!] = 1;
  }
  const liveNodes: number[] = [];
  for (let v = 0; v < nodeCount; v++) if (nodeLive[v]) liveNodes.push(v);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const v of liveNodes) {
    const d = graphNodeDense.get(v);
    minLon = Math.min(minLon, nodes.lonE7[d]!);
    maxLon = Math.max(maxLon, nodes.lonE7[d]!);
    minLat = Math.min(minLat, nodes.latE7[d]!);
    maxLat = Math.max(maxLat, nodes.latE7[d]!);
  }
  const spanLon = Math.max(1, maxLon - minLon);
  const spanLat = Math.max(1, maxLat - minLat);
  const hilbert = new Float64Array(nodeCount);
  for (const v of liveNodes) {
    const d = graphNodeDense.get(v);
    hilbert[v] = hilbertIndex(Math.floor(((nodes.lonE7[d]! - minLon) / spanLon) * 65535), Math.floor(((nodes.latE7[d]! - minLat) / spanLat) * 65535));
  }
  liveNodes.sort((x, y) => hilbert[x]! - hilbert[y]!);
  const newNode = new Int32Array(nodeCount).fill(-1);
  liveNodes.forEach((v, i) => (newNode[v] = i));
  const finalNodeCount = liveNodes.length;
  for (let e = 0; e < edgeArrays.head.length; e++) {
    if (!liveEdge(e)) continue;
    edgeArrays.tail[e] = newNode[edgeArrays.tail[e]!]!;
    edgeArrays.head[e] = newNode[edgeArrays.head[e]!]!;
  }
  const permuted = permuteEdges(edgeArrays, orderByTail(edgeArrays.tail, liveEdge, finalNodeCount));
  const edgeNewIndex = permuted.newIndexOf;
  edgeArrays = permuted.edges;
  remapSegmentEdges(edgeNewIndex);
  nodeCount = finalNodeCount;
  csr = buildCsr(edgeArrays, nodeCount);
  const edgeCount = edgeArrays.head.length;

  const segmentNew = new Int32Array(segWay.length).fill(-1);
  let liveSegments = 0;
  for (let s = 0; s < segWay.length; s++) if (segmentForward[s]! >= 0 || segmentBackward[s]! >= 0) segmentNew[s] = liveSegments++;
  for (let e = 0; e < edgeCount; e++) edgeArrays.segment[e] = segmentNew[edgeArrays.segment[e]!]!;

  // ---- restrictions in final numbering, sorted by first edge ----
  const finalRestrictions = pending
    .map((r) => ({ ...r, edges: r.edges.map((e) => edgeNewIndex[e]!) }))
    .filter((r) => r.edges.every((e) => e >= 0 && (edgeArrays.flags[e]! & EDGE_CYCLING) !== 0))
    .sort((x, y) => x.edges[0]! - y.edges[0]! || x.edges.length - y.edges.length);
  const restrictionFirst = new Uint32Array(finalRestrictions.length + 1);
  const restrictionEdgesList: number[] = [];
  const restrictionFlags = new Uint8Array(finalRestrictions.length);
  const restrictionWindow = new Uint16Array(finalRestrictions.length);
  finalRestrictions.forEach((r, t) => {
    restrictionEdgesList.push(...r.edges);
    restrictionFirst[t + 1] = restrictionEdgesList.length;
    restrictionFlags[t] = r.flags;
    restrictionWindow[t] = r.window;
    edgeArrays.flags[r.edges[0]!] = edgeArrays.flags[r.edges[0]!]! | EDGE_RESTRICTION_FROM;
  });
  const sameCyclewayExempt = finalRestrictions.filter((r) => r.flags & RESTRICTION_SAME_CYCLEWAY).length;

  // ---- elevation ----
  const liveDense = (v: number): number => graphNodeDense.get(liveNodes[v]!);
  let demNodes = 0;
  const demValue = (d: number): number => (dem ? dem.sample(nodes.lonE7[d]! / 1e7, nodes.latE7[d]! / 1e7) : NaN);
  const nodeElevation = new Float32Array(nodeCount);
  const nodeDem = new Float64Array(nodeCount);
  for (let v = 0; v < nodeCount; v++) {
    nodeDem[v] = demValue(liveDense(v));
    if (!Number.isNaN(nodeDem[v]!)) demNodes++;
  }
  let osmTagged = 0;
  for (let v = 0; v < nodeCount; v++) if (nodes.osmElevation.has(liveDense(v))) osmTagged++;
  const useOsm = nodeCount > 0 && osmTagged / nodeCount >= OSM_ELEVATION_MIN_COVERAGE;
  if (!useOsm && osmTagged > 0 && demNodes < nodeCount) {
    warnings.count('OSM ele too sparse to use (under half the nodes carry it): flat instead', `${osmTagged} of ${nodeCount} nodes`);
  }
  const nodesBySource: Record<ElevationSource, number> = { dem: 0, osm: 0, flat: 0 };
  const pointElevation = (d: number): number => {
    const fromDem = demValue(d);
    if (!Number.isNaN(fromDem)) return fromDem;
    if (useOsm) return nodes.osmElevation.get(d) ?? NaN;
    return NaN;
  };
  for (let v = 0; v < nodeCount; v++) {
    const d = liveDense(v);
    if (!Number.isNaN(nodeDem[v]!)) {
      nodeElevation[v] = nodeDem[v]!;
      nodesBySource.dem++;
    } else if (useOsm && nodes.osmElevation.has(d)) {
      nodeElevation[v] = nodes.osmElevation.get(d)!;
      nodesBySource.osm++;
    } else {
      nodeElevation[v] = NaN;
      nodesBySource.flat++;
    }
  }
  // Nodes without a value take their neighbours' mean (a few rounds), else 0.
  for (let round = 0; round < 3 && (useOsm || nodesBySource.dem > 0); round++) {
    for (let v = 0; v < nodeCount; v++) {
      if (!Number.isNaN(nodeElevation[v]!)) continue;
      let sum = 0;
      let count = 0;
      for (let e = csr.firstOut[v]!; e < csr.firstOut[v + 1]!; e++) {
        const value = nodeElevation[edgeArrays.head[e]!]!;
        if (!Number.isNaN(value)) {
          sum += value;
          count++;
        }
      }
      if (count > 0) nodeElevation[v] = sum / count;
    }
  }
  for (let v = 0; v < nodeCount; v++) if (Number.isNaN(nodeElevation[v]!)) nodeElevation[v] = 0;
  const elevationSource: ElevationSource = nodesBySource.dem >= nodesBySource.osm && nodesBySource.dem >= nodesBySource.flat
    ? 'dem'
    : nodesBySource.osm >= nodesBySource.flat ? 'osm' : 'flat';

  // ---- segments: geometry pool, names, climb ----
  const segmentFirstPoint = new Uint32Array(liveSegments + 1);
  let pointTotal = 0;
  for (let s = 0; s < segWay.length; s++) {
    if (segmentNew[s]! < 0) continue;
    pointTotal += segPointFirst.get(s + 1) - segPointFirst.get(s);
  }
  const pointCoords = new Int32Array(pointTotal * 2);
  const segmentWayId = new Float64Array(liveSegments);
  const segmentName = new Uint32Array(liveSegments);
  const segmentRef = new Uint32Array(liveSegments);
  const segmentRouteSet = new Uint32Array(liveSegments);
  const segmentAscent = new Uint16Array(liveSegments);
  const segmentDescent = new Uint16Array(liveSegments);
  const segmentForwardEdge = new Int32Array(liveSegments);
  const segmentBackwardEdge = new Int32Array(liveSegments);
  const wayRouteSet = new Map<number, number>();
  let point = 0;
  for (let s = 0; s < segWay.length; s++) {
    const t = segmentNew[s]!;
    if (t < 0) continue;
    const w = segWay.get(s);
    segmentFirstPoint[t] = point;
    const startNode = edgeArrays.tail[segmentForward[s]! >= 0 ? segmentForward[s]! : segmentBackward[s]!]!;
    const endNode = edgeArrays.head[segmentForward[s]! >= 0 ? segmentForward[s]! : segmentBackward[s]!]!;
    const [fromNode, toNode] = segmentForward[s]! >= 0 ? [startNode, endNode] : [endNode, startNode];
    const first = segPointFirst.get(s);
    const last = segPointFirst.get(s + 1);
    const elevations: number[] = [];
    for (let p = first; p < last; p++) {
      const d = segPoints.get(p);
      pointCoords[2 * point] = nodes.lonE7[d]!;
      pointCoords[2 * point + 1] = nodes.latE7[d]!;
      point++;
      elevations.push(p === first ? nodeElevation[fromNode]! : p === last - 1 ? nodeElevation[toNode]! : pointElevation(d));
    }
    // Interior points without a value are interpolated between their neighbours along the way.
    for (let i = 1; i < elevations.length - 1; i++) {
      if (!Number.isNaN(elevations[i]!)) continue;
      let j = i + 1;
      while (Number.isNaN(elevations[j]!)) j++;
      for (let k = i; k < j; k++) elevations[k] = elevations[i - 1]! + ((elevations[j]! - elevations[i - 1]!) * (k - i + 1)) / (j - i + 1);
    }
    let ascent = 0;
    let descent = 0;
    for (let i = 1; i < elevations.length; i++) {
      const delta = elevations[i]! - elevations[i - 1]!;
      if (delta > 0) ascent += delta;
      else descent -= delta;
    }
    segmentAscent[t] = Math.min(65535, Math.round(ascent * 10));
    segmentDescent[t] = Math.min(65535, Math.round(descent * 10));
    segmentWayId[t] = ways.ids[w]!;
    segmentName[t] = ways.nameIds[w]!;
    segmentRef[t] = ways.refIds[w]!;
    let routeSet = wayRouteSet.get(w);
    if (routeSet === undefined) {
      routeSet = routeSetOf([...routeNamesOfWay(w)]);
      wayRouteSet.set(w, routeSet);
    }
    segmentRouteSet[t] = routeSet;
    segmentForwardEdge[t] = segmentForward[s]!;
    segmentBackwardEdge[t] = segmentBackward[s]!;
  }
  segmentFirstPoint[liveSegments] = point;

  // ---- nodes ----
  const nodeCoords = new Int32Array(nodeCount * 2);
  const nodeFlags = new Uint16Array(nodeCount);
  const degree = distinctNeighbourCounts({ nodeCount, firstOut: csr.firstOut, edgeHead: edgeArrays.head, firstIn: csr.firstIn, inEdges: csr.inEdges, edgeTail: edgeArrays.tail });
  for (let v = 0; v < nodeCount; v++) {
    const d = liveDense(v);
    nodeCoords[2 * v] = nodes.lonE7[d]!;
    nodeCoords[2 * v + 1] = nodes.latE7[d]!;
    nodeFlags[v] = (nodes.controls.get(d)?.flags ?? 0) | (degree[v]! >= 3 ? NODE_JUNCTION : 0);
  }

  const grid = buildGrid(pointCoords, segmentFirstPoint);

  // ---- areas ----
  const areaName = new Uint32Array(input.areas.length);
  const areaFirstRing = new Uint32Array(input.areas.length + 1);
  const ringFirstPoint = new Growable(Uint32Array);
  const areaCoords = new Growable(Int32Array);
  ringFirstPoint.push(0);
  input.areas.forEach((area, a) => {
    areaName[a] = strings.intern(area.name);
    for (const ring of area.rings) {
      for (const [lon, lat] of ring) {
        areaCoords.push(Math.round(lon * 1e7));
        areaCoords.push(Math.round(lat * 1e7));
      }
      ringFirstPoint.push(areaCoords.length / 2);
    }
    areaFirstRing[a + 1] = ringFirstPoint.length - 1;
  });

  // ---- time windows ----
  const windowKind = new Uint8Array(windows.windows.length);
  const windowFirst = new Uint32Array(windows.windows.length + 1);
  const windowIntervals: number[] = [];
  const windowSource = new Uint32Array(windows.windows.length);
  windows.windows.forEach((window, i) => {
    windowKind[i] = window.kind;
    windowIntervals.push(...window.intervals);
    windowFirst[i + 1] = windowIntervals.length / 2;
    windowSource[i] = strings.intern(window.source);
  });

  return {
    sections: {
      nodeCoords, nodeElevation, nodeFlags,
      firstOut: csr.firstOut, edgeHead: edgeArrays.head, edgeTail: edgeArrays.tail, edgeLength: edgeArrays.length,
      edgeFlags: edgeArrays.flags, edgeSegment: edgeArrays.segment, edgeClosure: edgeArrays.closure,
      firstIn: csr.firstIn, inEdges: csr.inEdges,
      segmentFirstPoint, pointCoords, segmentWayId, segmentName, segmentRef, segmentRouteSet, segmentAscent, segmentDescent,
      segmentForwardEdge, segmentBackwardEdge,
      routeSetFirst: routeSetFirst.toArray(), routeSetMembers: routeSetMembers.toArray(),
      restrictionFirst, restrictionEdges: Uint32Array.from(restrictionEdgesList), restrictionFlags, restrictionWindow,
      closureWindow: closureWindow.toArray(), closureFlags: closureFlags.toArray(), closureSource: closureSource.toArray(),
      windowKind, windowFirst, windowIntervals: Int32Array.from(windowIntervals), windowSource,
      gridFirst: grid.first, gridSegments: grid.segments,
      areaName, areaFirstRing, ringFirstPoint: ringFirstPoint.toArray(), areaCoords: areaCoords.toArray(),
    },
    grid: grid.spec,
    bbox: nodeCount > 0 ? [minLon / 1e7, minLat / 1e7, maxLon / 1e7, maxLat / 1e7] : [0, 0, 0, 0],
    elevation: { source: elevationSource, nodesBySource },
    components: { cycling: cyclingComponents, walking: walkingComponents },
    restrictions: {
      relations: collected.restrictions.length, applied: restrictionsApplied, sequences: finalRestrictions.length,
      conditional: conditionalCount, bicycleSpecific: bicycleSpecificCount, viaWay: viaWayCount, sameCyclewayExempt, skipped,
    },
    closures: { ways: closedWays, records: closureWindow.length },
    waysOutsideCity,
    separatePavements: { segments: separatePavementSegments, km: Math.round(separatePavementMetres) / 1000 },
  };
}

/** Reads named polygons from a GeoJSON FeatureCollection (areas embedded for later rules). */
export async function readAreas(path: string, kind: string, nameProperty: string): Promise<AssembleInput['areas']> {
  const geojson = JSON.parse(await readFile(path, 'utf8')) as {
    features: { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[];
  };
  return geojson.features.map((feature) => {
    const polygons = feature.geometry.type === 'Polygon'
      ? [feature.geometry.coordinates as [number, number][][]]
      : (feature.geometry.coordinates as [number, number][][][]);
    return { name: `${kind}:${String(feature.properties[nameProperty])}`, rings: polygons.flat() };
  });
}
