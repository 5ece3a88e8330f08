import { boundingBox, LocalProjection, type BoundingBox, type LonLat } from '../geo.ts';
import type { Ring } from './boundaries.ts';
import { allCities, type City } from './cities.ts';

/** Even-odd ray casting; points exactly on an edge may fall either way, which outlines this coarse allow. */
export function pointInRing(point: LonLat, ring: Ring): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

interface IndexedCity {
  readonly city: City;
  readonly bbox: Readonly<BoundingBox>;
}

const indexed: readonly IndexedCity[] = allCities.map((city) => ({ city, bbox: boundingBox(city.boundary) }));

/** The covered city containing the coordinate, or null. */
export function cityForCoordinate(coordinate: LonLat): City | null {
  const [lon, lat] = coordinate;
  for (const { city, bbox } of indexed) {
    if (lon < bbox[0] || lat < bbox[1] || lon > bbox[2] || lat > bbox[3]) continue;
    if (pointInRing(coordinate, city.boundary)) return city;
  }
  return null;
}

/**
 * The cities a circle may reach: those whose outline's bounding box, widened by the radius,
 * contains the centre. A coarse first cut for "near a point" searches, which measure distances
 * to what they find themselves.
 */
export function citiesNear(coordinate: LonLat, radiusMetres: number): City[] {
  const [lon, lat] = coordinate;
  const projection = new LocalProjection(lat);
  const dLat = radiusMetres / projection.metresPerDegreeLat;
  const dLon = radiusMetres / Math.max(1, projection.metresPerDegreeLon);
  return indexed
    .filter(({ bbox }) => lon >= bbox[0] - dLon && lon <= bbox[2] + dLon && lat >= bbox[1] - dLat && lat <= bbox[3] + dLat)
    .map(({ city }) => city);
}

/**
 * The one city containing every coordinate, or null when they span cities or any lies outside
 * all of them (the request then answers `CROSS_CITY_ROUTE`).
 */
export function cityForCoordinates(coordinates: readonly LonLat[]): City | null {
  if (coordinates.length === 0) return null;
  const first = cityForCoordinate(coordinates[0]!);
  if (!first) return null;
  for (let i = 1; i < coordinates.length; i++) {
    if (cityForCoordinate(coordinates[i]!) !== first) return null;
  }
  return first;
}
