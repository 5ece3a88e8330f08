/**
 * A uniform grid over segments so the router snaps a coordinate by reading a few cells, with no
 * scan and no index construction at load time. Cells are about 100 m square; each lists the
 * segments whose geometry passes through it (every cell a segment's line pieces touch, found by
 * walking each piece's bounding cells, which over-approximates by at most a cell per piece).
 */

import { emptyBoundingBox, extendBoundingBox } from '../core/geo.ts';
import type { GridSpec } from '../core/graph/layout.ts';

export const GRID_CELL_METRES = 100;
const METRES_PER_DEGREE_LAT = 111_320;


export interface Grid {
  readonly spec: GridSpec;
  readonly first: Uint32Array;
  readonly segments: Uint32Array;
}

/** `pointCoords` holds lon, lat pairs (1e-7 degrees); segment s has points segmentFirstPoint[s] .. [s+1]-1. */
export function buildGrid(pointCoords: Int32Array, segmentFirstPoint: Uint32Array): Grid {
  const segmentCount = segmentFirstPoint.length - 1;
  const box = emptyBoundingBox();
  for (let i = 0; i < pointCoords.length; i += 2) extendBoundingBox(box, pointCoords[i]!, pointCoords[i + 1]!);
  const [minLon, minLat, maxLon, maxLat] = box;
  if (segmentCount === 0) {
    return { spec: { min_lon_e7: 0, min_lat_e7: 0, cell_lon_e7: 1, cell_lat_e7: 1, cols: 1, rows: 1 }, first: new Uint32Array(2), segments: new Uint32Array(0) };
  }
  const midLatRadians = ((minLat + maxLat) / 2 / 1e7) * (Math.PI / 180);
  const cellLat = Math.round((GRID_CELL_METRES / METRES_PER_DEGREE_LAT) * 1e7);
  const cellLon = Math.round((GRID_CELL_METRES / (METRES_PER_DEGREE_LAT * Math.cos(midLatRadians))) * 1e7);
  const cols = Math.floor((maxLon - minLon) / cellLon) + 1;
  const rows = Math.floor((maxLat - minLat) / cellLat) + 1;
  const spec: GridSpec = { min_lon_e7: minLon, min_lat_e7: minLat, cell_lon_e7: cellLon, cell_lat_e7: cellLat, cols, rows };

  const cellsOf = (segment: number, visit: (cell: number) => void): void => {
    const seen = new Set<number>();
    for (let p = segmentFirstPoint[segment]!; p + 1 < segmentFirstPoint[segment + 1]!; p++) {
      const c0 = Math.floor((pointCoords[2 * p]! - minLon) / cellLon);
      const r0 = Math.floor((pointCoords[2 * p + 1]! - minLat) / cellLat);
      const c1 = Math.floor((pointCoords[2 * p + 2]! - minLon) / cellLon);
      const r1 = Math.floor((pointCoords[2 * p + 3]! - minLat) / cellLat);
      for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) {
        for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) {
          const cell = r * cols + c;
          if (!seen.has(cell)) {
            seen.add(cell);
            visit(cell);
          }
        }
      }
    }
  };
  // Two passes (count, then fill) build the CSR without intermediate lists.
  const first = new Uint32Array(cols * rows + 1);
  for (let s = 0; s < segmentCount; s++) cellsOf(s, (cell) => first[cell + 1]!++);
  for (let cell = 0; cell < cols * rows; cell++) first[cell + 1]! += first[cell]!;
  const fill = first.slice(0, cols * rows);
  const segments = new Uint32Array(first[cols * rows]!);
  for (let s = 0; s < segmentCount; s++) cellsOf(s, (cell) => (segments[fill[cell]!++] = s));
  return { spec, first, segments };
}
