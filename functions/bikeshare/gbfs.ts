import {
  count,
  FeedRefused,
  finiteNumber,
  flag,
  identifier,
  isObject,
  latitude,
  localised,
  longitude,
  stringList,
  text,
  unixSeconds,
  type Json,
} from './feed-values.ts';
import {
  isElectricPropulsion,
  vehicleTypeLabel,
  type Geofencing,
  type GeofencingRule,
  type GeofencingZone,
  type PricingPlan,
  type PricingSegment,
  type RentalUris,
  type Station,
  type SystemInformation,
  type Vehicle,
  type VehicleType,
  type VehicleTypeCount,
} from './model.ts';

/**
 * GBFS documents (1.x, 2.x, 3.x) read into the internal model (model.ts). One function per feed;
 * each takes the parsed document and returns what it could read plus how many entries it had
 * to drop, and refuses (FeedRefused) a document that is not a feed at all. Version differences
 * are handled field by field: 3.x `num_vehicles_available` and `vehicle_status`, RFC 3339 times,
 * localised names and `vehicle_type_ids`; 2.x `num_bikes_available`, `free_bike_status`, POSIX
 * times and `vehicle_type_id`; 1.x 0/1 booleans and Lyft's `num_ebikes_available` and `type`.
 */

export interface FeedDocument {
  last_updated: number;
  ttl: number;
  /** As declared; 1.x documents often declare none and are read as `1.0`. */
  version: string;
  data: Json;
}

/** How much of a document could be read: entries dropped for missing or unreadable fields. */
export interface ReadCounts {
  total: number;
  invalid: number;
}

export const majorVersion = (version: string): number => Number.parseInt(version, 10) || 1;

export function readFeedDocument(feed: string, body: unknown): FeedDocument {
  if (!isObject(body)) throw new FeedRefused('broken', feed, 'the document is not a JSON object');
  const lastUpdated = unixSeconds(body.last_updated);
  if (lastUpdated === null) throw new FeedRefused('broken', feed, 'last_updated is missing or unreadable');
  const ttl = count(body.ttl);
  if (ttl === null) throw new FeedRefused('broken', feed, 'ttl is missing or not a whole number of seconds');
  if (!isObject(body.data)) throw new FeedRefused('broken', feed, 'data is missing');
  return { last_updated: lastUpdated, ttl, version: typeof body.version === 'string' ? body.version : '1.0', data: body.data };
}

function entries(feed: string, data: Json, key: string): unknown[] {
  const list = data[key];
  if (!Array.isArray(list)) throw new FeedRefused('broken', feed, `data.${key} is not a list`);
  return list;
}

function rentalUris(value: unknown): RentalUris | null {
  if (!isObject(value)) return null;
  const uris: RentalUris = {};
  for (const platform of ['android', 'ios', 'web'] as const) {
    if (typeof value[platform] === 'string') uris[platform] = value[platform];
  }
  return Object.keys(uris).length ? uris : null;
}

// ---------------------------------------------------------------- discovery

/**
 * The feed URLs of a discovery document. 3.x lists `data.feeds`; 1.x and 2.x list them per
 * language (`data.en.feeds`), and the preferred language is taken when the feed has it.
 */
export function readDiscovery(document: FeedDocument, language: string): Record<string, string> {
  let feeds: unknown;
  if (majorVersion(document.version) >= 3) {
    feeds = document.data.feeds;
  } else {
    const languages = Object.keys(document.data).filter((key) => isObject(document.data[key]));
    const chosen = languages.find((key) => key.toLowerCase().split('-')[0] === language) ?? languages[0];
    feeds = chosen ? (document.data[chosen] as Json).feeds : undefined;
  }
  if (!Array.isArray(feeds)) throw new FeedRefused('broken', 'gbfs', 'the discovery document lists no feeds');
  const urls: Record<string, string> = {};
  for (const feed of feeds) {
    if (isObject(feed) && typeof feed.name === 'string' && typeof feed.url === 'string') urls[feed.name] = feed.url;
  }
  return urls;
}

/**
 * A GBFS 3.x `manifest.json` names the systems of a publisher and the versions each serves; the
 * discovery URL is the newest 3.x version of the configured system (or of the only one).
 */
