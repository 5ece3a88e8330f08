import { LocalProjection, type LonLat } from '../../core/geo.ts';
import type { BaseMap } from '../../lib/local/playground/base-map.ts';

/**
 * Where the playground's base map (lib/local/playground/base-map.ts) draws streets. It is drawn
 * from the city's routing graph and nothing else, so outside the sample extracts, and at their
 * edges, a point sits on a blank page.
 */

/** The features' lines in degrees, decoded as the page decodes them. */
export function decodedLines(baseMap: BaseMap): [number, number][][] {
  const lines: [number, number][][] = [];
  let coord = 0;
  for (let feature = 0; feature < baseMap.segments.count; feature++) {
    let [lon, lat] = baseMap.origin;
    const line: [number, number][] = [];
    for (let point = 0; point < baseMap.segments.points[feature]!; point++) {
      lon += baseMap.segments.coords[coord++]!;
      lat += baseMap.segments.coords[coord++]!;
      line.push([lon / baseMap.scale, lat / baseMap.scale]);
    }
    lines.push(line);
  }
  return lines;
}

export function distanceToLineMetres(projection: LocalProjection, point: readonly [number, number], line: readonly [number, number][]): number {
  const px = projection.x(point[0]);
  const py = projection.y(point[1]);
  let best = Infinity;
  for (let index = 0; index + 1 < line.length; index++) {
    const ax = projection.x(line[index]![0]);
    const ay = projection.y(line[index]![1]);
    const dx = projection.x(line[index + 1]![0]) - ax;
    const dy = projection.y(line[index + 1]![1]) - ay;
    const lengthSquared = dx * dx + dy * dy;
    const along = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared));
    best = Math.min(best, Math.hypot(px - ax - along * dx, py - ay - along * dy));
  }
  return best;
}

/** A point is on the drawn map when a street passes this close: a marker's width at the playground's opening zoom. */
export const NEAREST_STREET_METRES = 50;
/** ...and streets are drawn within this distance on every side of it (north-east, north-west, south-west, south-east), so it is not at the map's blank edge. */
export const SURROUNDING_METRES = 300;

export interface Coverage {
  /** Metres to the nearest drawn street. */
  nearestStreetMetres: number;
  /** The quarters around the point with no street drawn within `SURROUNDING_METRES`. */
  blankQuarters: ('north-east' | 'north-west' | 'south-west' | 'south-east')[];
}

/** How the base map draws the streets around `point`, from its decoded lines. */
export function coverageAt(lines: readonly [number, number][][], point: LonLat): Coverage {
  const projection = new LocalProjection(point[1]);
  const quarters = ['north-east', 'north-west', 'south-west', 'south-east'] as const;
  const drawn = new Set<(typeof quarters)[number]>();
  let nearest = Infinity;
  for (const line of lines) {
    nearest = Math.min(nearest, distanceToLineMetres(projection, point, line));
    for (const [lon, lat] of line) {
      const dx = projection.x(lon) - projection.x(point[0]);
      const dy = projection.y(lat) - projection.y(point[1]);
      if (Math.hypot(dx, dy) > SURROUNDING_METRES) continue;
      drawn.add(dy >= 0 ? (dx >= 0 ? 'north-east' : 'north-west') : dx < 0 ? 'south-west' : 'south-east');
    }
  }
  return { nearestStreetMetres: Math.round(nearest), blankQuarters: quarters.filter((quarter) => !drawn.has(quarter)) };
}
