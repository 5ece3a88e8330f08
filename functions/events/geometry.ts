import polyline from '@mapbox/polyline';
import { cityForCoordinate, type City } from '../../core/cities/index.ts';
import { haversineMetres, LocalProjection, type LonLat } from '../../core/geo.ts';

/**
 * Where an event is: its route's polyline (precision 5, as spec 2.2 and 2.3 encode routes) or
 * its destination. Distances to a route are to its nearest point, measured on a flat projection
 * around the query point, which is within a fraction of a percent of great-circle distance at
 * the radii the endpoint allows.
 */

export const POLYLINE_PRECISION = 5;

export const encodeRoute = (coordinates: readonly LonLat[]): string =>
  polyline.encode(
    coordinates.map(([lon, lat]) => [lat, lon]),
    POLYLINE_PRECISION,
  );

export const decodeRoute = (encoded: string): LonLat[] => polyline.decode(encoded, POLYLINE_PRECISION).map(([lat, lon]) => [lon, lat] as const);

/** Characters of one value: 6 carry 30 bits, more than any coordinate delta at precision 5 needs. */
const MAX_VALUE_CHARACTERS = 6;

/**
 * Whether `encoded` is an encoded polyline and nothing else: only the format's characters ('?'
 * to '~'), each value at most `MAX_VALUE_CHARACTERS` long and ended, and latitude-longitude
 * pairs. The decoder itself reads any string as numbers ("\u0000\u0001\uffff" decodes to two
 * points), so a polyline someone sent is checked with this first.
 */
export function isEncodedPolyline(encoded: string): boolean {
  let values = 0;
  let valueLength = 0;
  for (let index = 0; index < encoded.length; index++) {
    const chunk = encoded.charCodeAt(index) - 63;
    if (chunk < 0 || chunk > 63 || ++valueLength > MAX_VALUE_CHARACTERS) return false;
    // A chunk below 0x20 ends its value; above, the value continues.
    if (chunk < 0x20) {
      values++;
      valueLength = 0;
    }
  }
  return valueLength === 0 && values % 2 === 0;
}

export function routeBbox(coordinates: readonly LonLat[]): [number, number, number, number] {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lon, lat] of coordinates) {
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return [west, south, east, north];
}

/** Metres from the point to the nearest point of the line (a single point counts as a line). */
export function distanceToLine(point: LonLat, line: readonly LonLat[]): number {
  if (line.length === 0) return Infinity;
  if (line.length === 1) return haversineMetres(point[0], point[1], line[0]![0], line[0]![1]);
  const projection = new LocalProjection(point[1]);
  const px = projection.x(point[0]);
  const py = projection.y(point[1]);
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const ax = projection.x(line[i]![0]) - px;
    const ay = projection.y(line[i]![1]) - py;
    const bx = projection.x(line[i + 1]![0]) - px;
    const by = projection.y(line[i + 1]![1]) - py;
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSquared = dx * dx + dy * dy;
    const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / lengthSquared));
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}

/** A lower bound of the metres from the point to anything inside the box. */
export function distanceToBbox(point: LonLat, [west, south, east, north]: readonly [number, number, number, number]): number {
  const lon = Math.max(west, Math.min(east, point[0]));
  const lat = Math.max(south, Math.min(north, point[1]));
  return haversineMetres(point[0], point[1], lon, lat);
}

/** The covered city of an event: where its route starts, else where its destination is. */
export function eventCity(route: readonly LonLat[] | null, destination: LonLat): City | null {
  return cityForCoordinate(route?.[0] ?? destination);
}
