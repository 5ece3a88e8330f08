/** Small spherical geometry on [lon, lat] degrees, shared by snapping, search and guidance. */

export const EARTH_RADIUS_METRES = 6_371_008.8;
const RADIANS = Math.PI / 180;

/** A coordinate as requests give it: `[longitude, latitude]` in degrees, GeoJSON order. */
export type LonLat = readonly [number, number];
/** A coordinate as responses write it (GeoJSON's Position): the same pair, built up in place. */
export type Position = [number, number];

/** Great-circle distance in metres. */
export function haversineMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(a)));
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
