import { COORDINATE_SCALE } from '../../graph/layout.ts';
import { bearingDifference, LocalProjection, type LonLat } from '../../geo.ts';
import { TURN_RESTRICTED, type Costing } from '../costing/costing.ts';
import type { RoutingNetwork } from '../network/network.ts';
import { OPEN_CORE_CYCLING, OPEN_CORE_WALKING } from '../network/open-core.ts';
import type { EdgePosition } from '../search/workspace.ts';

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
 * A candidate direction is on the network when it reaches its region's open core
 * (RoutingNetwork.openCore, open-core.ts) over ways and turns open at the departure, or is reached
 * from it; one that runs out of edges first is in a pocket, such as the paths of a park shut at
 * night or a block entered only through a turn forbidden at that hour. A search that finds this
 * many edges without meeting the core counts as connected too (a region whose core is small).
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
  /**
   * The directed edges over the segment a leg may use from here (`snapForCosting`): those that
   * lead on from a start, or reach an end, at the departure. Absent: every usable direction.
   */
  edges?: readonly number[];
  /** Other ways the coordinate may join, a few metres farther (`snapForCosting`, JOIN_METRES). */
  alternatives?: readonly Snap[];
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
    // Every point of the segment lies within its length (along it) of its first point, so none is
    // nearer than the first point's distance less that length: a segment that far beyond the bar
    // is passed over without measuring its pieces (1% and a metre allow for how the builder
    // measured the length).
    const forward = graph.segmentForwardEdge[segment]!;
    const length = graph.edgeLength[forward >= 0 ? forward : graph.segmentBackwardEdge[segment]!]!;
    if (Math.hypot(px - bx, py - by) - (length * 1.01 + 1) > bar()) return;
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
    // Asked last: only a usable segment becomes a candidate and moves the bar, so a segment beyond
    // the bar is passed over the same whether usable or not, and `usable` (a way's cost at the
    // departure: for walking, computed per edge) is asked only of the few that could matter.
    if (!segmentUsable(network, usable, segment)) return;
    const piece = bestHere.piece;
    const candidate: Snap = {
      segment,
      fraction: travelled === 0 ? 0 : bestHere.along / travelled,
      location: [bestHere.x / projection.metresPerDegreeLon, bestHere.y / projection.metresPerDegreeLat],
      distanceMetres: bestHere.distance,
      geometryBearing:
        (Math.atan2(
          projection.x(network.pointLon(piece + 1)) - projection.x(network.pointLon(piece)),
          projection.y(network.pointLat(piece + 1)) - projection.y(network.pointLat(piece)),
        ) * 180 / Math.PI + 360) % 360,
    };
    // Into its place, nearest first (after any as near, as a stable sort would put it).
    let at = found.length;
    while (at > 0 && found[at - 1]!.distanceMetres > candidate.distanceMetres) at--;
    found.splice(at, 0, candidate);
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

/** Edges a reachability search meets before it gives up (`reach`). */
interface Reached {
  connected: boolean;
  visited: Set<number>;
}

/**
 * Whether the rider can go on from `edge` to its region's open core (`from`: leaving the start
 * along it), or come from the core to it (`to`: arriving at the end along it), over edges the
 * costing may use at the departure and turns it allows then: one-way directions, turn
 * restrictions in force, barriers, no U-turns but at dead ends, and any turn an accepted report
 * removed. A via-way restriction, which forbids no single turn, is not followed here. Stops at
 * `cap` edges, counted as connected (a region whose core is small).
 */
function reach(costing: Costing, edge: number, end: 'from' | 'to', cap: number): Reached {
  const network = costing.network;
  const graph = network.graph;
  const core = costing.options.profile === 'cycling' ? OPEN_CORE_CYCLING : OPEN_CORE_WALKING;
  const turns = (from: number, to: number) => costing.turnCost(from, to) !== Infinity && (!costing.restrictsTurnsFrom(from) || costing.turnRestriction(from, to) !== TURN_RESTRICTED);
  const visited = new Set<number>([edge]);
  const queue = [edge];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (network.openCore[current]! & core || visited.size >= cap) return { connected: true, visited };
    if (end === 'from') {
      const head = graph.edgeHead[current]!;
      for (let next = graph.firstOut[head]!, last = graph.firstOut[head + 1]!; next < last; next++) {
        if (visited.has(next) || !costing.openAtDeparture(next) || !turns(current, next)) continue;
        visited.add(next);
        queue.push(next);
      }
    } else {
      const tail = graph.edgeTail[current]!;
      for (let i = graph.firstIn[tail]!, last = graph.firstIn[tail + 1]!; i < last; i++) {
        const previous = graph.inEdges[i]!;
        if (visited.has(previous) || !costing.openAtDeparture(previous) || !turns(previous, current)) continue;
        visited.add(previous);
        queue.push(previous);
      }
    }
  }
  return { connected: false, visited };
}

