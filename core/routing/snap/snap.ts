import { COORDINATE_SCALE } from '../../graph/layout.ts';
import { bearingDifference, LocalProjection, type LonLat } from '../../geo.ts';
import type { Costing } from '../costing/costing.ts';
import { OPEN_CORE_CYCLING, OPEN_CORE_WALKING, type RoutingNetwork } from '../network/network.ts';
import type { EdgePosition } from '../search/search.ts';

/**
 * Snapping ("loki"): where a request's coordinate joins the network. Candidates are the nearest
 * points of usable ways, found through the graph's precomputed grid of segments by searching rings
 * of cells outwards and stopping once no closer segment can exist. A request's coordinate snaps
 * to the nearest way open at its departure, preferring a way the profile travels normally, and
 * never into a pocket that closures at that time cut off from the rest of the network.
 */

/** Farther than this from any usable road, a coordinate is unreachable (the route is null). */
export const MAX_SNAP_METRES = 250;
/** `bearing` accepts roads leaving within this many degrees of it (either side). */
export const BEARING_TOLERANCE_DEGREES = 45;
/**
 * A coordinate closer to a way the profile prefers (for cycling: one that can be ridden, not only
 * walked with the bike) than this much beyond the nearest usable way snaps to the preferred one:
 * a rider standing on a park path a few metres from the street starts on the street.
 */
export const PREFERRED_SNAP_METRES = 30;
/** Candidates looked at before settling for the best-connected one (a park is many path segments). */
export const MAX_CANDIDATES = 48;
/**
 * A candidate is on the network when it reaches the city's open core (RoutingNetwork.openCore)
 * over ways open at the departure; one that runs out of edges first is in a pocket, such as the
 * paths of a park shut at night. A search that finds this many edges without meeting the core
 * counts as connected too (a graph whose core is small).
 */
const CONNECTED_EDGES = 2000;

export interface Snap {
  segment: number;
  /** Fraction of the segment's geometry (by length) before the snapped point. */
  fraction: number;
  location: [number, number];
  distanceMetres: number;
  /** Bearing of the segment's geometry at the snapped point. */
  geometryBearing: number;
}

/** The nearest point of a usable way within MAX_SNAP_METRES, or null. */
export function snap(network: RoutingNetwork, usable: (edge: number) => boolean, coordinate: LonLat): Snap | null {
  return snapCandidates(network, usable, coordinate, 1)[0] ?? null;
}

/** Whether `usable` admits either direction of a segment. */
function segmentUsable(network: RoutingNetwork, usable: (edge: number) => boolean, segment: number): boolean {
  const forward = network.graph.segmentForwardEdge[segment]!;
  const backward = network.graph.segmentBackwardEdge[segment]!;
  return (forward >= 0 && usable(forward)) || (backward >= 0 && usable(backward));
}

/**
 * Up to `limit` nearest points of distinct usable segments within MAX_SNAP_METRES, nearest first;
 * with `withinOfNearest`, only those at most that many metres beyond the nearest.
 */
