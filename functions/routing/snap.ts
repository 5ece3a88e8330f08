import { COORDINATE_SCALE } from '../../core/graph/layout.ts';
import { bearingDifference, LocalProjection, type LonLat } from '../../core/geo.ts';
import type { RoutingNetwork } from '../../core/routing/network.ts';
import type { EdgePosition } from './search.ts';

/**
 * Snapping ("loki"): the nearest point of a usable road to a coordinate, found through the
 * graph's precomputed grid of segments, searching rings of cells outwards and stopping once no
 * closer segment can exist.
 */

/** Farther than this from any usable road, a coordinate is unreachable (the route is null). */
export const MAX_SNAP_METRES = 250;
/** `bearing` accepts roads leaving within this many degrees of it (either side). */
export const BEARING_TOLERANCE_DEGREES = 45;

export interface Snap {
  segment: number;
  /** Fraction of the segment's geometry (by length) before the snapped point. */
  fraction: number;
  location: [number, number];
  distanceMetres: number;
  /** Bearing of the segment's geometry at the snapped point. */
  geometryBearing: number;
}

export function snap(network: RoutingNetwork, usable: (edge: number) => boolean, coordinate: LonLat): Snap | null {
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
  let best: Snap | null = null;

  const consider = (segment: number) => {
    if (seen.has(segment)) return;
    seen.add(segment);
    const forward = graph.segmentForwardEdge[segment]!;
    const backward = graph.segmentBackwardEdge[segment]!;
    if (!((forward >= 0 && usable(forward)) || (backward >= 0 && usable(backward)))) return;
    const first = graph.segmentFirstPoint[segment]!;
    const last = graph.segmentFirstPoint[segment + 1]! - 1;
    let travelled = 0;
    let bestHere: { distance: number; along: number; x: number; y: number; piece: number } | null = null;
    for (let point = first; point < last; point++) {
      const ax = projection.x(network.pointLon(point));
      const ay = projection.y(network.pointLat(point));
      const bx = projection.x(network.pointLon(point + 1));
      const by = projection.y(network.pointLat(point + 1));
      const dx = bx - ax;
      const dy = by - ay;
      const pieceLength = Math.hypot(dx, dy);
      const t = pieceLength === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (pieceLength * pieceLength)));
      const x = ax + t * dx;
      const y = ay + t * dy;
      const distance = Math.hypot(px - x, py - y);
      if (!bestHere || distance < bestHere.distance) bestHere = { distance, along: travelled + t * pieceLength, x, y, piece: point };
      travelled += pieceLength;
    }
    if (!bestHere || (best && bestHere.distance >= best.distanceMetres)) return;
    const piece = bestHere.piece;
    best = {
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
  };

  for (let ring = 0; ring <= maxRing; ring++) {
    if (best && (ring - 1) * cellMetres > (best as Snap).distanceMetres) break;
    for (let y = cellY - ring; y <= cellY + ring; y++) {
      if (y < 0 || y >= grid.rows) continue;
      const onEdgeRow = y === cellY - ring || y === cellY + ring;
      for (let x = cellX - ring; x <= cellX + ring; x += onEdgeRow ? 1 : 2 * ring) {
        if (x >= 0 && x < grid.cols) {
          const cell = y * grid.cols + x;
          for (let i = graph.gridFirst[cell]!, end = graph.gridFirst[cell + 1]!; i < end; i++) consider(graph.gridSegments[i]!);
        }
        if (ring === 0) break;
      }
    }
  }
  const found = best as Snap | null;
  return found && found.distanceMetres <= MAX_SNAP_METRES ? found : null;
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