/** The directed edges over a segment the costing may use at the departure. */
function openEdges(costing: Costing, segment: number): number[] {
  const graph = costing.network.graph;
  return [graph.segmentForwardEdge[segment]!, graph.segmentBackwardEdge[segment]!].filter((edge) => edge >= 0 && costing.openAtDeparture(edge));
}

/**
 * A request's coordinate snapped for a costing, as the start (`from`) or the end (`to`) of a leg:
 * onto a way open at its departure (a park path closed at night is not), preferring a way the
 * profile travels normally (for cycling, one it can ride) within PREFERRED_SNAP_METRES of the
 * nearest, and never onto a way that cannot be left (a start) or reached (an end) at that time:
 * the candidates are tried in that order, each direction of a two-way way on its own, and the
 * first that connects wins (failing all, the one that reaches farthest). `edges` holds the
 * directions that connect, so a start on a two-way street may leave either way and an end on a
 * block entered only through a turn forbidden at that hour is passed over for the next candidate.
 * `alternatives` are the other ways the end may join, a few metres farther (JOIN_METRES).
 */
export function snapForCosting(costing: Costing, coordinate: LonLat, end: 'from' | 'to' = 'from'): Snap | null {
  const open = (edge: number) => costing.openAtDeparture(edge);
  // The candidates within the preference margin come first in the order below, so when one of
  // them is connected it is the answer, and the few of them are all that need finding; only a
  // start among pockets widens the search to every candidate.
  const near = snapCandidates(costing.network, open, coordinate, MAX_CANDIDATES, PREFERRED_SNAP_METRES);
  if (near.length === 0) return null;
  let chosen = firstConnected(costing, near, end);
  if (!chosen.connected && near.length < MAX_CANDIDATES) chosen = firstConnected(costing, snapCandidates(costing.network, open, coordinate, MAX_CANDIDATES), end);
  if (!chosen.connected) return chosen.snap;
  // A walker's route reaches any way beside by the network itself; only a rider, who would push
  // the bike there, is offered the way a few metres off (a cycle track beside its carriageway).
  if (costing.options.profile !== 'cycling') return chosen.snap;
  return { ...chosen.snap, alternatives: joinable(costing, near, chosen.snap, end) };
}

/**
 * The first candidate connected to the network, taking preferred ways within
 * PREFERRED_SNAP_METRES of the nearest first and then the rest by distance, with the directions
 * that connect as its `edges`; failing that, the candidate that reaches the most edges
 * (`connected` false).
 */
export function firstConnected(costing: Costing, candidates: readonly Snap[], end: 'from' | 'to'): { snap: Snap; connected: boolean } {
  const nearest = candidates[0]!.distanceMetres;
  const preferred = (candidate: Snap) => isPreferred(costing, candidate);
  // Preferred ways first within the preference margin, then the rest, each by distance.
  const ordered = [
    ...candidates.filter((candidate) => candidate.distanceMetres <= nearest + PREFERRED_SNAP_METRES && preferred(candidate)),
    ...candidates.filter((candidate) => !(candidate.distanceMetres <= nearest + PREFERRED_SNAP_METRES && preferred(candidate))),
  ];
  let best: { snap: Snap; reach: number } | null = null;
  // Edges of pockets already explored: whatever they reach (or reaches them) the pocket's search
  // met, so any candidate direction among them is stranded the same way.
  const stranded = new Set<number>();
  for (const candidate of ordered) {
    const connected = connectedEdges(costing, candidate.segment, end, stranded);
    if (connected.edges.length > 0) return { snap: { ...candidate, edges: connected.edges }, connected: true };
    if (!best || connected.reach > best.reach) best = { snap: candidate, reach: connected.reach };
  }
  return { snap: (best ?? { snap: candidates[0]! }).snap, connected: false };
}

/** Whether a candidate is a way the profile travels normally (for cycling, rides), open now. */
function isPreferred(costing: Costing, candidate: Snap): boolean {
  return segmentUsable(costing.network, (edge) => costing.openAtDeparture(edge) && costing.travelsNormally(edge), candidate.segment);
}

/** The directions over a segment that connect (`reach`), and the most edges a failed search met. */
function connectedEdges(costing: Costing, segment: number, end: 'from' | 'to', stranded: Set<number>): { edges: number[]; reach: number } {
  const edges: number[] = [];
  let most = 0;
  for (const edge of openEdges(costing, segment)) {
    if (stranded.has(edge)) continue;
    const reached = reach(costing, edge, end, CONNECTED_EDGES);
    if (reached.connected) edges.push(edge);
    else {
      for (const visited of reached.visited) stranded.add(visited);
      most = Math.max(most, reached.visited.size);
    }
  }
  return { edges, reach: most };
}

/**
 * A coordinate may join a way other than the one it snapped to when that way is only a few metres
 * farther: a rider between a street and the service road beside it, or a cycle track and its
 * carriageway, starts on whichever leads on better. The search weighs each by the walk to it
 * (`Costing.joinSeconds` of the metres beyond the nearest), as Valhalla's search weighs every
 * edge its snapping found by its distance.
 */
