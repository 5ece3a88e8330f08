import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalProjection, type LonLat } from '../../core/geo.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { readFeedDocument, readGeofencing, readVehicles, readVehicleTypes } from '../../functions/bikeshare/gbfs.ts';
import type { Geofencing, GeofencingZone } from '../../functions/bikeshare/model.ts';

/** Geofencing zones for tests: the real GBFS 3.0 reference set, and hand-made zones in either version. */

const ALMERE = '_reference-check-almere-gbfs-3.0/2025-05-21T0748Z';
const recorded = (file: string): unknown => JSON.parse(readFileSync(join(sharedDataPath(), 'gbfs', ALMERE, file), 'utf8'));

export const almereGeofencing = (): Geofencing => readGeofencing(readFeedDocument('geofencing_zones', recorded('geofencing_zones.json')), 'en').geofencing;

export function almereVehicles() {
  const types = readVehicleTypes(readFeedDocument('vehicle_types', recorded('vehicle_types.json')), 'en').vehicleTypes;
  return readVehicles(readFeedDocument('vehicle_status', recorded('vehicle_status.json')), types).vehicles;
}

/** A square ring of `sideMetres` around a point, its corners running clockwise or counterclockwise. */
export function square(center: LonLat, sideMetres: number, winding: 'clockwise' | 'counterclockwise'): number[][] {
  const projection = new LocalProjection(center[1]);
  const dLon = sideMetres / 2 / projection.metresPerDegreeLon;
  const dLat = sideMetres / 2 / projection.metresPerDegreeLat;
  const [x, y] = center;
  // Counterclockwise: SW, SE, NE, NW, SW.
  const ring = [[x - dLon, y - dLat], [x + dLon, y - dLat], [x + dLon, y + dLat], [x - dLon, y + dLat], [x - dLon, y - dLat]];
  return winding === 'counterclockwise' ? ring : ring.reverse();
}

type Rule2 = { vehicle_type_id?: string[]; ride_allowed: boolean; ride_through_allowed: boolean };
type Rule3 = { vehicle_type_ids?: string[]; ride_start_allowed: boolean; ride_end_allowed: boolean; ride_through_allowed: boolean };

/** A geofencing feed read through the platform's own reader, as an operator would publish it. */
export function geofencingFeed(
  version: '2.3' | '3.0',
  zones: { name: string; rings: number[][][]; rules: (Rule2 | Rule3)[]; start?: string | number; end?: string | number }[],
  globalRules: Rule3[] = [],
): Geofencing {
  const document = {
    last_updated: version === '3.0' ? '2026-06-15T10:00:00Z' : 1781517600,
    ttl: 60,
    version,
    data: {
      geofencing_zones: {
        type: 'FeatureCollection',
        features: zones.map((zone) => ({
          type: 'Feature',
          geometry: { type: 'MultiPolygon', coordinates: [zone.rings] },
          properties: {
            name: version === '3.0' ? [{ text: zone.name, language: 'en' }] : zone.name,
            rules: zone.rules,
            ...(zone.start !== undefined ? { start: zone.start } : {}),
            ...(zone.end !== undefined ? { end: zone.end } : {}),
          },
        })),
      },
      ...(version === '3.0' ? { global_rules: globalRules } : {}),
    },
  };
  return readGeofencing(readFeedDocument('geofencing_zones', document), 'en').geofencing;
}

/** A point inside the zone and outside every zone listed before it, found on a grid over its box. */
export function pointOnlyIn(geofencing: Geofencing, zone: GeofencingZone): LonLat {
  const earlier = geofencing.zones.slice(0, geofencing.zones.indexOf(zone));
  const inside = (candidate: GeofencingZone, point: LonLat) =>
    candidate.multipolygon.some((rings) => booleanPointInPolygon([point[0], point[1]], { type: 'Polygon', coordinates: rings }));
  const ring = zone.multipolygon[0]![0]!;
  const lons = ring.map((point) => point[0]!);
  const lats = ring.map((point) => point[1]!);
  for (let i = 1; i < 40; i++) {
    for (let j = 1; j < 40; j++) {
      const point: LonLat = [Math.min(...lons) + ((Math.max(...lons) - Math.min(...lons)) * i) / 40, Math.min(...lats) + ((Math.max(...lats) - Math.min(...lats)) * j) / 40];
      if (inside(zone, point) && !earlier.some((candidate) => inside(candidate, point))) return point;
    }
  }
  throw new Error(`No point only in ${zone.name}`);
}
