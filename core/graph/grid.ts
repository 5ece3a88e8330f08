import type { GridSpec } from './layout.ts';

/**
 * The cells of the graph's spatial index (docs/graph-format.md, "Spatial index") that list a
 * segment: the cells each of its line pieces' bounding box touches, each once, in the order first
 * met. The builder lists segments in cells by it; the router asks it which cells list a segment.
 */
export function forEachSegmentCell(
  pointCoords: Int32Array,
  segmentFirstPoint: Uint32Array,
  grid: GridSpec,
  segment: number,
  visit: (cell: number) => void,
): void {
  const { min_lon_e7: minLon, min_lat_e7: minLat, cell_lon_e7: cellLon, cell_lat_e7: cellLat, cols } = grid;
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
}