export function discoveryUrlFromManifest(document: FeedDocument, systemId: string | null): string {
  const datasets = entries('manifest', document.data, 'datasets').filter(isObject);
  const dataset = systemId ? datasets.find((candidate) => candidate.system_id === systemId) : datasets.length === 1 ? datasets[0] : undefined;
  if (!dataset) throw new FeedRefused('broken', 'manifest', `the manifest has no dataset for system ${systemId ?? '(unnamed)'}`);
  const versions = (Array.isArray(dataset.versions) ? dataset.versions : [])
    .filter((entry): entry is { version: string; url: string } => isObject(entry) && typeof entry.version === 'string' && typeof entry.url === 'string')
    .filter((entry) => majorVersion(entry.version) === 3)
    .sort((a, b) => Number.parseFloat(b.version) - Number.parseFloat(a.version));
  if (!versions[0]) throw new FeedRefused('broken', 'manifest', 'the dataset offers no GBFS 3.x version');
  return versions[0].url;
}

export const isManifest = (document: FeedDocument): boolean => Array.isArray(document.data.datasets);

// ---------------------------------------------------------------- system information

export function readSystemInformation(document: FeedDocument, language: string): SystemInformation {
  const data = document.data;
  const name = localised(data.name, language);
  if (!name) throw new FeedRefused('broken', 'system_information', 'the system has no name');
  const apps = isObject(data.rental_apps) ? data.rental_apps : null;
  const app = (platform: 'android' | 'ios') => {
    const entry = apps?.[platform];
    if (!isObject(entry)) return undefined;
    return {
      ...(typeof entry.store_uri === 'string' ? { store_uri: entry.store_uri } : {}),
      ...(typeof entry.discovery_uri === 'string' ? { discovery_uri: entry.discovery_uri } : {}),
    };
  };
  const android = app('android');
  const ios = app('ios');
  return {
    name,
    operator: localised(data.operator, language),
    timezone: text(data.timezone),
    rental_apps: android || ios ? { ...(android ? { android } : {}), ...(ios ? { ios } : {}) } : null,
  };
}

// ---------------------------------------------------------------- stations

export interface StationInformation {
  station_id: string;
  name: string;
  lat: number;
  lon: number;
  capacity: number | null;
  is_virtual: boolean;
  rental_uris: RentalUris | null;
}

export interface StationStatus {
  is_installed: boolean;
  is_renting: boolean;
  is_returning: boolean;
  last_reported: number | null;
  num_bikes_available: number;
  num_bikes_disabled: number;
  /** Lyft's extension in 1.x and 2.x feeds. */
  num_ebikes_available: number | null;
  num_docks_available: number | null;
  num_docks_disabled: number;
  vehicle_types_available: VehicleTypeCount[] | null;
}

export function readStationInformation(document: FeedDocument, language: string): ReadCounts & { stations: Map<string, StationInformation> } {
  const list = entries('station_information', document.data, 'stations');
  const stations = new Map<string, StationInformation>();
  let invalid = 0;
  for (const entry of list) {
    const station = isObject(entry) ? stationInformation(entry, language) : null;
    if (!station || stations.has(station.station_id)) invalid++;
    else stations.set(station.station_id, station);
  }
  return { stations, total: list.length, invalid };
}

function stationInformation(entry: Json, language: string): StationInformation | null {
  const id = identifier(entry.station_id);
  const name = localised(entry.name, language);
  const lat = latitude(entry.lat);
  const lon = longitude(entry.lon);
  // 0,0 is where operators park virtual test stations, never a real dock.
  if (!id || name === null || lat === null || lon === null || (lat === 0 && lon === 0)) return null;
  return {
    station_id: id,
    name,
    lat,
    lon,
    capacity: count(entry.capacity),
    is_virtual: flag(entry.is_virtual_station) ?? false,
    rental_uris: rentalUris(entry.rental_uris),
  };
}

function vehicleTypeCounts(value: unknown): VehicleTypeCount[] | null {
  if (!Array.isArray(value)) return null;
  const counts: VehicleTypeCount[] = [];
  for (const entry of value) {
    const id = isObject(entry) ? identifier(entry.vehicle_type_id) : null;
    const number = isObject(entry) ? count(entry.count) : null;
    if (id === null || number === null) return null;
    counts.push({ vehicle_type_id: id, count: number });
  }
  return counts;
}

