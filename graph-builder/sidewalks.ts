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

/** 1 for each road segment with a separately mapped pavement alongside. */
export function roadsWithSeparateSidewalks(input: SidewalkInput): Uint8Array {
  const result = new Uint8Array(input.segmentCount);
  const cells = new Map<string, number[]>(); // cell -> flat [x1, y1, x2, y2, ...] pieces in metres
  let referenceLat: number | null = null;
  let metresPerDegreeLon = METRES_PER_DEGREE;
  const x = (lonE7: number): number => (lonE7 / 1e7) * metresPerDegreeLon;
  const y = (latE7: number): number => (latE7 / 1e7) * METRES_PER_DEGREE;
  const cellKey = (lonE7: number, latE7: number): string => `${Math.floor(lonE7 / 1e7 / CELL_DEGREES)},${Math.floor(latE7 / 1e7 / CELL_DEGREES)}`;

  for (let s = 0; s < input.segmentCount; s++) {
    if (!input.isSidewalk(s)) continue;
    for (let i = input.first[s]!; i + 1 < input.first[s + 1]!; i++) {
      const a = input.points[i]!;
      const b = input.points[i + 1]!;
      if (referenceLat === null) {
        referenceLat = input.latE7[a]! / 1e7;
        metresPerDegreeLon = METRES_PER_DEGREE * Math.cos((referenceLat * Math.PI) / 180);
      }
      const piece = [x(input.lonE7[a]!), y(input.latE7[a]!), x(input.lonE7[b]!), y(input.latE7[b]!)];
      // Listed in every cell of the piece's box, widened by one cell for the search radius.
      const c0 = Math.floor(Math.min(input.lonE7[a]!, input.lonE7[b]!) / 1e7 / CELL_DEGREES) - 1;
      const c1 = Math.floor(Math.max(input.lonE7[a]!, input.lonE7[b]!) / 1e7 / CELL_DEGREES) + 1;
      const r0 = Math.floor(Math.min(input.latE7[a]!, input.latE7[b]!) / 1e7 / CELL_DEGREES) - 1;
      const r1 = Math.floor(Math.max(input.latE7[a]!, input.latE7[b]!) / 1e7 / CELL_DEGREES) + 1;
      for (let c = c0; c <= c1; c++) {
        for (let r = r0; r <= r1; r++) {
          const key = `${c},${r}`;
          let list = cells.get(key);
          if (!list) {
            list = [];
            cells.set(key, list);
          }
          list.push(...piece);
        }
      }
    }
  }
  if (cells.size === 0) return result;

  const hasParallelSidewalk = (lonE7: number, latE7: number, bearing: number): boolean => {
    const px = x(lonE7);
    const py = y(latE7);
    const pieces = cells.get(cellKey(lonE7, latE7));
    if (!pieces) return false;
    for (let i = 0; i < pieces.length; i += 4) {
      const [x1, y1, x2, y2] = [pieces[i]!, pieces[i + 1]!, pieces[i + 2]!, pieces[i + 3]!];
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
