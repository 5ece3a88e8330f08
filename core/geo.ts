/** Small spherical geometry on [lon, lat] degrees (or 1e-7 degree integers), shared by snapping, search, guidance and the graph builder. */

export const EARTH_RADIUS_METRES = 6_371_008.8;
const RADIANS = Math.PI / 180;
/** Radians per 1e-7 degree, the unit OSM and the graph store coordinates in. */
const RADIANS_PER_E7 = RADIANS / 1e7;

/** A coordinate as requests give it: `[longitude, latitude]` in degrees, GeoJSON order. */
export type LonLat = readonly [number, number];
/** A coordinate as responses write it (GeoJSON's Position): the same pair, built up in place. */
export type Position = [number, number];

/** Great-circle distance in metres between coordinates given in some unit of arc (`radiansPerUnit` converts). */
function haversine(lon1: number, lat1: number, lon2: number, lat2: number, radiansPerUnit: number): number {
  const dLat = (lat2 - lat1) * radiansPerUnit;
  const dLon = (lon2 - lon1) * radiansPerUnit;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * radiansPerUnit) * Math.cos(lat2 * radiansPerUnit) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Great-circle distance in metres. */
export function haversineMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return haversine(lon1, lat1, lon2, lat2, RADIANS);
}

/**
 * Great-circle distance in metres between coordinates in 1e-7 degrees (OSM's and the graph's
 * integers). The differences are taken on the exact integers and scaled once, so this is not
 * `haversineMetres(lon1E7 / 1e7, …)` to the last bit (that divides first and rounds twice); the
 * builder's edge lengths are defined by this one.
 */
export function haversineMetresE7(lon1E7: number, lat1E7: number, lon2E7: number, lat2E7: number): number {
  return haversine(lon1E7, lat1E7, lon2E7, lat2E7, RADIANS_PER_E7);
}

/** `[west, south, east, north]`: the smallest and largest longitude and latitude, in the points' unit. */
export type BoundingBox = [number, number, number, number];

/** A box holding nothing yet, for `extendBoundingBox`. */
export const emptyBoundingBox = (): BoundingBox => [Infinity, Infinity, -Infinity, -Infinity];

/** Grows the box, in place, to hold one more point (degrees or 1e-7 degrees alike); returns it. */
export function extendBoundingBox(box: BoundingBox, lon: number, lat: number): BoundingBox {
  box[0] = Math.min(box[0], lon);
  box[1] = Math.min(box[1], lat);
  box[2] = Math.max(box[2], lon);
  box[3] = Math.max(box[3], lat);
  return box;
}

/** The bounding box of the points (a city outline, a ring). */
export function boundingBox(points: Iterable<LonLat>): BoundingBox {
  const box = emptyBoundingBox();
  for (const [lon, lat] of points) extendBoundingBox(box, lon, lat);
  return box;
}

/** Initial bearing from the first point to the second, degrees clockwise from north in [0, 360). */
export function bearingDegrees(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const phi1 = lat1 * RADIANS;
  const phi2 = lat2 * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const y = Math.sin(dLon) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLon);
  return (Math.atan2(y, x) / RADIANS + 360) % 360;
}

/** Signed turn from one bearing to another in (-180, 180]: positive is to the right. */
export function turnAngle(fromBearing: number, toBearing: number): number {
  const angle = (((toBearing - fromBearing) % 360) + 540) % 360 - 180;
  return angle === -180 ? 180 : angle;
}

/** Smallest absolute difference between two bearings, [0, 180]. */
export function bearingDifference(a: number, b: number): number {
  return Math.abs(turnAngle(a, b));
}

/**
 * A local flat projection around a latitude, in metres: accurate to well under 1% across a city,
 * which is all snapping needs, and much cheaper than spherical formulas in inner loops.
 */
export class LocalProjection {
  readonly metresPerDegreeLat = EARTH_RADIUS_METRES * RADIANS;
  readonly metresPerDegreeLon: number;
  constructor(latitude: number) {
    this.metresPerDegreeLon = this.metresPerDegreeLat * Math.cos(latitude * RADIANS);
  }
  x(lon: number): number {
    return lon * this.metresPerDegreeLon;
  }
  y(lat: number): number {
    return lat * this.metresPerDegreeLat;
  }
}
