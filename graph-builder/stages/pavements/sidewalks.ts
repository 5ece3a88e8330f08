import { Growable } from '../../growable.ts';
import { IdIndex } from '../../id-index.ts';

/**
 * Spec 1.2.10: walking uses the carriageway only where no separate pavement is mapped. Mappers
 * often draw pavements as their own `footway=sidewalk` ways without tagging the road
 * `sidewalk=separate` (most of Manhattan). This finds such roads geometrically: a road segment
 * counts as having a separately mapped pavement when a sidewalk runs parallel to it, close by,
 * at most of the points sampled along it.
 */

/** How far a pavement's centre line may be from the road's. */
const MAX_OFFSET_METRES = 20;
/** How far from parallel (degrees, either direction) a pavement may run. */
const MAX_ANGLE_DEGREES = 25;
/** Points sampled along each road, as fractions of its length; most must find a pavement. */
const SAMPLES = [0.25, 0.5, 0.75];
const METRES_PER_DEGREE = 111_320;
const CELL_DEGREES = 0.0003;

export interface SidewalkInput {
  readonly segmentCount: number;
  /** Geometry of segment s: point indexes `points[first[s]] .. points[first[s+1]-1]`. */
  readonly first: ArrayLike<number>;
  readonly points: ArrayLike<number>;
  /** Coordinates of a point index, 1e-7 degrees. */
  readonly lonE7: ArrayLike<number>;
  readonly latE7: ArrayLike<number>;
  /** Segments to test (walkable carriageways without pavement tags). */
  isRoad(segment: number): boolean;
  /** Segments that are mapped pavements (`footway=sidewalk`). */
  isSidewalk(segment: number): boolean;
}

/** A grid cell (column c, row r, in CELL_DEGREES steps) as a positive integer key for IdIndex. */
const cellKey = (c: number, r: number): number => (c + 2 ** 21) * 2 ** 22 + (r + 2 ** 21) + 1;

/**
 * The sidewalk pieces in a grid of cells, each piece listed in every cell of its box widened by
 * one cell for the search radius: compressed rows on typed arrays (`first[cell]` .. `first[cell +
 * 1]` index `pieces`), cells numbered by an IdIndex. A Map from cell strings to arrays of numbers
 * held several hundred MB on a city of a few million ways; this holds 32 bytes per piece and 4 per
 * listing.
 */
class SidewalkGrid {
  readonly cells = new IdIndex();
  readonly first: Uint32Array;
  readonly listed: Uint32Array;

  constructor(
    /** x1, y1, x2, y2 in metres per piece. */
    readonly pieces: Float64Array,
    /** c0, c1, r0, r1 per piece: the cells it is listed in. */
    boxes: Int32Array,
  ) {
    const pieceCount = pieces.length / 4;
    for (let p = 0; p < pieceCount; p++) this.eachCell(boxes, p, (c, r) => this.cells.intern(cellKey(c, r)));
    const counts = new Uint32Array(this.cells.size + 1);
    for (let p = 0; p < pieceCount; p++) this.eachCell(boxes, p, (c, r) => counts[this.cells.get(cellKey(c, r)) + 1]!++);
    for (let cell = 0; cell < this.cells.size; cell++) counts[cell + 1]! += counts[cell]!;
    this.first = counts;
    this.listed = new Uint32Array(counts[this.cells.size]!);
    const next = counts.slice(0, this.cells.size);
    for (let p = 0; p < pieceCount; p++) this.eachCell(boxes, p, (c, r) => (this.listed[next[this.cells.get(cellKey(c, r))]!++] = p));
  }

  private eachCell(boxes: Int32Array, piece: number, visit: (c: number, r: number) => void): void {
    for (let c = boxes[4 * piece]!; c <= boxes[4 * piece + 1]!; c++) {
      for (let r = boxes[4 * piece + 2]!; r <= boxes[4 * piece + 3]!; r++) visit(c, r);
    }
  }
}