export function readStationStatus(document: FeedDocument): ReadCounts & { statuses: Map<string, StationStatus> } {
  const list = entries('station_status', document.data, 'stations');
  const v3 = majorVersion(document.version) >= 3;
  const statuses = new Map<string, StationStatus>();
  let invalid = 0;
  for (const entry of list) {
    const id = isObject(entry) ? identifier(entry.station_id) : null;
    const status = isObject(entry) ? stationStatus(entry, v3) : null;
    if (!id || !status || statuses.has(id)) invalid++;
    else statuses.set(id, status);
  }
  return { statuses, total: list.length, invalid };
}

function stationStatus(entry: Json, v3: boolean): StationStatus | null {
  const bikes = count(v3 ? entry.num_vehicles_available : entry.num_bikes_available);
  const installed = flag(entry.is_installed);
  const renting = flag(entry.is_renting);
  const returning = flag(entry.is_returning);
  if (bikes === null || installed === null || renting === null || returning === null) return null;
  return {
    is_installed: installed,
    is_renting: renting,
    is_returning: returning,
    last_reported: unixSeconds(entry.last_reported),
    num_bikes_available: bikes,
    num_bikes_disabled: count(v3 ? entry.num_vehicles_disabled : entry.num_bikes_disabled) ?? 0,
    num_ebikes_available: count(entry.num_ebikes_available),
    num_docks_available: count(entry.num_docks_available),
    num_docks_disabled: count(entry.num_docks_disabled) ?? 0,
    vehicle_types_available: vehicleTypeCounts(entry.vehicle_types_available),
  };
}

/** E-bikes, as Lyft's `num_ebikes_available` counts them: electric bicycles, not scooters. */
const isElectricBicycle = (type: VehicleType): boolean =>
  (type.form_factor === 'bicycle' || type.form_factor === 'cargo_bicycle') && isElectricPropulsion(type.propulsion_type);

/**
 * Stations as riders see them: information joined with status. A station without a status is
 * left out (the caller counts them); e-bikes come from `vehicle_types_available` when the
 * vehicle types are known, else from Lyft's `num_ebikes_available`.
 */
export function joinStations(
  information: ReadonlyMap<string, StationInformation>,
  statuses: ReadonlyMap<string, StationStatus>,
  vehicleTypes: readonly VehicleType[],
  feedLastUpdated: number,
): { stations: Station[]; withoutStatus: number } {
  const electric = new Set(vehicleTypes.filter(isElectricBicycle).map((type) => type.vehicle_type_id));
  const stations: Station[] = [];
  let withoutStatus = 0;
  for (const info of information.values()) {
    const status = statuses.get(info.station_id);
    if (!status) {
      withoutStatus++;
      continue;
    }
    const byType = status.vehicle_types_available;
    const ebikes =
      byType && vehicleTypes.length
        ? byType.filter((entry) => electric.has(entry.vehicle_type_id)).reduce((sum, entry) => sum + entry.count, 0)
        : status.num_ebikes_available;
    const docks = status.num_docks_available ?? 0;
    stations.push({
      station_id: info.station_id,
      name: info.name,
      lat: info.lat,
      lon: info.lon,
      capacity: info.capacity ?? status.num_bikes_available + status.num_bikes_disabled + docks + status.num_docks_disabled,
      is_virtual: info.is_virtual,
      is_installed: status.is_installed,
      is_renting: status.is_renting,
      is_returning: status.is_returning,
      last_reported: status.last_reported ?? feedLastUpdated,
      num_bikes_available: status.num_bikes_available,
      num_ebikes_available: ebikes,
      num_docks_available: docks,
      vehicle_types_available: byType,
      rental_uris: info.rental_uris,
    });
  }
  return { stations, withoutStatus };
}

// ---------------------------------------------------------------- vehicles

export function readVehicleTypes(document: FeedDocument, language: string): ReadCounts & { vehicleTypes: VehicleType[] } {
  const list = entries('vehicle_types', document.data, 'vehicle_types');
  const vehicleTypes: VehicleType[] = [];
  let invalid = 0;
  for (const entry of list) {
    const id = isObject(entry) ? identifier(entry.vehicle_type_id) : null;
    const form = isObject(entry) ? text(entry.form_factor) : null;
    const propulsion = isObject(entry) ? text(entry.propulsion_type) : null;
    if (!id || !form || !propulsion) {
      invalid++;
      continue;
    }
    const json = entry as Json;
    vehicleTypes.push({
      vehicle_type_id: id,
      form_factor: form,
      propulsion_type: propulsion,
      name: localised(json.name, language),
      max_range_meters: finiteNumber(json.max_range_meters),
    });
  }
  return { vehicleTypes, total: list.length, invalid };
}

