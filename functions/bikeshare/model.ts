import type { CityId } from '../../core/cities/index.ts';

/**
 * The one internal model of a bike-share system, whatever feed it came from (GBFS 1.x, 2.x,
 * 3.x, or TfL's BikePoint through its adapter). The ingestion writes one snapshot per system;
 * `/bikes/nearby/` and the multi-modal planner read it through loader.ts. Times are Unix
 * seconds, names are already localised, counts are integers. Everything the planner needs is
 * here: stations with bikes, e-bikes and free docks, dockless vehicles with their type and
 * whether they are electric, geofencing zones with the rules as their GBFS version defines
 * them, pricing plans and rental links.
 */

/** Bumped whenever a stored snapshot could no longer be read by this code. */
export const SNAPSHOT_FORMAT = 1;

/** Where the data came from: `api_type` of the spec's station objects (2.6). */
export type ApiType = 'gbfs' | 'tfl_bikepoint';

/** The feeds a snapshot is made of. TfL's single BikePoint document counts as both station feeds. */
export const FEED_NAMES = [
  'system_information',
  'station_information',
  'station_status',
  'vehicle_status',
  'vehicle_types',
  'geofencing_zones',
  'system_pricing_plans',
] as const;
export type FeedName = (typeof FEED_NAMES)[number];

/** What a feed said about itself when it was accepted, and when we fetched it. */
export interface FeedStamp {
  /** The feed's own `last_updated`, Unix seconds (GBFS 3.x RFC 3339 times are converted). */
  last_updated: number;
  /** The feed's `ttl`, seconds; 0 means refresh on every run. */
  ttl: number;
  /** The GBFS version the document declared (`1.0` when it declared none), or `tfl`. */
  version: string;
  /** Our clock when the document was fetched, Unix seconds. */
  fetched_at: number;
  url: string;
}

export interface RentalUris {
  android?: string;
  ios?: string;
  web?: string;
}

export interface SystemInformation {
  name: string;
  operator: string | null;
  timezone: string | null;
  /** GBFS `rental_apps`: store and discovery links of the operator's apps. */
  rental_apps: { android?: { store_uri?: string; discovery_uri?: string }; ios?: { store_uri?: string; discovery_uri?: string } } | null;
}

export interface VehicleTypeCount {
  vehicle_type_id: string;
  count: number;
}

export interface Station {
  station_id: string;
  name: string;
  lat: number;
  lon: number;
  /** Docks; when the feed gives none, the bikes and docks it reports (available and disabled). */
  capacity: number;
  is_virtual: boolean;
  is_installed: boolean;
  is_renting: boolean;
  is_returning: boolean;
  /** When the station last reported, Unix seconds; the feed's `last_updated` when it gives none. */
  last_reported: number;
  /** GBFS 2.x `num_bikes_available`, 3.x `num_vehicles_available`, TfL `NbBikes`. */
  num_bikes_available: number;
  /** Electric ones among them; null when the feed cannot tell. */
  num_ebikes_available: number | null;
  num_docks_available: number;
  vehicle_types_available: VehicleTypeCount[] | null;
  rental_uris: RentalUris | null;
}

export interface VehicleType {
  vehicle_type_id: string;
  /** GBFS `form_factor`: bicycle, cargo_bicycle, scooter, scooter_standing, moped, car, other. */
  form_factor: string;
  /** GBFS `propulsion_type`: human, electric_assist, electric, combustion, ... */
  propulsion_type: string;
  name: string | null;
  max_range_meters: number | null;
}

/** A free-floating vehicle (GBFS `free_bike_status` / `vehicle_status`) parked outside any station. */
export interface Vehicle {
  vehicle_id: string;
  lat: number;
  lon: number;
  is_reserved: boolean;
  is_disabled: boolean;
  vehicle_type_id: string | null;
  form_factor: string | null;
  propulsion_type: string | null;
  is_electric: boolean;
  /** The spec's `vehicle_type` (2.6): `bike`, `electric_bike`, `scooter`, `electric_scooter`, `moped`, ... */
  vehicle_type: string;
  current_range_meters: number | null;
  last_reported: number | null;
  pricing_plan_id: string | null;
  rental_uris: RentalUris | null;
}