export function snapCandidates(network: RoutingNetwork, usable: (edge: number) => boolean, coordinate: LonLat, limit: number, withinOfNearest = Infinity): Snap[] {
  const graph = network.graph;
  const grid = graph.header.grid;
  const [lon, lat] = coordinate;
  const projection = new LocalProjection(lat);
  const px = projection.x(lon);
  const py = projection.y(lat);
  const cellX = Math.floor((lon * COORDINATE_SCALE - grid.min_lon_e7) / grid.cell_lon_e7);
  const cellY = Math.floor((lat * COORDINATE_SCALE - grid.min_lat_e7) / grid.cell_lat_e7);
  const cellMetres = Math.min(
    projection.x(grid.cell_lon_e7 / COORDINATE_SCALE),
    projection.y(grid.cell_lat_e7 / COORDINATE_SCALE),
  );
  const maxRing = Math.ceil(MAX_SNAP_METRES / cellMetres) + 1;
  const seen = new Set<number>();
  const found: Snap[] = [];
  /** The distance a new candidate must beat to matter: the limit-th best so far. */
  const bar = () => Math.min(
    found.length < limit ? MAX_SNAP_METRES : found[limit - 1]!.distanceMetres,
    found.length > 0 ? found[0]!.distanceMetres + withinOfNearest : MAX_SNAP_METRES,
  );

  const consider = (segment: number) => {
    if (seen.has(segment)) return;
    seen.add(segment);
    if (!segmentUsable(network, usable, segment)) return;
    const first = graph.segmentFirstPoint[segment]!;
    const last = graph.segmentFirstPoint[segment + 1]! - 1;
    let travelled = 0;
    // The nearest point so far (by squared distance): its piece, its distance along, x and y.
    let bestSquared = Infinity;
    let bestAlong = 0;
    let bestX = 0;
    let bestY = 0;
    let bestPiece = -1;
    let bx = projection.x(network.pointLon(first));
    let by = projection.y(network.pointLat(first));
    for (let point = first; point < last; point++) {
      const ax = bx;
      const ay = by;
      bx = projection.x(network.pointLon(point + 1));
      by = projection.y(network.pointLat(point + 1));
      const dx = bx - ax;
      const dy = by - ay;
      const pieceLength = Math.hypot(dx, dy);
      const t = pieceLength === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (pieceLength * pieceLength)));
      const x = ax + t * dx;
      const y = ay + t * dy;
      const squared = (px - x) * (px - x) + (py - y) * (py - y);
      if (squared < bestSquared) {
        bestSquared = squared;
        bestAlong = travelled + t * pieceLength;
        bestX = x;
        bestY = y;
        bestPiece = point;
      }
      travelled += pieceLength;
    }
    if (bestPiece < 0) return;
    const bestHere = { distance: Math.hypot(px - bestX, py - bestY), along: bestAlong, x: bestX, y: bestY, piece: bestPiece };
    if (bestHere.distance > bar()) return;
    const piece = bestHere.piece;
    found.push({
      segment,
      fraction: travelled === 0 ? 0 : bestHere.along / travelled,
      location: [bestHere.x / projection.metresPerDegreeLon, bestHere.y / projection.metresPerDegreeLat],
      distanceMetres: bestHere.distance,
      geometryBearing:
        (Math.atan2(
          projection.x(network.pointLon(piece + 1)) - projection.x(network.pointLon(piece)),
          projection.y(network.pointLat(piece + 1)) - projection.y(network.pointLat(piece)),
        ) * 180 / Math.PI + 360) % 360,
    });
    found.sort((a, b) => a.distanceMetres - b.distanceMetres);
    if (found.length > limit) found.length = limit;
  };

  // Metres from the coordinate to a cell's rectangle: a cell farther than the bar holds nothing
  // that matters (the grid lists a segment in every cell its pieces' bounding boxes touch).
  const cellDistance = (x: number, y: number): number => {
    const west = projection.x((grid.min_lon_e7 + x * grid.cell_lon_e7) / COORDINATE_SCALE);
    const east = projection.x((grid.min_lon_e7 + (x + 1) * grid.cell_lon_e7) / COORDINATE_SCALE);
    const south = projection.y((grid.min_lat_e7 + y * grid.cell_lat_e7) / COORDINATE_SCALE);
    const north = projection.y((grid.min_lat_e7 + (y + 1) * grid.cell_lat_e7) / COORDINATE_SCALE);
    return Math.hypot(Math.max(0, west - px, px - east), Math.max(0, south - py, py - north));
  };

  for (let ring = 0; ring <= maxRing; ring++) {
    if ((ring - 1) * cellMetres > bar()) break;
    for (let y = cellY - ring; y <= cellY + ring; y++) {
      if (y < 0 || y >= grid.rows) continue;
      const onEdgeRow = y === cellY - ring || y === cellY + ring;
      for (let x = cellX - ring; x <= cellX + ring; x += onEdgeRow ? 1 : 2 * ring) {
        if (x >= 0 && x < grid.cols && cellDistance(x, y) <= bar() + 0.001) {
          const cell = y * grid.cols + x;
          for (let i = graph.gridFirst[cell]!, end = graph.gridFirst[cell + 1]!; i < end; i++) consider(graph.gridSegments[i]!);
        }
        if (ring === 0) break;
      }
    }
  }
  const cutoff = found.length > 0 ? Math.min(MAX_SNAP_METRES, found[0]!.distanceMetres + withinOfNearest) : MAX_SNAP_METRES;
  return found.filter((candidate) => candidate.distanceMetres <= cutoff);
}

/**
 * The edges that can be reached from the snapped segment (`from`), or can reach it (`to`), over
 * edges the costing may use now, up to `cap` of them.
 */
function reach(costing: Costing, segment: number, end: 'from' | 'to', cap: number): { connected: boolean; visited: Set<number> } {
  const network = costing.network;
  const graph = network.graph;
  const core = costing.options.profile === 'cycling' ? OPEN_CORE_CYCLING : OPEN_CORE_WALKING;
  const start = [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!].filter((edge) => edge >= 0 && costing.openAtDeparture(edge));
  const visited = new Set<number>(start);
  const queue = [...start];
  while (queue.length > 0) {
    const edge = queue.pop()!;
    if (network.openCore[edge]! & core || visited.size >= cap) return { connected: true, visited };
    const node = end === 'from' ? graph.edgeHead[edge]! : graph.edgeTail[edge]!;
    const [first, last] = end === 'from' ? [graph.firstOut[node]!, graph.firstOut[node + 1]!] : [graph.firstIn[node]!, graph.firstIn[node + 1]!];
    for (let i = first; i < last; i++) {
      const next = end === 'from' ? i : graph.inEdges[i]!;
      if (visited.has(next) || !costing.openAtDeparture(next)) continue;
      // Barriers and U-turns bound the pocket too (turn restrictions, which never strand a way, aside).
      if ((end === 'from' ? costing.turnCost(edge, next) : costing.turnCost(next, edge)) === Infinity) continue;
      visited.add(next);
      queue.push(next);
    }
  }
  return { connected: false, visited };
}