/** 1 for each road segment with a separately mapped pavement alongside. */
export function roadsWithSeparateSidewalks(input: SidewalkInput): Uint8Array {
  const result = new Uint8Array(input.segmentCount);
  let referenceLat: number | null = null;
  let metresPerDegreeLon = METRES_PER_DEGREE;
  const x = (lonE7: number): number => (lonE7 / 1e7) * metresPerDegreeLon;
  const y = (latE7: number): number => (latE7 / 1e7) * METRES_PER_DEGREE;
  const cellOf = (e7: number): number => Math.floor(e7 / 1e7 / CELL_DEGREES);

  const pieces = new Growable(Float64Array);
  const boxes = new Growable(Int32Array);
  for (let s = 0; s < input.segmentCount; s++) {
    if (!input.isSidewalk(s)) continue;
    for (let i = input.first[s]!; i + 1 < input.first[s + 1]!; i++) {
      const a = input.points[i]!;
      const b = input.points[i + 1]!;
      if (referenceLat === null) {
        referenceLat = input.latE7[a]! / 1e7;
        metresPerDegreeLon = METRES_PER_DEGREE * Math.cos((referenceLat * Math.PI) / 180);
      }
      pieces.push(x(input.lonE7[a]!));
      pieces.push(y(input.latE7[a]!));
      pieces.push(x(input.lonE7[b]!));
      pieces.push(y(input.latE7[b]!));
      boxes.push(cellOf(Math.min(input.lonE7[a]!, input.lonE7[b]!)) - 1);
      boxes.push(cellOf(Math.max(input.lonE7[a]!, input.lonE7[b]!)) + 1);
      boxes.push(cellOf(Math.min(input.latE7[a]!, input.latE7[b]!)) - 1);
      boxes.push(cellOf(Math.max(input.latE7[a]!, input.latE7[b]!)) + 1);
    }
  }
  if (pieces.length === 0) return result;
  const grid = new SidewalkGrid(pieces.toArray(), boxes.toArray());

  const hasParallelSidewalk = (lonE7: number, latE7: number, bearing: number): boolean => {
    const px = x(lonE7);
    const py = y(latE7);
    const cell = grid.cells.get(cellKey(cellOf(lonE7), cellOf(latE7)));
    if (cell < 0) return false;
    const { pieces: geometry, listed, first } = grid;
    for (let k = first[cell]!; k < first[cell + 1]!; k++) {
      const i = 4 * listed[k]!;
      const [x1, y1, x2, y2] = [geometry[i]!, geometry[i + 1]!, geometry[i + 2]!, geometry[i + 3]!];
      const dx = x2 - x1;
      const dy = y2 - y1;
      const lengthSquared = dx * dx + dy * dy;
      if (lengthSquared === 0) continue;
      const t = Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / lengthSquared));
      if (Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)) > MAX_OFFSET_METRES) continue;
      const angle = Math.abs(((Math.atan2(dy, dx) * 180) / Math.PI - bearing + 360) % 180);
      if (Math.min(angle, 180 - angle) <= MAX_ANGLE_DEGREES) return true;
    }
    return false;
  };

  for (let s = 0; s < input.segmentCount; s++) {
    if (!input.isRoad(s)) continue;
    const start = input.first[s]!;
    const end = input.first[s + 1]!;
    const cumulative = [0];
    for (let i = start + 1; i < end; i++) {
      const a = input.points[i - 1]!;
      const b = input.points[i]!;
      cumulative.push(cumulative.at(-1)! + Math.hypot(x(input.lonE7[b]!) - x(input.lonE7[a]!), y(input.latE7[b]!) - y(input.latE7[a]!)));
    }
    const total = cumulative.at(-1)!;
    if (total === 0) continue;
    let matches = 0;
    for (const fraction of SAMPLES) {
      const target = fraction * total;
      let i = 1;
      while (i < cumulative.length - 1 && cumulative[i]! < target) i++;
      const a = input.points[start + i - 1]!;
      const b = input.points[start + i]!;
      const t = (target - cumulative[i - 1]!) / Math.max(1e-9, cumulative[i]! - cumulative[i - 1]!);
      const lonE7 = input.lonE7[a]! + t * (input.lonE7[b]! - input.lonE7[a]!);
      const latE7 = input.latE7[a]! + t * (input.latE7[b]! - input.latE7[a]!);
      const bearing = (Math.atan2(y(input.latE7[b]!) - y(input.latE7[a]!), x(input.lonE7[b]!) - x(input.lonE7[a]!)) * 180) / Math.PI;
      if (hasParallelSidewalk(lonE7, latE7, bearing)) matches++;
    }
    if (matches * 2 > SAMPLES.length) result[s] = 1;
  }
  return result;
}