/**
 * Lyft's 1.x free_bike_status says `type: "electric_bike"` instead of naming a vehicle type; it
 * is read as GBFS would describe it.
 */
const LYFT_TYPES: Readonly<Record<string, { form_factor: string; propulsion_type: string }>> = {
  electric_bike: { form_factor: 'bicycle', propulsion_type: 'electric_assist' },
  classic_bike: { form_factor: 'bicycle', propulsion_type: 'human' },
  scooter: { form_factor: 'scooter', propulsion_type: 'electric' },
};

/**
 * Free-floating vehicles: 1.x/2.x `free_bike_status` (`bikes`, `bike_id`) or 3.x
 * `vehicle_status` (`vehicles`, `vehicle_id`). Vehicles docked at a station (a `station_id` and
 * no position) are counted apart: they are in that station's counts.
 */
export function readVehicles(document: FeedDocument, vehicleTypes: readonly VehicleType[]): ReadCounts & { vehicles: Vehicle[]; atStations: number } {
  const v3 = majorVersion(document.version) >= 3;
  const list = entries('vehicle_status', document.data, v3 ? 'vehicles' : 'bikes');
  const types = new Map(vehicleTypes.map((type) => [type.vehicle_type_id, type]));
  const vehicles: Vehicle[] = [];
  const seen = new Set<string>();
  let invalid = 0;
  let atStations = 0;
  for (const entry of list) {
    if (!isObject(entry)) {
      invalid++;
      continue;
    }
    const id = identifier(v3 ? entry.vehicle_id : entry.bike_id);
    const lat = latitude(entry.lat);
    const lon = longitude(entry.lon);
    const reserved = flag(entry.is_reserved);
    const disabled = flag(entry.is_disabled);
    if (id && (lat === null || lon === null) && identifier(entry.station_id)) {
      atStations++;
      continue;
    }
    if (!id || seen.has(id) || lat === null || lon === null || reserved === null || disabled === null) {
      invalid++;
      continue;
    }
    seen.add(id);
    const typeId = identifier(entry.vehicle_type_id);
    const known = typeId ? types.get(typeId) : typeof entry.type === 'string' ? LYFT_TYPES[entry.type] : undefined;
    const form = known?.form_factor ?? null;
    const propulsion = known?.propulsion_type ?? null;
    vehicles.push({
      vehicle_id: id,
      lat,
      lon,
      is_reserved: reserved,
      is_disabled: disabled,
      vehicle_type_id: typeId,
      form_factor: form,
      propulsion_type: propulsion,
      is_electric: isElectricPropulsion(propulsion),
      vehicle_type: vehicleTypeLabel(form, propulsion),
      current_range_meters: finiteNumber(entry.current_range_meters),
      last_reported: unixSeconds(entry.last_reported),
      pricing_plan_id: identifier(entry.pricing_plan_id),
      rental_uris: rentalUris(entry.rental_uris),
    });
  }
  return { vehicles, total: list.length, invalid, atStations };
}

// ---------------------------------------------------------------- geofencing

function geofencingRule(entry: unknown, v3: boolean): GeofencingRule | null {
  if (!isObject(entry)) return null;
  const through = flag(entry.ride_through_allowed);
  const speed = finiteNumber(entry.maximum_speed_kph);
  const parking = flag(entry.station_parking);
  if (through === null) return null;
  if (v3) {
    const start = flag(entry.ride_start_allowed);
    const end = flag(entry.ride_end_allowed);
    if (start === null || end === null) return null;
    return {
      semantics: 'gbfs-3',
      vehicle_type_ids: stringList(entry.vehicle_type_ids),
      ride_start_allowed: start,
      ride_end_allowed: end,
      ride_through_allowed: through,
      maximum_speed_kph: speed,
      station_parking: parking,
    };
  }
  const allowed = flag(entry.ride_allowed);
  if (allowed === null) return null;
  return {
    semantics: 'gbfs-2',
    // 2.x names the list `vehicle_type_id`.
    vehicle_type_ids: stringList(entry.vehicle_type_id),
    ride_allowed: allowed,
    ride_through_allowed: through,
    maximum_speed_kph: speed,
    station_parking: parking,
  };
}