/**
 * Geofencing rules kept as their GBFS version defines them, because the two disagree: in 2.x
 * `ride_allowed` covers both starting and ending a ride in the zone and outside every zone all
 * is allowed; 3.x splits it into `ride_start_allowed` and `ride_end_allowed`, and its
 * `global_rules` say what applies outside every zone (often: no ending a ride there).
 */
export type GeofencingRule =
  | {
      semantics: 'gbfs-2';
      /** null: the rule applies to every vehicle type. */
      vehicle_type_ids: string[] | null;
      ride_allowed: boolean;
      ride_through_allowed: boolean;
      maximum_speed_kph: number | null;
      station_parking: boolean | null;
    }
  | {
      semantics: 'gbfs-3';
      vehicle_type_ids: string[] | null;
      ride_start_allowed: boolean;
      ride_end_allowed: boolean;
      ride_through_allowed: boolean;
      maximum_speed_kph: number | null;
      station_parking: boolean | null;
    };

export interface GeofencingZone {
  name: string | null;
  /** When the zone applies, Unix seconds; null for always. */
  start: number | null;
  end: number | null;
  /** GeoJSON MultiPolygon coordinates, [lon, lat]. */
  multipolygon: number[][][][];
  /** In order: where rules overlap, the first one that matches a vehicle type wins (GBFS). */
  rules: GeofencingRule[];
}

export interface Geofencing {
  /** The GBFS version of the feed the zones came from. */
  gbfs_version: string;
  semantics: 'gbfs-2' | 'gbfs-3';
  zones: GeofencingZone[];
  /** 3.x: the rules outside every zone. 2.x has none: outside every zone everything is allowed. */
  global_rules: GeofencingRule[];
}

export interface PricingSegment {
  start: number;
  rate: number;
  interval: number;
  end: number | null;
}

export interface PricingPlan {
  plan_id: string;
  name: string;
  currency: string;
  /** Fixed price, in the currency's units (2.x feeds sometimes send it as a string). */
  price: number;
  is_taxable: boolean;
  description: string;
  per_km_pricing: PricingSegment[];
  per_min_pricing: PricingSegment[];
  surge_pricing: boolean;
}

/** The discovery document as last read: which URL serves which feed. */
export interface Discovery {
  url: string;
  version: string;
  feeds: Partial<Record<string, string>>;
  last_updated: number;
  ttl: number;
  fetched_at: number;
}

export interface BikeShareSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  system_id: string;
  city: CityId;
  /** The spec's `brand`: the system's name riders know (Citi Bike, Santander Cycles). */
  brand: string;
  /** The spec's dockless `provider`: who runs it (Lyft, Transport for London). */
  provider: string;
  api_type: ApiType;
  /** When the ingestion wrote this snapshot, Unix seconds. */
  written_at: number;
  discovery: Discovery | null;
  /** The accepted document of each feed; absent when the system does not publish it. */
  feeds: Partial<Record<FeedName, FeedStamp>>;
  system: SystemInformation | null;
  stations: Station[];
  vehicles: Vehicle[];
  vehicle_types: VehicleType[];
  geofencing: Geofencing | null;
  pricing_plans: PricingPlan[];
}

/** Listed to riders (spec 4.7): installed and renting. */
export const isOperationalStation = (station: Station): boolean => station.is_installed && station.is_renting;

/** Listed to riders (spec 4.7): neither reserved nor disabled. */
export const isAvailableVehicle = (vehicle: Vehicle): boolean => !vehicle.is_reserved && !vehicle.is_disabled;

const ELECTRIC_PROPULSION: ReadonlySet<string> = new Set(['electric_assist', 'electric']);

export const isElectricPropulsion = (propulsion: string | null): boolean => propulsion !== null && ELECTRIC_PROPULSION.has(propulsion);

/** The spec's one-word `vehicle_type` from GBFS form factor and propulsion. */
export function vehicleTypeLabel(formFactor: string | null, propulsion: string | null): string {
  const form = formFactor === null || formFactor === 'bicycle' ? 'bike' : formFactor === 'scooter_standing' ? 'scooter' : formFactor;
  return isElectricPropulsion(propulsion) ? `electric_${form}` : form;
}