export const JOIN_METRES = 15;
/**
 * A way joined instead runs beside the chosen one, within this many degrees of parallel at the
 * two snapped points, and does not meet it at either end: a way crossing it (the next street at a
 * corner) or leaving it (a slip road) is reached through the network, never joined across the
 * corner, which would skip the turn between them and any restriction on it.
 */
export const JOIN_PARALLEL_DEGREES = 30;
/** At most this many other ways are offered. */
const MAX_ALTERNATIVES = 3;

/** The two end nodes of a segment. */
function segmentNodes(network: RoutingNetwork, segment: number): [number, number] {
  const graph = network.graph;
  const edge = graph.segmentForwardEdge[segment]! >= 0 ? graph.segmentForwardEdge[segment]! : graph.segmentBackwardEdge[segment]!;
  return [graph.edgeTail[edge]!, graph.edgeHead[edge]!];
}

/** Whether two segments meet at a node: the route passes from one to the other through the network, turn and its rules included. */
function meet(network: RoutingNetwork, a: number, b: number): boolean {
  const [a0, a1] = segmentNodes(network, a);
  const [b0, b1] = segmentNodes(network, b);
  return a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1;
}

/** Whether two snapped points lie on ways running side by side there (either way along them). */
const runsBeside = (a: Snap, b: Snap) => {
  const difference = bearingDifference(a.geometryBearing, b.geometryBearing);
  return Math.min(difference, 180 - difference) <= JOIN_PARALLEL_DEGREES;
};

/** Ways beside the chosen one within JOIN_METRES of the coordinate that the profile travels normally and that connect. */
function joinable(costing: Costing, candidates: readonly Snap[], chosen: Snap, end: 'from' | 'to'): Snap[] {
  const alternatives: Snap[] = [];
  const stranded = new Set<number>();
  for (const candidate of candidates) {
    if (alternatives.length === MAX_ALTERNATIVES || candidate.distanceMetres > JOIN_METRES) break;
    if (candidate.segment === chosen.segment || !runsBeside(candidate, chosen) || meet(costing.network, candidate.segment, chosen.segment) || !isPreferred(costing, candidate)) continue;
    const connected = connectedEdges(costing, candidate.segment, end, stranded);
    if (connected.edges.length > 0) alternatives.push({ ...candidate, edges: connected.edges });
  }
  return alternatives;
}

/**
 * Where a leg's search may start (`from`) or end (`to`) for a snapped coordinate: the directions
 * of its way that connect, and of each alternative way, whose positions carry the cost of walking
 * to it (`cost`); a start keeps only directions leaving within BEARING_TOLERANCE_DEGREES of `bearing`.
 */
export function endPositions(costing: Costing, snapped: Snap, bearing?: number): EdgePosition[] {
  const network = costing.network;
  const positions = positionsAt(network, (edge) => costing.openAtDeparture(edge), snapped, bearing);
  for (const alternative of snapped.alternatives ?? []) {
    const cost = costing.joinSeconds(Math.max(0, alternative.distanceMetres - snapped.distanceMetres));
    for (const position of positionsAt(network, (edge) => costing.openAtDeparture(edge), alternative, bearing)) positions.push({ ...position, cost });
  }
  return positions;
}

/** Of a snap and its alternatives, the one whose way `edge` runs over (the way a route started or ended on). */
export function snapOfEdge(network: RoutingNetwork, snapped: Snap, edge: number): Snap {
  const segment = network.graph.edgeSegment[edge];
  return [snapped, ...(snapped.alternatives ?? [])].find((candidate) => candidate.segment === segment) ?? snapped;
}

/**
 * The edges over a snapped segment, as search positions, that the profile may use: of those the
 * snap found connected (`Snap.edges`) where it says, and leaving within BEARING_TOLERANCE_DEGREES
 * of `bearing` where given.
 */
export function positionsAt(network: RoutingNetwork, usable: (edge: number) => boolean, snapped: Snap, bearing?: number): EdgePosition[] {
  const graph = network.graph;
  const positions: EdgePosition[] = [];
  const forward = graph.segmentForwardEdge[snapped.segment]!;
  const backward = graph.segmentBackwardEdge[snapped.segment]!;
  const allowed = (edge: number) => edge >= 0 && usable(edge) && (snapped.edges === undefined || snapped.edges.includes(edge));
  const fits = (direction: number) => bearing === undefined || bearingDifference(direction, bearing) <= BEARING_TOLERANCE_DEGREES;
  if (allowed(forward) && fits(snapped.geometryBearing)) positions.push({ edge: forward, fraction: snapped.fraction });
  if (allowed(backward) && fits((snapped.geometryBearing + 180) % 360)) {
    positions.push({ edge: backward, fraction: 1 - snapped.fraction });
  }
  return positions;
}

/** The name a rider would read for a segment: its street name, else its reference. */
export function segmentLabel(network: RoutingNetwork, segment: number): string {
  const graph = network.graph;
  return graph.string(graph.segmentName[segment]!) || graph.string(graph.segmentRef[segment]!);
}
