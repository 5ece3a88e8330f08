/**
 * A uniform grid over segments so the router snaps a coordinate by reading a few cells, with no
 * scan and no index construction at load time. Cells are about 100 m square; each lists the
 * segments whose geometry passes through it (every cell a segment's line pieces touch, found by
 * walking each piece's bounding cells, which over-approximates by at most a cell per piece).
 */

import { emptyBoundingBox, extendBoundingBox } from '../../../core/geo.ts';
import { forEachSegmentCell } from '../../../core/graph/grid.ts';
import type { GridSpec } from '../../../core/graph/layout.ts';

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

  const cellsOf = (segment: number, visit: (cell: number) => void): void => forEachSegmentCell(pointCoords, segmentFirstPoint, spec, segment, visit);
  // Two passes (count, then fill) build the CSR without intermediate lists.
  const first = new Uint32Array(cols * rows + 1);
  for (let s = 0; s < segmentCount; s++) cellsOf(s, (cell) => first[cell + 1]!++);
  for (let cell = 0; cell < cols * rows; cell++) first[cell + 1]! += first[cell]!;
  const fill = first.slice(0, cols * rows);
  const segments = new Uint32Array(first[cols * rows]!);
  for (let s = 0; s < segmentCount; s++) cellsOf(s, (cell) => (segments[fill[cell]!++] = s));
  return { spec, first, segments };
}

/** The grid's cells that list any segment `listed` accepts, each with those segments in the grid's order. */
export interface SparseGrid {
  /** Ascending cell numbers. */
  readonly cells: Uint32Array;
  /** cells.length + 1: cell i's segments are `segments[first[i] .. first[i+1]-1]`. */
  readonly first: Uint32Array;
  readonly segments: Uint32Array;
}

/** The part of a grid that lists the segments `listed` accepts (a few: those with a closure or roadworks). */
export function sparseGrid(grid: Pick<Grid, 'first' | 'segments'>, listed: (segment: number) => boolean): SparseGrid {
  const cells: number[] = [];
  const first: number[] = [0];
  const segments: number[] = [];
  for (let cell = 0; cell + 1 < grid.first.length; cell++) {
    for (let i = grid.first[cell]!; i < grid.first[cell + 1]!; i++) if (listed(grid.segments[i]!)) segments.push(grid.segments[i]!);
    if (segments.length > first[first.length - 1]!) {
      cells.push(cell);
      first.push(segments.length);
    }
  }
  return { cells: Uint32Array.from(cells), first: Uint32Array.from(first), segments: Uint32Array.from(segments) };
}
