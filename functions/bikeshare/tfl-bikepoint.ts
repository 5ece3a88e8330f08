import { count, FeedRefused, flag, identifier, isObject, latitude, longitude, text, unixSeconds } from './feed-values.ts';
import type { Station } from './model.ts';

/**
 * Santander Cycles through TfL's Unified API `/BikePoint`: not GBFS but an array of Place
 * objects whose counts are strings in `additionalProperties` (`NbBikes`, `NbEBikes`,
 * `NbEmptyDocks`, `NbDocks`, `Installed`, `Locked`), each with its own
 * `modified` time. The adapter turns it into the same stations a GBFS feed gives. The document
 * has no `last_updated`; the newest `modified` stands for it.
 */

export interface BikePointRead {
  stations: Station[];
  /** The newest `modified` of any property, Unix seconds. */
  last_updated: number;
  total: number;
  invalid: number;
}

export function readBikePoints(body: unknown): BikePointRead {
  if (!Array.isArray(body)) throw new FeedRefused('broken', 'BikePoint', 'the document is not an array of places');
  const stations: Station[] = [];
  const seen = new Set<string>();
  let lastUpdated = 0;
  let invalid = 0;
  for (const place of body) {
    const read = isObject(place) ? bikePoint(place) : null;
    if (!read || seen.has(read.station.station_id)) {
      invalid++;
      continue;
    }
    seen.add(read.station.station_id);
    stations.push(read.station);
    lastUpdated = Math.max(lastUpdated, read.modified);
  }
  if (stations.length && lastUpdated === 0) throw new FeedRefused('broken', 'BikePoint', 'no property carries a modified time');
  return { stations, last_updated: lastUpdated, total: body.length, invalid };
}

function bikePoint(place: Record<string, unknown>): { station: Station; modified: number } | null {
  const id = identifier(place.id);
  const name = text(place.commonName);
  const lat = latitude(place.lat);
  const lon = longitude(place.lon);
  if (!id || name === null || lat === null || lon === null || !Array.isArray(place.additionalProperties)) return null;
  const properties = new Map<string, unknown>();
  let modified = 0;
  for (const property of place.additionalProperties) {
    if (!isObject(property) || typeof property.key !== 'string') continue;
    properties.set(property.key, property.value);
    modified = Math.max(modified, unixSeconds(property.modified) ?? 0);
  }
  const bikes = count(properties.get('NbBikes'));
  const emptyDocks = count(properties.get('NbEmptyDocks'));
  const docks = count(properties.get('NbDocks'));
  const installed = flag(properties.get('Installed'));
  const locked = flag(properties.get('Locked'));
  if (bikes === null || emptyDocks === null || docks === null || installed === null || locked === null || modified === 0) return null;
  // `RemovalDate` is no guide: three stations of the 2026 recording carry one from 2018 and still
  // report bikes and docks. `Installed` and `Locked` decide.
  return {
    station: {
      station_id: id,
      name,
      lat,
      lon,
      capacity: docks,
      is_virtual: false,
      is_installed: installed,
      // A locked docking station neither releases nor takes bikes.
      is_renting: installed && !locked,
      is_returning: installed && !locked,
      last_reported: modified,
      num_bikes_available: bikes,
      num_ebikes_available: count(properties.get('NbEBikes')),
      num_docks_available: emptyDocks,
      vehicle_types_available: null,
      rental_uris: null,
    },
    modified,
  };
}