function multipolygon(geometry: unknown): number[][][][] | null {
  if (!isObject(geometry) || !Array.isArray(geometry.coordinates)) return null;
  const valid = (ring: unknown) =>
    Array.isArray(ring) && ring.length >= 4 && ring.every((point) => Array.isArray(point) && longitude(point[0]) !== null && latitude(point[1]) !== null);
  const polygons = geometry.type === 'MultiPolygon' ? geometry.coordinates : geometry.type === 'Polygon' ? [geometry.coordinates] : null;
  if (!polygons || polygons.length === 0) return null;
  for (const polygon of polygons) if (!Array.isArray(polygon) || polygon.length === 0 || !polygon.every(valid)) return null;
  return polygons as number[][][][];
}

/** Zones with their rules as the feed's version defines them; a zone without a usable polygon is dropped. */
export function readGeofencing(document: FeedDocument, language: string): ReadCounts & { geofencing: Geofencing } {
  const v3 = majorVersion(document.version) >= 3;
  const collection = document.data.geofencing_zones;
  if (!isObject(collection) || !Array.isArray(collection.features)) {
    throw new FeedRefused('broken', 'geofencing_zones', 'data.geofencing_zones is not a FeatureCollection');
  }
  const zones: GeofencingZone[] = [];
  let invalid = 0;
  for (const feature of collection.features) {
    const properties = isObject(feature) && isObject(feature.properties) ? feature.properties : null;
    const polygons = isObject(feature) ? multipolygon(feature.geometry) : null;
    const rules = Array.isArray(properties?.rules) ? properties.rules.map((rule) => geofencingRule(rule, v3)) : [];
    if (!properties || !polygons || rules.some((rule) => rule === null)) {
      invalid++;
      continue;
    }
    zones.push({
      name: localised(properties.name, language),
      start: unixSeconds(properties.start),
      end: unixSeconds(properties.end),
      multipolygon: polygons,
      rules: rules as GeofencingRule[],
    });
  }
  const globalRules = v3 && Array.isArray(document.data.global_rules) ? document.data.global_rules.map((rule) => geofencingRule(rule, true)) : [];
  if (globalRules.some((rule) => rule === null)) throw new FeedRefused('broken', 'geofencing_zones', 'global_rules cannot be read');
  return {
    geofencing: { gbfs_version: document.version, semantics: v3 ? 'gbfs-3' : 'gbfs-2', zones, global_rules: globalRules as GeofencingRule[] },
    total: collection.features.length,
    invalid,
  };
}

// ---------------------------------------------------------------- pricing

function segments(value: unknown): PricingSegment[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return null;
  const read: PricingSegment[] = [];
  for (const entry of value) {
    if (!isObject(entry)) return null;
    const start = finiteNumber(entry.start);
    const rate = finiteNumber(entry.rate);
    const interval = finiteNumber(entry.interval);
    if (start === null || rate === null || interval === null) return null;
    read.push({ start, rate, interval, end: finiteNumber(entry.end) });
  }
  return read;
}

export function readPricingPlans(document: FeedDocument, language: string): ReadCounts & { plans: PricingPlan[] } {
  const list = entries('system_pricing_plans', document.data, 'plans');
  const plans: PricingPlan[] = [];
  let invalid = 0;
  for (const entry of list) {
    const plan = isObject(entry) ? pricingPlan(entry, language) : null;
    if (plan) plans.push(plan);
    else invalid++;
  }
  return { plans, total: list.length, invalid };
}

function pricingPlan(entry: Json, language: string): PricingPlan | null {
  const id = identifier(entry.plan_id);
  const name = localised(entry.name, language);
  const currency = text(entry.currency);
  const price = finiteNumber(entry.price);
  const taxable = flag(entry.is_taxable);
  const perKm = segments(entry.per_km_pricing);
  const perMin = segments(entry.per_min_pricing);
  if (!id || name === null || !currency || price === null || taxable === null || !perKm || !perMin) return null;
  return {
    plan_id: id,
    name,
    currency,
    price,
    is_taxable: taxable,
    description: localised(entry.description, language) ?? '',
    per_km_pricing: perKm,
    per_min_pricing: perMin,
    surge_pricing: flag(entry.surge_pricing) ?? false,
  };
}
