import { describe, expect, it } from 'vitest';
import { buildGrid } from '../../graph-builder/stages/sections/spatial-index.ts';

describe('spatial grid', () => {
  it('lists every segment in each cell its geometry passes through', () => {
    // Segment 0: a 1 km west-east line; segment 1: 220 m north from its east end.
    const coords = Int32Array.from([0, 515_000_000, 144_000, 515_000_000, 144_000, 515_000_000, 144_000, 515_020_000]);
    const grid = buildGrid(coords, Uint32Array.from([0, 2, 4]));
    const { cols, rows, cell_lon_e7: cellLon, min_lon_e7: minLon, min_lat_e7: minLat, cell_lat_e7: cellLat } = grid.spec;
    expect(cellLon * 0.622).toBeCloseTo(cellLat, -2); // square cells in metres at 51.5°N
    expect(cols).toBeGreaterThanOrEqual(10);
    const cellOf = (lon: number, lat: number): number => Math.floor((lat - minLat) / cellLat) * cols + Math.floor((lon - minLon) / cellLon);
    const segmentsIn = (cell: number): number[] => [...grid.segments.subarray(grid.first[cell]!, grid.first[cell + 1]!)];
    expect(segmentsIn(cellOf(72_000, 515_000_000))).toEqual([0]);
    expect(segmentsIn(cellOf(144_000, 515_000_000))).toEqual([0, 1]);
    expect(segmentsIn(cellOf(144_000, 515_015_000))).toEqual([1]);
    expect(grid.first).toHaveLength(cols * rows + 1);
  });
});