/**
 * A request's coordinate snapped for a costing, as the start (`from`) or the end (`to`) of a leg:
 * onto a way open at its departure (a park path closed at night is not), preferring a way the
 * profile travels normally (for cycling, one it can ride) within PREFERRED_SNAP_METRES of the
 * nearest, and never into a pocket the closures at that time cut off (a path inside a park whose
 * gates are shut): the nearest candidate connected to the network wins, else the best connected.
 */
export function snapForCosting(costing: Costing, coordinate: LonLat, end: 'from' | 'to' = 'from'): Snap | null {
  const open = (edge: number) => costing.openAtDeparture(edge);
  // The candidates within the preference margin come first in the order below, so when one of
  // them is connected it is the answer, and the few of them are all that need finding; only a
  // start among pockets widens the search to every candidate.
  const near = snapCandidates(costing.network, open, coordinate, MAX_CANDIDATES, PREFERRED_SNAP_METRES);
  if (near.length === 0) return null;
  const chosen = firstConnected(costing, near, end);
  if (chosen.connected || near.length === MAX_CANDIDATES) return chosen.snap;
  return firstConnected(costing, snapCandidates(costing.network, open, coordinate, MAX_CANDIDATES), end).snap;
}

/**
 * The first candidate connected to the network, taking preferred ways within
 * PREFERRED_SNAP_METRES of the nearest first and then the rest by distance; failing that, the
 * candidate that reaches the most edges (`connected` false).
 */
export function firstConnected(costing: Costing, candidates: readonly Snap[], end: 'from' | 'to'): { snap: Snap; connected: boolean } {
  const network = costing.network;
  const nearest = candidates[0]!.distanceMetres;
  const preferred = (candidate: Snap) => segmentUsable(network, (edge) => costing.openAtDeparture(edge) && costing.travelsNormally(edge), candidate.segment);
  // Preferred ways first within the preference margin, then the rest, each by distance.
  const ordered = [
    ...candidates.filter((candidate) => candidate.distanceMetres <= nearest + PREFERRED_SNAP_METRES && preferred(candidate)),
    ...candidates.filter((candidate) => !(candidate.distanceMetres <= nearest + PREFERRED_SNAP_METRES && preferred(candidate))),
  ];
  let best: { snap: Snap; reach: number } | null = null;
  // Segments of pockets already explored: any candidate among them is stranded the same way.
  const stranded = new Set<number>();
  for (const candidate of ordered) {
    if (stranded.has(candidate.segment)) continue;
    const reached = reach(costing, candidate.segment, end, CONNECTED_EDGES);
    if (reached.connected) return { snap: candidate, connected: true };
    for (const edge of reached.visited) stranded.add(network.graph.edgeSegment[edge]!);
    if (!best || reached.visited.size > best.reach) best = { snap: candidate, reach: reached.visited.size };
  }
  return { snap: (best ?? { snap: candidates[0]! }).snap, connected: false };
}

/** The edges over a snapped segment, as search positions, that the profile may use. */
export function positionsAt(network: RoutingNetwork, usable: (edge: number) => boolean, snapped: Snap, bearing?: number): EdgePosition[] {
  const graph = network.graph;
  const positions: EdgePosition[] = [];
  const forward = graph.segmentForwardEdge[snapped.segment]!;
  const backward = graph.segmentBackwardEdge[snapped.segment]!;
  const fits = (direction: number) => bearing === undefined || bearingDifference(direction, bearing) <= BEARING_TOLERANCE_DEGREES;
  if (forward >= 0 && usable(forward) && fits(snapped.geometryBearing)) positions.push({ edge: forward, fraction: snapped.fraction });
  if (backward >= 0 && usable(backward) && fits((snapped.geometryBearing + 180) % 360)) {
    positions.push({ edge: backward, fraction: 1 - snapped.fraction });
  }
  return positions;
}

/** The name a rider would read for a segment: its street name, else its reference. */
export function segmentLabel(network: RoutingNetwork, segment: number): string {
  const graph = network.graph;
  return graph.string(graph.segmentName[segment]!) || graph.string(graph.segmentRef[segment]!);
}
